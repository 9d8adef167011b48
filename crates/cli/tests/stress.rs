//! A bounded stress test: concurrent tasks send random commands to the same
//! games over HTTP and WebSocket (moves at right and wrong plies, take-backs,
//! resignations, draw offers and answers, rematches) while idle games are
//! evicted; then the server is killed with SIGKILL and restarted. Every game
//! must replay, the API must show what is stored, and nothing acknowledged
//! may be lost or changed.

mod support;

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use palabre_server::game::Game;
use palabre_server::store::Store;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use support::{Server, maybe_legal};
use tokio_tungstenite::tungstenite::Message;

/// How long the commands fly.
const FOR: Duration = Duration::from_secs(8);

#[derive(Debug, Clone)]
struct Target {
    id: String,
    seats: Vec<String>,
    online: bool,
}

/// What the server acknowledged.
#[derive(Debug, Default)]
struct Acks {
    /// Online games: (ply, move) acknowledged; they cannot be taken back.
    moves: HashMap<String, HashSet<(usize, String)>>,
    /// Every move sent to an online game, acknowledged or not.
    sent: HashMap<String, HashSet<(usize, String)>>,
    /// Games whose resignation was acknowledged, with the winner.
    resigned: HashMap<String, Value>,
    /// Rematch ids answered, per game.
    rematches: HashMap<String, HashSet<String>>,
}

type Shared = Arc<Mutex<Acks>>;

