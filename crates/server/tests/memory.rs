//! How many games a node keeps in memory: a limit on owners, and reads of
//! finished games that start none.

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use common::{Client, code};
use palabre_server::{AppState, Config, Limits, app};
use serde_json::{Value, json};

async fn open(limits: Limits) -> (AppState, Client) {
    let config = Config {
        limits,
        ..Config::testing()
    };
    let state = AppState::open(&config).await.unwrap();
    let client = Client::new(&app(state.clone()));
    (state, client)
}

async fn in_memory(client: &mut Client) -> u64 {
    client.get("/api/status").await.1["games_in_memory"]
        .as_u64()
        .unwrap()
}

/// Waits until at most `n` games are in memory (owners fall idle).
async fn until_at_most(client: &mut Client, n: u64) {
    for _ in 0..200 {
        if in_memory(client).await <= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("games stayed in memory");
}

async fn stored_games(state: &AppState) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(state.store().pool())
        .await
        .unwrap()
}

/// Asks for a new game on one screen: the status, answer and Retry-After.
async fn create(client: &mut Client) -> (StatusCode, Value, Option<u64>) {
    let body = json!({"game": "yote", "opponent": "local"});
    client.send("POST", "/api/games", Some(body), &[]).await
}

async fn play(client: &mut Client, id: &str, seat: &str, m: &str, ply: u64) -> (StatusCode, Value) {
    let auth = format!("Bearer {seat}");
    let body = json!({"move": m, "ply": ply});
    let uri = format!("/api/games/{id}/moves");
    client
        .request("POST", &uri, Some(body), &[("authorization", &auth)])
        .await
}

fn id_and_seat(v: &Value) -> (String, String) {
    (
        v["id"].as_str().unwrap().to_owned(),
        v["seat"].as_str().unwrap().to_owned(),
    )
}

#[tokio::test]
async fn a_full_node_refuses_new_games_and_moves_but_still_answers_reads() {
    let (state, mut client) = open(Limits {
        games_in_memory: 2,
        idle_game: Duration::from_secs(2),
        ..Limits::unlimited()
    })
    .await;
    let (a, a_seat) = id_and_seat(&create(&mut client).await.1);
    let (b, b_seat) = id_and_seat(&create(&mut client).await.1);
    let (status, v, retry) = create(&mut client).await;
    assert_eq!(
        (status, code(&v), retry),
        (StatusCode::SERVICE_UNAVAILABLE, "unavailable", Some(2)),
        "{v}"
    );
    assert_eq!(
        stored_games(&state).await,
        2,
        "a refused game is not stored"
    );

    until_at_most(&mut client, 0).await;
    let (status, _, _) = create(&mut client).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "room again once games left memory"
    );
    assert_eq!(
        play(&mut client, &a, &a_seat, "c3", 0).await.0,
        StatusCode::CREATED
    );
    assert_eq!(in_memory(&mut client).await, 2);

    let (status, v) = play(&mut client, &b, &b_seat, "c3", 0).await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::SERVICE_UNAVAILABLE, "unavailable")
    );
    let (status, v) = client.get(&format!("/api/games/{b}")).await;
    assert_eq!(
        (status, v["ply"].as_u64()),
        (StatusCode::OK, Some(0)),
        "read from the store"
    );
    let (status, _) = client.get(&format!("/api/games/{b}/export")).await;
    assert_eq!(status, StatusCode::OK, "a record too");
    assert_eq!(in_memory(&mut client).await, 2, "reads start no owner");

    until_at_most(&mut client, 1).await;
    let (status, v) = play(&mut client, &b, &b_seat, "c3", 0).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["ply"], 1, "the refused move changed nothing: {v}");
}

#[tokio::test]
async fn reading_a_finished_game_starts_no_owner() {
    let (_, mut client) = open(Limits {
        idle_game: Duration::from_millis(200),
        ..Limits::unlimited()
    })
    .await;
    let (id, seat) = id_and_seat(&create(&mut client).await.1);
    let auth = format!("Bearer {seat}");
    let uri = format!("/api/games/{id}/resign");
    let body = json!({"side": "red"});
    let (status, v) = client
        .request("POST", &uri, Some(body), &[("authorization", &auth)])
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    until_at_most(&mut client, 0).await;

    for _ in 0..3 {
        let (status, v) = client.get(&format!("/api/games/{id}")).await;
        assert_eq!(
            (status, v["status"].as_str()),
            (StatusCode::OK, Some("finished"))
        );
        assert_eq!(v["result"]["winner"], "black", "{v}");
        let (status, _) = client.get(&format!("/api/games/{id}/export")).await;
        assert_eq!(status, StatusCode::OK);
    }
    assert_eq!(
        in_memory(&mut client).await,
        0,
        "the archive stays out of memory"
    );
    let (status, v) = client.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}
