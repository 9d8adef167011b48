//! A bounded stress test: concurrent tasks send random commands to the same
//! games over HTTP and WebSocket (moves at right and wrong plies, take-backs,
//! resignations, draw offers and answers, rematches) while idle games are
//! evicted; then every node is killed with SIGKILL and restarted. Every game
//! must replay, the API must show what is stored, and nothing acknowledged
//! may be lost or changed. Run against one server, and against a cluster of
//! three nodes on one PostgreSQL database where every request and socket
//! may land on a node that does not own the game.

mod support;

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use palabre_server::game::Game;
use palabre_server::store::{Store, StoredMove};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use support::{Server, cluster, maybe_legal};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;

/// How long the commands fly.
const FOR: Duration = Duration::from_secs(8);

/// No rate limits, and games evicted after a second idle.
const ENV: &[(&str, &str)] = &[
    ("PALABRE_CREATES_PER_MINUTE", "0"),
    ("PALABRE_JOINS_PER_MINUTE", "0"),
    ("PALABRE_SOCKET_RATE", "0"),
    ("PALABRE_IDLE_GAME", "1"),
];

/// The nodes requests are spread over (just one for a lone server).
type Nodes = Arc<Vec<Server>>;

/// A random node, drawn from `route` so that the commands drawn from the
/// players' own generators are the same whatever the number of nodes.
fn any<'a>(nodes: &'a [Server], route: &mut SmallRng) -> &'a Server {
    &nodes[route.gen_range(0..nodes.len())]
}

#[derive(Debug, Clone)]
struct Target {
    id: String,
    seats: Vec<String>,
    online: bool,
}

type Plies = HashSet<(usize, String)>;

/// What the server acknowledged.
#[derive(Debug, Default)]
struct Acks {
    /// Online games: (ply, move) acknowledged; they cannot be taken back.
    moves: HashMap<String, Plies>,
    /// Every move sent to an online game, acknowledged or not.
    sent: HashMap<String, Plies>,
    /// Games whose resignation was acknowledged, with the winner.
    resigned: HashMap<String, Value>,
    /// Rematch ids answered, per game.
    rematches: HashMap<String, HashSet<String>>,
}

type Shared = Arc<Mutex<Acks>>;

#[derive(Clone, Copy)]
enum Note {
    Sent,
    Acked,
}

fn note(acks: &Shared, how: Note, id: &str, ply: usize, notation: &str) {
    let mut acks = acks.lock().unwrap();
    let plies = match how {
        Note::Sent => &mut acks.sent,
        Note::Acked => &mut acks.moves,
    };
    plies
        .entry(id.to_owned())
        .or_default()
        .insert((ply, notation.to_owned()));
}

/// A move over HTTP, at the state's ply or a wrong one, sometimes illegal.
async fn http_move(
    s: &Server,
    t: &Target,
    seat: &str,
    state: &Value,
    acks: &Shared,
    rng: &mut SmallRng,
) {
    let ply = state["ply"].as_u64().unwrap_or(0) as usize;
    let notation = maybe_legal(state, rng.r#gen()).unwrap_or_else(|| "a1".into());
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
        note(acks, Note::Sent, &t.id, at, &notation);
    }
    let body = json!({"move": notation, "ply": at});
    let (status, _) = s
        .post(&format!("/api/games/{}/moves", t.id), body, Some(seat))
        .await;
    if t.online && (status == 201 || status == 200) {
        note(acks, Note::Acked, &t.id, at, &notation);
    }
}

/// A resignation or a rematch request, remembered if answered.
async fn http_ending(s: &Server, t: &Target, seat: &str, rematch: bool, acks: &Shared) {
    let what = if rematch { "rematch" } else { "resign" };
    let (status, v) = s
        .post(
            &format!("/api/games/{}/{what}", t.id),
            json!({}),
            Some(seat),
        )
        .await;
    let mut acks = acks.lock().unwrap();
    if !rematch && status == 200 {
        acks.resigned.insert(t.id.clone(), v["result"].clone());
    } else if rematch && status == 201 {
        let id = v["id"].as_str().unwrap_or_default().to_owned();
        acks.rematches.entry(t.id.clone()).or_default().insert(id);
    }
}

