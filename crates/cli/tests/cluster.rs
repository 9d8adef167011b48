//! Three nodes on one PostgreSQL database and one NATS server, as separate
//! processes: players and spectators of one game on different nodes, an
//! owner node killed mid-game, races for one ply across nodes, the machine
//! answering a human on another node, a clock that falls once, a clock
//! that stands still while the bus is down, who shows as online when
//! nodes die, a node cut off from
//! PostgreSQL, and a second process under a running node's name.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::cluster::{database, nats_url, node_name, nodes, nodes_on};
use support::outage::{Door, Nats};
use support::{Server, Socket, legal, next, send};

/// Rate limits off: the tests play fast.
const ENV: &[(&str, &str)] = &[
    ("PALABRE_CREATES_PER_MINUTE", "0"),
    ("PALABRE_JOINS_PER_MINUTE", "0"),
    ("PALABRE_SOCKET_RATE", "0"),
];

fn ply(state: &Value) -> u64 {
    state["ply"].as_u64().expect("a ply")
}

async fn play(node: &Server, id: &str, seat: &str, notation: &str, at: u64) -> (u16, Value) {
    node.post(
        &format!("/api/games/{id}/moves"),
        json!({"move": notation, "ply": at}),
        Some(seat),
    )
    .await
}

/// Reads a socket until a state at `want` arrives; returns the plies of
/// the states seen on the way (the last one included).
async fn states_until(ws: &mut Socket, want: u64, seen: &mut Vec<u64>) {
    loop {
        let m = next(ws).await;
        if m["type"] == "state" {
            let p = ply(&m["state"]);
            seen.push(p);
            if p >= want {
                return;
            }
        }
    }
}

/// Sends a move over a socket and reads until its ack, noting the states.
async fn move_on_socket(ws: &mut Socket, notation: &str, at: u64, seen: &mut Vec<u64>) {
    send(ws, json!({"type": "move", "move": notation, "ply": at})).await;
    loop {
        let m = next(ws).await;
        match m["type"].as_str() {
            Some("state") => seen.push(ply(&m["state"])),
            Some("ack") => return assert_eq!(m["ply"], at),
            _ => panic!("move {notation} at {at}: {m}"),
        }
    }
}

