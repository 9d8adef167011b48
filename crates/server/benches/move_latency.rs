//! The server's own time for a move (no AI thinking): 100 games on one
//! screen in progress, moves posted round-robin through the router, each one
//! parsed, checked, committed to SQLite (a file, WAL; or PostgreSQL with
//! `MOVE_LATENCY_POSTGRES`) and broadcast. Prints
//! p50, p95 and p99 over all moves, then p50/p99 by ten rounds (the games'
//! plies grow with the rounds). `MOVE_LATENCY_ROUNDS` changes the rounds.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, header};
use http_body_util::BodyExt;
use palabre_server::{AppState, Config, app};
use serde_json::{Value, json};
use tower::ServiceExt;

const GAMES: usize = 100;
const ROUNDS: usize = 40;

async fn post(
    router: &axum::Router,
    uri: &str,
    seat: Option<&str>,
    body: Value,
) -> (Duration, Value) {
    let mut req = Request::post(uri).header(header::CONTENT_TYPE, "application/json");
    if let Some(seat) = seat {
        req = req.header(header::AUTHORIZATION, format!("Bearer {seat}"));
    }
    let started = Instant::now();
    let res = router
        .clone()
        .oneshot(req.body(Body::from(body.to_string())).unwrap())
        .await
        .unwrap();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (started.elapsed(), serde_json::from_slice(&bytes).unwrap())
}

fn pick(state: &Value, round: usize) -> Option<String> {
    palabre_server::bots::move_from_state(state, round * 7)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    // `MOVE_LATENCY_POSTGRES=postgres://…/DB` measures on a fresh database
    // of that server instead of an SQLite file.
    let db = match std::env::var("MOVE_LATENCY_POSTGRES") {
        Ok(base) => palabre_server::store::scratch_postgres(&base)
            .await
            .unwrap(),
        Err(_) => dir.path().join("bench.db").to_string_lossy().into_owned(),
    };
    println!("database: {db}");
    let state = AppState::open(&Config {
        db: Some(db),
        ..Config::testing()
    })
    .await
    .unwrap();
    let router = app(state);
    let mut games = Vec::new();
    for i in 0..GAMES {
        let game = if i % 2 == 0 {
            json!({"game": "yote", "opponent": "local"})
        } else {
            json!({"game": "nsolo", "size": 8, "opponent": "local"})
        };
        let (_, v) = post(&router, "/api/games", None, game).await;
        games.push((
            v["id"].as_str().unwrap().to_owned(),
            v["seat"].as_str().unwrap().to_owned(),
            v["state"].clone(),
        ));
    }
    let rounds = std::env::var("MOVE_LATENCY_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ROUNDS);
    let mut times = Vec::new();
    let mut by_rounds: Vec<Vec<Duration>> = Vec::new();
    for round in 0..rounds {
        if round % 10 == 0 {
            by_rounds.push(Vec::new());
        }
        for (id, seat, state) in games.iter_mut() {
            if !state["result"].is_null() {
                continue;
            }
            let Some(m) = pick(state, round) else {
                continue;
            };
            let ply = state["ply"].clone();
            let (took, next) = post(
                &router,
                &format!("/api/games/{id}/moves"),
                Some(seat),
                json!({"move": m, "ply": ply}),
            )
            .await;
            assert!(next["error"].is_null(), "{m}: {next}");
            times.push(took);
            by_rounds.last_mut().expect("a group").push(took);
            *state = next;
        }
    }
    times.sort();
    let at = |times: &[Duration], p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    println!(
        "move_latency: {} moves over {GAMES} games: p50 {:?}, p95 {:?}, p99 {:?}, max {:?}",
        times.len(),
        at(&times, 0.50),
        at(&times, 0.95),
        at(&times, 0.99),
        at(&times, 1.0)
    );
    for (i, group) in by_rounds.iter_mut().enumerate() {
        if group.is_empty() {
            continue;
        }
        group.sort();
        println!(
            "move_latency:   rounds {:>3}-{:<3}: {:>4} moves, p50 {:?}, p99 {:?}",
            i * 10,
            i * 10 + 9,
            group.len(),
            at(group, 0.5),
            at(group, 0.99)
        );
    }
}