/// One random command from `seat`, sent to node `s`.
async fn http_command(
    s: &Server,
    t: &Target,
    seat: &str,
    state: &Value,
    acks: &Shared,
    rng: &mut SmallRng,
) {
    let path = |what: &str| format!("/api/games/{}/{what}", t.id);
    let roll = rng.gen_range(0..100);
    if roll < 55 {
        http_move(s, t, seat, state, acks, rng).await;
    } else if roll < 70 {
        s.post(&path("takeback"), json!({}), Some(seat)).await;
    } else if roll < 85 {
        let action = ["offer", "accept", "decline"][rng.gen_range(0..3)];
        s.post(&path("draw"), json!({"action": action}), Some(seat))
            .await;
    } else if roll < 88 {
        http_ending(s, t, seat, false, acks).await;
    } else if roll < 92 && t.online {
        http_ending(s, t, seat, true, acks).await;
    } else {
        tokio::time::sleep(Duration::from_millis(rng.gen_range(0..30))).await;
    }
}

/// Random commands over HTTP, each request to a random node.
async fn http_player(nodes: Nodes, t: Target, acks: Shared, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut route = SmallRng::seed_from_u64(!seed);
    let end = Instant::now() + FOR;
    while Instant::now() < end {
        let (_, state) = any(&nodes, &mut route)
            .get(&format!("/api/games/{}", t.id), None)
            .await;
        let seat = &t.seats[rng.gen_range(0..t.seats.len())];
        let s = any(&nodes, &mut route);
        http_command(s, &t, seat, &state, &acks, &mut rng).await;
    }
}

/// An online member playing over the live socket from the states it gets.
/// Each message gets exactly one reply (ack or error), in order.
async fn socket_player(s: &Server, t: Target, seat: String, acks: Shared, seed: u64) {
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
            note(&acks, Note::Sent, &t.id, ply, &notation);
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
                note(&acks, Note::Acked, &t.id, ply, &notation);
            }
            Some("error") => drop(waiting.pop_front()),
            _ => {}
        }
    }
}

/// An online game created on `host`, joined on `guest`.
async fn online(host: &Server, guest: &Server, game: &str, size: u32) -> Target {
    let (id, a, _) = host
        .create(json!({"game": game, "size": size, "opponent": "online", "name": "A"}))
        .await;
    let (_, b) = guest
        .post(&format!("/api/games/{id}/join"), json!({"name": "B"}), None)
        .await;
    let b = b["seat"].as_str().unwrap().to_owned();
    Target {
        id,
        seats: vec![a, b],
        online: true,
    }
}

/// A game against the machine or at one screen, created on `s`.
async fn offline(s: &Server, game: &str, size: u32, opponent: &str) -> Target {
    let mut body = json!({"game": game, "size": size, "opponent": opponent});
    if opponent == "machine" {
        body["side"] = json!("random");
    }
    let (id, seat, _) = s.create(body).await;
    Target {
        id,
        seats: vec![seat],
        online: false,
    }
}

/// Twelve games, created (and joined) on varying nodes.
async fn targets(nodes: &[Server]) -> Vec<Target> {
    let mut out = Vec::new();
    let node = |k: usize| &nodes[k % nodes.len()];
    for (game, size) in [("yote", 5), ("nsolo", 8)] {
        for _ in 0..2 {
            let k = out.len() / 3;
            out.push(offline(node(k), game, size, "machine").await);
            out.push(offline(node(k + 1), game, size, "local").await);
            out.push(online(node(k + 2), node(k + 1), game, size).await);
        }
    }
    out
}

/// A socket player per seat of online game `i`, seat `k` on node `i + k`.
fn sockets(nodes: &Nodes, i: usize, t: &Target, acks: &Shared) -> Vec<JoinHandle<()>> {
    let seats = if t.online { &t.seats[..] } else { &[] };
    let spawn = |(k, seat): (usize, &String)| {
        let (nodes, t, seat, acks) = (Arc::clone(nodes), t.clone(), seat.clone(), Arc::clone(acks));
        let seed = (i * 10 + 5 + k) as u64;
        tokio::spawn(async move {
            let s = &nodes[(i + k) % nodes.len()];
            socket_player(s, t, seat, acks, seed).await;
        })
    };
    seats.iter().enumerate().map(spawn).collect()
}