async fn http_player(s: Arc<Server>, t: Target, acks: Shared, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let end = Instant::now() + FOR;
    while Instant::now() < end {
        let (_, state) = s.get(&format!("/api/games/{}", t.id), None).await;
        let ply = state["ply"].as_u64().unwrap_or(0) as usize;
        let seat = &t.seats[rng.gen_range(0..t.seats.len())];
        let path = |what: &str| format!("/api/games/{}/{what}", t.id);
        let roll = rng.gen_range(0..100);
        if roll < 55 {
            let notation = maybe_legal(&state, rng.r#gen()).unwrap_or_else(|| "a1".into());
            let at = match rng.gen_range(0..10) {
                0 => ply.saturating_sub(1),
                1 => ply + 1,
                _ => ply,
            };
            let notation = if rng.gen_range(0..20) == 0 {
                "zz9".to_owned()
            } else {
                notation
            };
            if t.online {
                acks.lock()
                    .unwrap()
                    .sent
                    .entry(t.id.clone())
                    .or_default()
                    .insert((at, notation.clone()));
            }
            let (status, _) = s
                .post(
                    &path("moves"),
                    json!({"move": notation, "ply": at}),
                    Some(seat),
                )
                .await;
            if t.online && (status == 201 || status == 200) {
                acks.lock()
                    .unwrap()
                    .moves
                    .entry(t.id.clone())
                    .or_default()
                    .insert((at, notation));
            }
        } else if roll < 70 {
            s.post(&path("takeback"), json!({}), Some(seat)).await;
        } else if roll < 85 {
            let action = ["offer", "accept", "decline"][rng.gen_range(0..3)];
            s.post(&path("draw"), json!({"action": action}), Some(seat))
                .await;
        } else if roll < 88 {
            let (status, v) = s.post(&path("resign"), json!({}), Some(seat)).await;
            if status == 200 {
                acks.lock()
                    .unwrap()
                    .resigned
                    .insert(t.id.clone(), v["result"].clone());
            }
        } else if roll < 92 && t.online {
            let (status, v) = s.post(&path("rematch"), json!({}), Some(seat)).await;
            if status == 201 {
                let id = v["id"].as_str().unwrap_or_default().to_owned();
                acks.lock()
                    .unwrap()
                    .rematches
                    .entry(t.id.clone())
                    .or_default()
                    .insert(id);
            }
        } else {
            tokio::time::sleep(Duration::from_millis(rng.gen_range(0..30))).await;
        }
    }
}

/// An online member playing over the live socket from the states it gets.
/// Each message gets exactly one reply (ack or error), in order.
async fn socket_player(s: Arc<Server>, t: Target, seat: String, acks: Shared, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut ws, first) = s.socket(&t.id, Some(&seat)).await;
    let mut state = first["state"].clone();
    let mut waiting: VecDeque<(usize, String)> = VecDeque::new();
    let end = Instant::now() + FOR;
    while Instant::now() < end {
        if waiting.len() < 2 {
            let notation = maybe_legal(&state, rng.r#gen()).unwrap_or_else(|| "a1".into());
            let ply =
                state["ply"].as_u64().unwrap_or(0) as usize + usize::from(rng.gen_range(0..8) == 0);
            acks.lock()
                .unwrap()
                .sent
                .entry(t.id.clone())
                .or_default()
                .insert((ply, notation.clone()));
            let msg = json!({"type": "move", "move": notation, "ply": ply});
            if ws.send(Message::text(msg.to_string())).await.is_err() {
                return;
            }
            waiting.push_back((ply, notation));
        }
        let Ok(Some(Ok(Message::Text(text)))) =
            tokio::time::timeout(Duration::from_millis(300), ws.next()).await
        else {
            continue;
        };
        let m: Value = serde_json::from_str(&text).unwrap_or_default();
        match m["type"].as_str() {
            Some("state") => state = m["state"].clone(),
            Some("ack") => {
                let (ply, notation) = waiting.pop_front().expect("an ack answers a move");
                assert_eq!(m["ply"], ply, "acks come in order");
                acks.lock()
                    .unwrap()
                    .moves
                    .entry(t.id.clone())
                    .or_default()
                    .insert((ply, notation));
            }
            Some("error") => drop(waiting.pop_front()),
            _ => {}
        }
    }
}

async fn targets(s: &Server) -> Vec<Target> {
    let mut out = Vec::new();
    for (game, size) in [("yote", 5), ("nsolo", 8)] {
        for _ in 0..2 {
            let (id, seat, _) = s
                .create(
                    json!({"game": game, "size": size, "opponent": "machine", "side": "random"}),
                )
                .await;
            out.push(Target {
                id,
                seats: vec![seat],
                online: false,
            });
            let (id, seat, _) = s
                .create(json!({"game": game, "size": size, "opponent": "local"}))
                .await;
            out.push(Target {
                id,
                seats: vec![seat],
                online: false,
            });
            let (id, a, _) = s
                .create(json!({"game": game, "size": size, "opponent": "online", "name": "A"}))
                .await;
            let (_, b) = s
                .post(&format!("/api/games/{id}/join"), json!({"name": "B"}), None)
                .await;
            let b = b["seat"].as_str().unwrap().to_owned();
            out.push(Target {
                id,
                seats: vec![a, b],
                online: true,
            });
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_commands_then_sigkill_lose_nothing_acknowledged() {
    let s = Arc::new(Server::start(&[
        ("PALABRE_CREATES_PER_MINUTE", "0"),
        ("PALABRE_JOINS_PER_MINUTE", "0"),
        ("PALABRE_SOCKET_RATE", "0"),
        ("PALABRE_IDLE_GAME", "1"),
    ]));
    let games = targets(&s).await;
    let acks: Shared = Arc::default();
    let mut tasks = Vec::new();
    for (i, t) in games.iter().enumerate() {
        for k in 0..2 {
            let seed = (i * 10 + k) as u64;
            tasks.push(tokio::spawn(http_player(
                Arc::clone(&s),
                t.clone(),
                Arc::clone(&acks),
                seed,
            )));
        }
        if t.online {
            for (k, seat) in t.seats.iter().enumerate() {
                let seed = (i * 10 + 5 + k) as u64;
                tasks.push(tokio::spawn(socket_player(
                    Arc::clone(&s),
                    t.clone(),
                    seat.clone(),
                    Arc::clone(&acks),
                    seed,
                )));
            }
        }
    }
    for t in tasks {
        t.await.unwrap();
    }
    let mut s = Arc::into_inner(s).expect("every task ended");
    s.restart();
    let store = Store::open(&s.db()).await.unwrap();
    let acks = std::mem::take(&mut *acks.lock().unwrap());
    let mut acknowledged = 0;
    for t in &games {
        let state = s.state(&t.id).await;
        assert_ne!(state["status"], "damaged", "{state}");
        let (row, moves, members) = store.load(&t.id).await.unwrap().unwrap();
        let stored: Vec<String> = moves.iter().map(|m| m.notation.clone()).collect();
        assert_eq!(
            state["moves"],
            json!(stored),
            "the API shows what is stored"
        );
        let replayed = Game::replay(row, &moves, members);
        assert!(replayed.row.damaged.is_none(), "{:?}", replayed.row.damaged);
        assert_eq!(
            state["result"],
            json!(replayed.result()),
            "the stored result"
        );
        if let Some(result) = acks.resigned.get(&t.id) {
            assert_eq!(
                &state["result"], result,
                "an acknowledged resignation stays"
            );
        }
        if t.online {
            let sent = acks.sent.get(&t.id).cloned().unwrap_or_default();
            for (ply, notation) in acks.moves.get(&t.id).into_iter().flatten() {
                assert_eq!(
                    stored.get(*ply),
                    Some(notation),
                    "acknowledged move at ply {ply} kept"
                );
                acknowledged += 1;
            }
            for (ply, notation) in stored.iter().enumerate() {
                assert!(
                    sent.contains(&(ply, notation.clone())),
                    "move {notation} at {ply} was never sent"
                );
            }
            assert!(
                acks.rematches.get(&t.id).is_none_or(|r| r.len() == 1),
                "one rematch"
            );
        }
    }
    assert!(
        acknowledged > 20,
        "the test acknowledged only {acknowledged} online moves"
    );
}