/// The plies seen, without repeats: every move, in order, is 0, 1, 2, …
fn distinct(seen: &[u64]) -> Vec<u64> {
    let mut out: Vec<u64> = seen.to_vec();
    out.dedup();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_a_spectator_on_three_nodes_see_every_move_in_order() {
    let Some(db) = database().await else { return };
    let n = nodes(&db, 3, ENV);
    let (id, red, black) = n[0].online_pair().await;
    let (mut r, first) = n[0].socket(&id, Some(&red)).await;
    let (mut b, _) = n[1].socket(&id, Some(&black)).await;
    let (mut w, _) = n[2].socket(&id, None).await;
    let mut seen = [vec![ply(&first["state"])], vec![0], vec![0]];
    const PLIES: u64 = 12;
    for at in 0..PLIES {
        let state = n[(at % 3) as usize].state(&id).await;
        assert_eq!(ply(&state), at, "every node shows the same game");
        let notation = legal(&state, at as usize * 7);
        let (ws, mine) = if at.is_multiple_of(2) {
            (&mut r, &mut seen[0])
        } else {
            (&mut b, &mut seen[1])
        };
        move_on_socket(ws, &notation, at, mine).await;
    }
    for (ws, mine) in [&mut r, &mut b, &mut w].into_iter().zip(seen.iter_mut()) {
        states_until(ws, PLIES, mine).await;
    }
    let every: Vec<u64> = (0..=PLIES).collect();
    for (who, mine) in ["red on node 0", "black on node 1", "spectator on node 2"]
        .iter()
        .zip(&seen)
    {
        assert_eq!(distinct(mine), every, "{who} saw every move, in order");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_node_is_killed_and_play_goes_on_through_the_others() {
    let Some(db) = database().await else { return };
    let mut n = nodes(&db, 3, ENV);
    // Created on node 0, so node 0 owns it.
    let (id, red, black) = n[0].online_pair().await;
    let (mut watcher, _) = n[2].socket(&id, None).await;
    let (mut red_ws, _) = n[0].socket(&id, Some(&red)).await;
    let mut played = Vec::new();
    for at in 0..4u64 {
        let state = n[1].state(&id).await;
        let notation = legal(&state, at as usize * 3);
        let seat = if at.is_multiple_of(2) { &red } else { &black };
        let (status, v) = play(&n[1 + (at % 2) as usize], &id, seat, &notation, at).await;
        assert_eq!(status, 201, "{v}");
        played.push(notation);
    }
    n[0].kill();
    let killed = Instant::now();
    // Red's socket on the dead node is gone; red reconnects to node 1.
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        use futures_util::StreamExt;
        while let Some(Ok(_)) = red_ws.next().await {}
    })
    .await;
    assert!(closed.is_ok(), "the socket on the killed node closes");
    let (mut red_ws, first) = n[1].socket(&id, Some(&red)).await;
    let took_over = killed.elapsed();
    assert_eq!(
        first["state"]["moves"],
        json!(played),
        "no acknowledged move lost"
    );
    let notation = legal(&first["state"], 5);
    let mut seen = Vec::new();
    move_on_socket(&mut red_ws, &notation, 4, &mut seen).await;
    played.push(notation);
    let mut spectator = Vec::new();
    states_until(&mut watcher, 5, &mut spectator).await;
    let state = n[2].state(&id).await;
    assert_eq!(state["moves"], json!(played));
    eprintln!("a new node owned the game {took_over:?} after the kill");
}

/// A node that dies between a command's sending and its reading: NATS
/// hands the command to its subscription, which nobody will read again,
/// and says nothing. Here a bare NATS client holds the game's lease under
/// a node's name and swallows every command sent to that node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_swallowed_by_a_dying_node_goes_to_the_next_owner() {
    let Some(db) = database().await else { return };
    let mut n = nodes(&db, 2, ENV);
    let (id, red, _) = n[0].online_pair().await;
    let first = legal(&n[0].state(&id).await, 0);
    let (status, v) = play(&n[0], &id, &red, &first, 0).await;
    assert_eq!(status, 201, "{v}");
    n[0].kill();
    let ghost = node_name(&db, "ghost");
    let nats = async_nats::connect(nats_url()).await.unwrap();
    let _swallow = nats
        .subscribe(format!("palabre.node.{ghost}"))
        .await
        .unwrap();
    nats.flush().await.unwrap();
    let store = palabre_server::store::Store::open(&db).await.unwrap();
    sqlx::query("UPDATE leases SET node = $1, expires_ms = $2 WHERE game_id = $3")
        .bind(&ghost)
        .bind(palabre_server::clock::now_ms() + 3_000)
        .bind(&id)
        .execute(store.pool())
        .await
        .unwrap();
    let asked = Instant::now();
    let (_, first_state) = n[1].socket(&id, Some(&red)).await;
    let waited = asked.elapsed();
    assert_eq!(first_state["state"]["moves"], json!([first]));
    // The lease runs 3 s; the command waited out the ghost's silence for
    // 1 s, not the 10 s of a forward's timeout.
    assert!(
        waited < Duration::from_secs(8),
        "the socket opened {waited:?} after it was asked for"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_moves_for_one_ply_on_two_nodes_one_wins_a_hundred_times() {
    let Some(db) = database().await else { return };
    let n = nodes(&db, 3, ENV);
    let mut races = 0;
    while races < 100 {
        let (id, red, black) = n[0].online_pair().await;
        loop {
            let state = n[0].state(&id).await;
            let count = state["legal"].as_array().map_or(0, Vec::len);
            if state["status"] != "playing" || count < 2 || races == 100 {
                break;
            }
            let at = ply(&state);
            let seat = if at.is_multiple_of(2) { &red } else { &black };
            let (a, b) = (legal(&state, races), legal(&state, races + 1));
            assert_ne!(a, b);
            let ((sa, va), (sb, vb)) = tokio::join!(
                play(&n[1], &id, seat, &a, at),
                play(&n[2], &id, seat, &b, at)
            );
            let (won, lost) = match (sa, sb) {
                (201, _) => (va, vb),
                (_, 201) => (vb, va),
                _ => panic!("neither move won: {sa} {va} / {sb} {vb}"),
            };
            let code = lost["error"]["code"].as_str().unwrap_or_default();
            // The winner's move may also have ended the game.
            let ended = won["status"] == "finished" && code == "game_over";
            assert!(
                matches!(code, "stale_ply" | "not_your_turn") || ended,
                "the loser is told why: {lost}"
            );
            assert_eq!(ply(&won), at + 1);
            let after = n[0].state(&id).await;
            assert_eq!(ply(&after), at + 1, "exactly one move was stored");
            races += 1;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_machine_answers_a_human_on_another_node_once_per_move() {
    let Some(db) = database().await else { return };
    let n = nodes(&db, 3, ENV);
    let (id, seat, created) = n[0]
        .create(json!({"game": "yote", "opponent": "machine", "side": "red", "level": "debutant"}))
        .await;
    let mut state = created["state"].clone();
    for turn in 0..6u64 {
        if state["status"] != "playing" {
            break;
        }
        let at = ply(&state);
        assert_eq!(at, turn * 2, "the human moves at even plies: {state}");
        let (status, v) = play(&n[1], &id, &seat, &legal(&state, 1), at).await;
        assert_eq!(status, 201, "{v}");
        state = n[2]
            .wait_for(&id, Duration::from_secs(10), |s| {
                s["thinking"] == false && (ply(s) > at + 1 || s["status"] != "playing")
            })
            .await;
        assert!(ply(&state) <= at + 2, "one reply per move: {state}");
    }
    // Let any doubled reply show itself before counting.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let store = palabre_server::store::Store::open(&db).await.unwrap();
    let stored = store.moves(&id).await.unwrap();
    let plies: Vec<usize> = stored.iter().map(|(p, _)| *p).collect();
    assert_eq!(plies, (0..stored.len()).collect::<Vec<_>>());
    assert_eq!(
        n[0].state(&id).await["moves"].as_array().unwrap().len(),
        stored.len()
    );
}

/// A "5+3" game made on node 0 and joined on node 1, where red has moved on
/// node 0: black's clock runs.
async fn black_clock_running(n: &[Server]) -> String {
    let (id, red, _) = n[0]
        .create(
            json!({"game": "yote", "opponent": "online", "side": "red", "name": "Awa",
                       "time_control": "5+3"}),
        )
        .await;
    let (status, joined) = n[1]
        .post(
            &format!("/api/games/{id}/join"),
            json!({"name": "Kofi"}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{joined}");
    let first = legal(&n[0].state(&id).await, 0);
    let (status, v) = play(&n[0], &id, &red, &first, 0).await;
    assert_eq!(status, 201, "{v}");
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fallen_clock_ends_the_game_once() {
    let Some(db) = database().await else { return };
    let mut n = nodes(&db, 3, ENV);
    let id = black_clock_running(&n).await;
    let mut watchers = [
        n[1].socket(&id, None).await.0,
        n[2].socket(&id, None).await.0,
    ];
    // As if red had moved ten minutes ago: black's five minutes ran out.
    // Node 0 owns the game and its timer; it dies, and the sweepers of
    // nodes 1 and 2 both find the fallen clock in the store.
    let store = palabre_server::store::Store::open(&db).await.unwrap();
    for sql in [
        "UPDATE games SET started_at_ms = started_at_ms - 600000, \
         deadline_ms = deadline_ms - 600000 WHERE id = $1",
        "UPDATE moves SET played_at_ms = played_at_ms - 600000 WHERE game_id = $1",
    ] {
        sqlx::query(sql)
            .bind(&id)
            .execute(store.pool())
            .await
            .unwrap();
    }
    n[0].kill();
    for (i, ws) in watchers.iter_mut().enumerate() {
        let mut ends = 0;
        let mut quiet_after = Instant::now() + Duration::from_secs(10);
        while Instant::now() < quiet_after {
            let Ok(m) = tokio::time::timeout(Duration::from_millis(250), next(ws)).await else {
                continue;
            };
            if m["type"] == "state" && m["state"]["status"] == "finished" {
                assert_eq!(m["state"]["result"]["reason"], "timeout", "{m}");
                ends += 1;
                // Any second end would follow within the next sweeps.
                quiet_after = Instant::now() + Duration::from_secs(3);
            }
        }
        assert_eq!(
            ends,
            1,
            "the watcher on node {} saw the game end once",
            i + 1
        );
    }
    let state = n[2].state(&id).await;
    assert_eq!(state["result"]["winner"], "red", "{state}");
}

fn refused_unavailable((status, v): (u16, Value)) {
    assert_eq!(
        (status, &v["error"]["code"]),
        (503, &json!("unavailable")),
        "{v}"
    );
}

/// Plays until the move is stored, as long as the answers are `503`.
async fn play_when_back(node: &Server, id: &str, seat: &str, notation: &str, at: u64) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, v) = play(node, id, seat, notation, at).await;
        if status == 201 {
            return;
        }
        // A try refused with `unavailable` may still have been played: its
        // answer was lost while the bus came back. The retry is then
        // acknowledged as a repeat (200), with the move in its place.
        if status == 200 {
            assert_eq!(v["ply"], json!(at + 1), "{v}");
            assert_eq!(v["moves"][at as usize], json!(notation), "{v}");
            return;
        }
        assert_eq!(
            status, 503,
            "only `unavailable` while a service comes back: {v}"
        );
        assert!(
            Instant::now() < deadline,
            "the service never came back: {v}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_postgresql_or_nats_commands_are_refused_then_service_resumes() {
    let Some(db) = database().await else { return };
    let Some(mut nats) = Nats::start() else {
        return;
    };
    let door = Door::to("127.0.0.1:5432").await;
    let through_door = db.replace("127.0.0.1:5432", &format!("127.0.0.1:{}", door.port));
    let n = nodes_on(&through_door, &nats.url(), 2, ENV);
    let (id, red, black) = n[0].online_pair().await;
    let first = legal(&n[1].state(&id).await, 0);

    door.shut();
    refused_unavailable(play(&n[1], &id, &red, &first, 0).await);
    door.open();
    play_when_back(&n[1], &id, &red, &first, 0).await;

    let second = legal(&n[0].state(&id).await, 1);
    nats.down();
    refused_unavailable(play(&n[1], &id, &black, &second, 1).await);
    assert!(nats.up());
    play_when_back(&n[1], &id, &black, &second, 1).await;

    let store = palabre_server::store::Store::open(&db).await.unwrap();
    let stored: Vec<String> = store
        .moves(&id)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.1)
        .collect();
    assert_eq!(
        stored,
        vec![first, second],
        "each move stored once, when acknowledged"
    );
}

/// Whether each side's first member shows as online, as `node` reads it.
async fn online(node: &Server, id: &str) -> (bool, bool) {
    let state = node.state(id).await;
    let seen = |side: &str| state["teams"][side][0]["online"].as_bool();
    (seen("red").unwrap_or(false), seen("black").unwrap_or(false))
}

/// Reads until `node` shows `want`; the last reading if it never does.
async fn online_until(node: &Server, id: &str, want: (bool, bool)) -> (bool, bool) {
    let limit = Instant::now() + Duration::from_secs(40);
    loop {
        let seen = online(node, id).await;
        if seen == want || Instant::now() > limit {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_follows_the_nodes_that_hold_the_connections() {
    let Some(db) = database().await else { return };
    let mut n = nodes(&db, 4, ENV);
    // Created on node 0, so node 0 owns it; the players are on nodes 1
    // and 2, and node 3 only reads.
    let (id, red, black) = n[0].online_pair().await;
    let _red_ws = n[1].socket(&id, Some(&red)).await;
    let _black_ws = n[2].socket(&id, Some(&black)).await;
    assert_eq!(online_until(&n[0], &id, (true, true)).await, (true, true));

    // Black's node dies: nobody is left to say that black's connection
    // closed, and black must not show as online for good.
    n[2].kill();
    assert_eq!(
        online_until(&n[0], &id, (true, false)).await,
        (true, false),
        "black left with the node that held the connection"
    );

    // The owner dies: the game's new owner must learn that red is still
    // here without red reconnecting.
    n[0].kill();
    assert_eq!(
        online_until(&n[1], &id, (true, false)).await,
        (true, false),
        "the new owner sees red's connection"
    );

    // Over, the game is still read from its owner, wherever it is read.
    let (status, v) = n[1]
        .post(&format!("/api/games/{id}/resign"), json!({}), Some(&red))
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        online(&n[3], &id).await,
        (true, false),
        "a node that does not own the finished game asks its owner"
    );
}

/// The running clock's deadline as stored, and the credit kept with it.
async fn stored_clock(store: &palabre_server::store::Store, id: &str) -> (i64, i64) {
    sqlx::query_as("SELECT deadline_ms, clock_credit_ms FROM games WHERE id = $1")
        .bind(id)
        .fetch_one(store.pool())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_of_the_bus_is_given_back_to_the_running_clock() {
    let Some(db) = database().await else { return };
    let Some(mut nats) = Nats::start() else {
        return;
    };
    let n = nodes_on(&db, &nats.url(), 2, ENV);
    let id = black_clock_running(&n).await;
    let store = palabre_server::store::Store::open(&db).await.unwrap();
    let (deadline, credit) = stored_clock(&store, &id).await;
    assert_eq!(credit, 0, "no outage yet");

    // Five seconds in which nobody can move: black's clock must not lose them.
    nats.down();
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(nats.up());
    let limit = Instant::now() + Duration::from_secs(30);
    let (after, credit) = loop {
        let (after, credit) = stored_clock(&store, &id).await;
        if after != deadline || Instant::now() > limit {
            break (after, credit);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(
        (4_000..=40_000).contains(&credit),
        "the outage is credited and stored: {credit} ms"
    );
    assert_eq!(after, deadline + credit, "the deadline moves by the credit");

    // Every node shows it: the owner's clock in memory runs to the stored
    // deadline (the state was made before `read`, so it shows at least
    // that much left); without the credit it would show `credit` less.
    let state = n[1].state(&id).await;
    let read = palabre_server::clock::now_ms();
    let left = state["clocks"]["black"].as_i64().expect("a clock");
    assert!(
        left >= after - read,
        "black has {left} ms left, the stored deadline {} ms",
        after - read
    );
}

/// A node under its own name on database `db` (through a door, say).
fn named_node(db: &str, name: &str) -> Server {
    let mut env = ENV.to_vec();
    let nats = nats_url();
    env.push(("PALABRE_BUS", &nats));
    env.push(("PALABRE_NODE", name));
    Server::start_on(Some(db), &env)
}

/// A node that loses PostgreSQL but keeps NATS cannot renew its leases, and
/// once they expire another node takes its games. Its owners must stop
/// first: else it goes on answering from a game that moved on without it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_postgresql_stops_its_owners_before_its_games_move_on() {
    let Some(db) = database().await else { return };
    let door = Door::to("127.0.0.1:5432").await;
    let through_door = db.replace("127.0.0.1:5432", &format!("127.0.0.1:{}", door.port));
    let cut = named_node(&through_door, &node_name(&db, "cut"));
    let other = named_node(&db, &node_name(&db, "other"));
    // Created on the node to be cut off, so it owns the game.
    let (id, red, black) = cut.online_pair().await;
    let first = legal(&cut.state(&id).await, 0);
    let (status, v) = play(&cut, &id, &red, &first, 0).await;
    assert_eq!(status, 201, "{v}");
    let second = legal(&other.state(&id).await, 1);

    door.shut();
    let cut_off = Instant::now();
    // Refused while the cut node's lease runs, then played by the other
    // node once it took the lease over.
    play_when_back(&other, &id, &black, &second, 1).await;
    eprintln!(
        "the other node played {:?} after the cut",
        cut_off.elapsed()
    );

    let (status, v) = cut.get(&format!("/api/games/{id}"), None).await;
    assert!(
        status == 503 || ply(&v) == 2,
        "the cut node answers from memory a game that moved on: {status} {v}"
    );
    door.open();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, v) = cut.get(&format!("/api/games/{id}"), None).await;
        if status == 200 {
            assert_eq!(v["moves"], json!([first, second]));
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the cut node never came back: {v}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Two processes under one node name would both take every command sent
/// to that name: the second refuses to start while the first runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_process_under_a_running_nodes_name_refuses_to_start() {
    let Some(db) = database().await else { return };
    let name = node_name(&db, "twin");
    let first = named_node(&db, &name);
    let (id, _, _) = first.online_pair().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let binary =
        std::env::var("PALABRE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_palabre").to_owned());
    let mut twin = std::process::Command::new(binary)
        .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db", &db])
        .env("PALABRE_BUS", nats_url())
        .env("PALABRE_NODE", &name)
        .env("PALABRE_BUILD_TABLES", "0")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = twin.try_wait().unwrap() {
            break status;
        }
        let serves = std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
        if serves || started.elapsed() > Duration::from_secs(20) {
            let _ = twin.kill();
            let _ = twin.wait();
            panic!("a second process named {name} started (serving: {serves})");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mut said = String::new();
    std::io::Read::read_to_string(&mut twin.stderr.take().unwrap(), &mut said).unwrap();
    assert!(!status.success(), "{status}");
    assert!(said.contains("already"), "the twin says why: {said}");
    // The first goes on.
    assert_eq!(first.state(&id).await["status"], "playing");
}