/// Two HTTP players on every game and the socket players; returns when
/// they all stopped.
async fn play(nodes: &Nodes, games: &[Target], acks: &Shared) {
    let mut tasks = Vec::new();
    for (i, t) in games.iter().enumerate() {
        for k in 0..2 {
            let seed = (i * 10 + k) as u64;
            let player = http_player(Arc::clone(nodes), t.clone(), Arc::clone(acks), seed);
            tasks.push(tokio::spawn(player));
        }
        tasks.extend(sockets(nodes, i, t, acks));
    }
    for t in tasks {
        t.await.unwrap();
    }
}

/// What the moves of an online game owe to what was sent and acknowledged;
/// returns the number of acknowledged moves.
fn check_online(t: &Target, stored: &[String], acks: &Acks) -> usize {
    let acked = acks.moves.get(&t.id).cloned().unwrap_or_default();
    for (ply, notation) in &acked {
        assert_eq!(
            stored.get(*ply),
            Some(notation),
            "{}: acknowledged move at ply {ply} kept",
            t.id
        );
    }
    let sent = acks.sent.get(&t.id).cloned().unwrap_or_default();
    for (ply, notation) in stored.iter().enumerate() {
        assert!(
            sent.contains(&(ply, notation.clone())),
            "{}: move {notation} at {ply} was never sent",
            t.id
        );
    }
    assert!(
        acks.rematches.get(&t.id).is_none_or(|r| r.len() == 1),
        "{}: one rematch, not {:?}",
        t.id,
        acks.rematches.get(&t.id)
    );
    acked.len()
}

/// Each ply stored once, in order, and the API lists as many.
fn check_plies(t: &Target, state: &Value, moves: &[StoredMove]) {
    let plies: Vec<usize> = moves.iter().map(|m| m.ply).collect();
    assert_eq!(
        plies,
        (0..moves.len()).collect::<Vec<_>>(),
        "{}: each ply stored once",
        t.id
    );
    assert_eq!(
        state["moves"].as_array().map(Vec::len),
        Some(moves.len()),
        "{}: the API lists each stored move once",
        t.id
    );
}

/// One game, through node `s` and the store; returns the number of its
/// acknowledged moves.
async fn check(s: &Server, store: &Store, t: &Target, acks: &Acks) -> usize {
    let state = s.state(&t.id).await;
    assert_ne!(state["status"], "damaged", "{state}");
    let (row, moves, members) = store.load(&t.id).await.unwrap().unwrap();
    check_plies(t, &state, &moves);
    let stored: Vec<String> = moves.iter().map(|m| m.notation.clone()).collect();
    assert_eq!(
        state["moves"],
        json!(stored),
        "{}: the API shows what is stored",
        t.id
    );
    let replayed = Game::replay(row, &moves, members);
    assert!(replayed.row.damaged.is_none(), "{:?}", replayed.row.damaged);
    assert_eq!(
        state["result"],
        json!(replayed.result()),
        "{}: the stored result",
        t.id
    );
    if let Some(result) = acks.resigned.get(&t.id) {
        assert_eq!(
            &state["result"], result,
            "{}: an acknowledged resignation stays",
            t.id
        );
    }
    if t.online {
        check_online(t, &stored, acks)
    } else {
        0
    }
}

/// Plays on `nodes`, SIGKILLs and restarts them all, then checks every game
/// through the first node and the database.
async fn stress(nodes: Vec<Server>) {
    let nodes: Nodes = Arc::new(nodes);
    let games = targets(&nodes).await;
    let acks: Shared = Arc::default();
    play(&nodes, &games, &acks).await;
    let mut nodes = Arc::into_inner(nodes).expect("every task ended");
    nodes.iter_mut().for_each(Server::kill);
    nodes.iter_mut().for_each(Server::restart);
    let store = Store::open(&nodes[0].db()).await.unwrap();
    let acks = std::mem::take(&mut *acks.lock().unwrap());
    let mut acknowledged = 0;
    for t in &games {
        acknowledged += check(&nodes[0], &store, t, &acks).await;
    }
    assert!(
        acknowledged > 20,
        "the test acknowledged only {acknowledged} online moves"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_commands_then_sigkill_lose_nothing_acknowledged() {
    stress(vec![Server::start(ENV)]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_three_node_cluster_nothing_is_lost_or_doubled() {
    let Some(db) = cluster::database().await else {
        return;
    };
    stress(cluster::nodes(&db, 3, ENV)).await;
}
