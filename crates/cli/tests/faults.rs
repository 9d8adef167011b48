//! Regression tests for the faults found by trying the server as an
//! attacker would (issue « One owner per game »). Each speaks to a real
//! `palabre serve` over HTTP and WebSocket, so it runs unchanged against an
//! older binary (`PALABRE_BIN=…`): the environment variables that set
//! limits are simply ignored there.

mod support;

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use futures_util::SinkExt;
use serde_json::{Value, json};
use support::{Server, legal, next, send, threads, until};
use tokio_tungstenite::tungstenite::Message;

/// 1. A search that answers a position taken back must not be stored: the
/// game would be stuck and the server would not start on its database.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_1_a_stale_search_is_dropped_after_a_take_back() {
    let mut s = Server::start(&[("PALABRE_CREATES_PER_MINUTE", "0")]);
    // Expert games where the machine moves first keep the search threads busy.
    for _ in 0..4 {
        s.post(
            "/api/games",
            json!({"game": "yote", "opponent": "machine", "level": "expert", "side": "black"}),
            None,
        )
        .await;
    }
    let mut games = Vec::new();
    for _ in 0..3 {
        let (id, seat, v) = s
            .create(json!({"game": "nsolo", "size": 8, "opponent": "machine", "side": "south"}))
            .await;
        let state = &v["state"];
        let (first, second) = (legal(state, 0), legal(state, 1));
        assert_ne!(first, second);
        let moved = s
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": first, "ply": 0}),
                Some(&seat),
            )
            .await;
        assert_eq!(moved.0, 201, "{}", moved.1);
        let back = s
            .post(&format!("/api/games/{id}/takeback"), json!({}), Some(&seat))
            .await;
        assert_eq!(back.0, 200, "{}", back.1);
        let again = s
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": second, "ply": 0}),
                Some(&seat),
            )
            .await;
        assert_eq!(again.0, 201, "{}", again.1);
        games.push((id, second));
    }
    for (id, second) in &games {
        let v = s
            .wait_for(id, Duration::from_secs(30), |v| {
                v["ply"].as_u64() >= Some(2) && v["thinking"] == false
            })
            .await;
        assert_eq!(
            v["moves"][0],
            second.as_str(),
            "the move played after the take-back stays"
        );
    }
    s.restart();
    for (id, _) in &games {
        let v = s.state(id).await;
        assert_ne!(v["status"], "damaged", "{v}");
        assert!(v["ply"].as_u64() >= Some(2), "{v}");
    }
}

/// 1b. A stored game whose moves do not replay is quarantined, and the
/// server starts with every other game (it used to exit on the first).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_1b_a_damaged_game_is_quarantined_and_the_server_starts() {
    let mut s = Server::start(&[]);
    let (bad, seat, _) = s
        .create(json!({"game": "yote", "opponent": "machine", "side": "red"}))
        .await;
    let moved = s
        .post(
            &format!("/api/games/{bad}/moves"),
            json!({"move": "c3", "ply": 0}),
            Some(&seat),
        )
        .await;
    assert_eq!(moved.0, 201);
    s.wait_for(&bad, Duration::from_secs(10), |v| v["ply"] == 2)
        .await;
    let (good, _, _) = s.create(json!({"game": "yote", "opponent": "local"})).await;
    s.kill();
    // Red moving a ball that is not there: what a broken store could hold.
    // Written with plain SQL, so that the schema stays as the server left it.
    let db = sqlx::SqlitePool::connect(&format!("sqlite://{}", s.db()))
        .await
        .unwrap();
    sqlx::query("INSERT INTO moves (game_id, ply, notation, played_at) VALUES (?, 2, 'e5xe3', 0)")
        .bind(&bad)
        .execute(&db)
        .await
        .unwrap();
    db.close().await;
    s.restart();
    let v = s.state(&bad).await;
    assert_eq!(v["status"], "damaged", "{v}");
    assert_eq!(v["ply"], 2, "the moves that replay are shown: {v}");
    let (status, refused) = s
        .post(
            &format!("/api/games/{bad}/moves"),
            json!({"move": "d3", "ply": 2}),
            Some(&seat),
        )
        .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (409, Some("damaged"))
    );
    assert_eq!(s.state(&good).await["status"], "playing");
    let (status, _) = s.get("/api/records", None).await;
    assert_eq!(status, 200);
}

/// 2. An acknowledged resignation is never overwritten by a draw decided
/// meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_2_a_resignation_is_not_overwritten_by_a_draw() {
    let s = Server::start(&[("PALABRE_CREATES_PER_MINUTE", "0")]);
    for _ in 0..16 {
        let (id, seat, _) = s
            .create(json!({"game": "nsolo", "size": 36, "opponent": "machine", "side": "south"}))
            .await;
        let offer = {
            let (http, url, seat) = (
                s.http.clone(),
                s.url(&format!("/api/games/{id}/draw")),
                seat.clone(),
            );
            tokio::spawn(async move {
                http.post(url)
                    .bearer_auth(seat)
                    .json(&json!({"action": "offer"}))
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            })
        };
        // The machine is still deciding on the offer when the resignation lands.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let (status, resigned) = s
            .post(&format!("/api/games/{id}/resign"), json!({}), Some(&seat))
            .await;
        let _ = offer.await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        let v = s.state(&id).await;
        if status == 200 {
            assert_eq!(resigned["result"]["reason"], "resignation");
            assert_eq!(
                v["result"]["reason"], "resignation",
                "the acknowledged end stays: {v}"
            );
        } else {
            assert_eq!(v["result"]["reason"], "agreement", "{resigned}");
        }
    }
}

/// 3. Both players asking for a rematch at once meet in one game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_3_simultaneous_rematches_make_one_game() {
    let s = Server::start(&[]);
    for _ in 0..3 {
        let (id, red, black) = s.online_pair().await;
        let (status, v) = s
            .post(&format!("/api/games/{id}/resign"), json!({}), Some(&red))
            .await;
        assert_eq!(status, 200, "{v}");
        let (mut a, _) = s.socket(&id, Some(&red)).await;
        let (mut b, _) = s.socket(&id, Some(&black)).await;
        send(&mut a, json!({"type": "rematch"})).await;
        send(&mut b, json!({"type": "rematch"})).await;
        let ra = until(&mut a, |m| m["type"] == "rematch" || m["type"] == "error").await;
        let rb = until(&mut b, |m| m["type"] == "rematch" || m["type"] == "error").await;
        assert_eq!(ra["type"], "rematch", "{ra}");
        assert_eq!(rb["type"], "rematch", "{rb}");
        assert_eq!(ra["id"], rb["id"], "one rematch game");
        let new = s.state(ra["id"].as_str().unwrap()).await;
        assert_eq!(new["status"], "playing", "both players are in it: {new}");
    }
}

/// 4. No engine hints in a game between people.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_4_no_hints_in_online_games() {
    let s = Server::start(&[]);
    let (id, red, black) = s.online_pair().await;
    for seat in [&red, &black] {
        let (status, v) = s.get(&format!("/api/games/{id}/hint"), Some(seat)).await;
        assert_eq!(status, 403, "{v}");
        assert_eq!(v["error"]["code"], "forbidden");
    }
}

/// 5a. Hints run on the bounded pool: a burst neither makes threads nor
/// waits forever; the overflow is told to come back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_5a_a_burst_of_hints_stays_on_the_bounded_pool() {
    let s = Server::start(&[
        ("PALABRE_HINTS_PER_MINUTE", "0"),
        ("PALABRE_QUICK_QUEUE", "16"),
    ]);
    let (id, seat, _) = s
        .create(json!({"game": "nsolo", "size": 36, "opponent": "local"}))
        .await;
    let before = threads(s.pid());
    let mut tasks = Vec::new();
    for _ in 0..200 {
        let req = s
            .http
            .get(s.url(&format!("/api/games/{id}/hint?level=confirme")))
            .bearer_auth(&seat);
        tasks.push(tokio::spawn(async move {
            let res = req.send().await.unwrap();
            (
                res.status().as_u16(),
                res.headers().contains_key("retry-after"),
            )
        }));
    }
    let mut most = 0;
    while tasks.iter().any(|t| !t.is_finished()) {
        most = most.max(threads(s.pid()));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut busy = 0;
    for t in tasks {
        let (status, retry_after) = t.await.unwrap();
        match status {
            200 => {}
            503 => {
                assert!(retry_after, "a busy answer says when to come back");
                busy += 1;
            }
            other => panic!("a hint answered {other}"),
        }
    }
    assert!(busy > 0, "a full queue answers busy");
    assert!(most <= before + 8, "threads went from {before} to {most}");
}

/// 5b. A cheap search never waits behind a queue of Expert searches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_5b_a_beginner_reply_does_not_wait_for_expert_games() {
    let s = Server::start(&[("PALABRE_CREATES_PER_MINUTE", "0")]);
    for _ in 0..12 {
        s.post(
            "/api/games",
            json!({"game": "yote", "opponent": "machine", "level": "expert", "side": "black"}),
            None,
        )
        .await;
    }
    let (id, _, _) = s
        .create(
            json!({"game": "yote", "opponent": "machine", "level": "debutant", "side": "black"}),
        )
        .await;
    s.wait_for(&id, Duration::from_secs(60), |v| v["ply"] == 1)
        .await;
    // The beginner has answered while Expert searches still wait their turn.
    let (status, v) = s.get("/api/status", None).await;
    assert_eq!(status, 200, "the server tells what waits");
    assert!(
        v["searches_queued"]["deep"].as_u64() > Some(0),
        "the beginner's reply waited for the Expert queue: {v}"
    );
}

/// A long legal Nsolo record (random play, seeded).
fn long_record(plies: usize) -> String {
    use palabre_rules::{Record, nsolo};
    use rand::{Rng, SeedableRng};
    let mut best = Vec::new();
    for seed in 0..8 {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut record = Record::new(nsolo::Position::start(36).unwrap());
        let mut moves = Vec::new();
        while moves.len() < plies && record.outcome().is_none() {
            let pos = record.position();
            let origins = pos.legal_origins();
            let o = origins[rng.gen_range(0..origins.len())];
            let sown = pos.sow_pit(o.pit).unwrap();
            let bonus = sown
                .distributions()
                .next()
                .expect("at least the empty bonus");
            let m = nsolo::Move::new(sown.origin(), bonus);
            moves.push(m.to_string());
            record.play(&m).unwrap();
        }
        if moves.len() > best.len() {
            best = moves;
        }
    }
    let mut text = "[Game \"nsolo\"]\n[Size \"36\"]\n\n".to_owned();
    for pair in best.chunks(2) {
        text.push_str(&pair.join(" "));
        text.push('\n');
    }
    text
}

/// 6. Imports are replayed off the async runtime: a burst of long imports
/// does not stall other requests.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_6_imports_do_not_stall_the_server() {
    let s = Server::start(&[
        ("PALABRE_IMPORTS_PER_MINUTE", "0"),
        ("PALABRE_CREATES_PER_MINUTE", "0"),
    ]);
    let (id, _, _) = s.create(json!({"game": "yote", "opponent": "local"})).await;
    let record = long_record(2000);
    assert!(
        record.len() < 16 * 1024,
        "the record fits the old body limit too"
    );
    let mut tasks = Vec::new();
    for _ in 0..60 {
        let req = s.http.post(s.url("/api/import")).body(record.clone());
        tasks.push(tokio::spawn(async move {
            req.send().await.unwrap().status().as_u16()
        }));
    }
    // Reads go on meanwhile (each answers).
    while tasks.iter().any(|t| !t.is_finished()) {
        s.state(&id).await;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let mut busy = 0;
    for t in tasks {
        match t.await.unwrap() {
            200 => {}
            503 => busy += 1,
            other => panic!("an import answered {other}"),
        }
    }
    // A bounded number of imports run at once; the others are told to come back.
    assert!(busy > 0, "all 60 imports ran at once");
}

/// 7a. Silent connections and slow headers are closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_7a_silent_and_slow_connections_are_closed() {
    let s = Server::start(&[("PALABRE_HEADER_TIMEOUT", "1")]);
    let mut silent: Vec<std::net::TcpStream> = (0..20)
        .map(|_| std::net::TcpStream::connect(("127.0.0.1", s.port)).unwrap())
        .collect();
    let mut slow = std::net::TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    silent.push(slow);
    for stream in &mut silent {
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut buf = [0u8; 256];
        let closed = loop {
            match stream.read(&mut buf) {
                Ok(0) => break true,
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break true,
                Err(_) => break false,
            }
        };
        assert!(closed, "a silent connection stayed open");
    }
}

/// 7b. Live connections are capped per address, and closed when silent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_7b_live_connections_are_capped_and_idle_ones_closed() {
    let s = Server::start(&[
        ("PALABRE_SOCKETS_PER_ADDRESS", "3"),
        ("PALABRE_SOCKET_IDLE", "2"),
    ]);
    let (id, _, _) = s.create(json!({"game": "yote", "opponent": "local"})).await;
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(s.socket(&id, None).await.0);
    }
    let url = format!("ws://127.0.0.1:{}/api/games/{id}/ws", s.port);
    match tokio_tungstenite::connect_async(url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(res)) => assert_eq!(res.status(), 429),
        other => panic!("a fourth socket was not refused: {:?}", other.map(|_| ())),
    }
    // Never read (so never answer a ping) and never write: closed.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let ws = &mut open[0];
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(3), futures_util::StreamExt::next(ws)).await
        {
            Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => break true,
            Ok(Some(Ok(_))) => continue,
            Err(_) => break false,
        }
    };
    assert!(closed, "an idle socket stayed open");
}

/// 8a. Game creation is throttled per address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_8a_game_creation_is_throttled() {
    let s = Server::start(&[]);
    let mut refused = None;
    for _ in 0..100 {
        let res = s
            .http
            .post(s.url("/api/games"))
            .json(&json!({"game": "yote", "opponent": "local"}))
            .send()
            .await
            .unwrap();
        if res.status() == 429 {
            refused = Some(res);
            break;
        }
    }
    let res = refused.expect("100 creations in a row from one address were all accepted");
    assert!(res.headers().contains_key("retry-after"));
    let v: Value = res.json().await.unwrap();
    assert_eq!(v["error"]["code"], "rate_limited");
}

/// 8b. Idle games leave memory and come back from the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_8b_idle_games_are_evicted_and_rebuilt() {
    let s = Server::start(&[
        ("PALABRE_IDLE_GAME", "1"),
        ("PALABRE_CREATES_PER_MINUTE", "0"),
    ]);
    let mut ids = Vec::new();
    for _ in 0..20 {
        let (id, seat, v) = s.create(json!({"game": "yote", "opponent": "local"})).await;
        let m = legal(&v["state"], 3);
        s.post(
            &format!("/api/games/{id}/moves"),
            json!({"move": m, "ply": 0}),
            Some(&seat),
        )
        .await;
        ids.push((id, m));
    }
    let started = Instant::now();
    loop {
        let (status, v) = s.get("/api/status", None).await;
        assert_eq!(status, 200, "the server tells what it holds");
        if v["games_in_memory"] == 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "games stayed in memory: {v}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for (id, m) in &ids {
        assert_eq!(s.state(id).await["moves"], json!([m]));
    }
}

/// 9a. A live socket answers an oversized message with `too_large` and
/// stays open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_9a_an_oversized_message_is_answered() {
    let s = Server::start(&[]);
    let (id, red, _) = s.online_pair().await;
    let (mut ws, _) = s.socket(&id, Some(&red)).await;
    let big = json!({"type": "move", "move": "x".repeat(5000), "ply": 0});
    ws.send(Message::text(big.to_string())).await.unwrap();
    let e = until(&mut ws, |m| m["type"] == "error").await;
    assert_eq!(e["code"], "too_large");
    send(&mut ws, json!({"type": "ping"})).await;
    assert_eq!(
        until(&mut ws, |m| m["type"] == "pong").await["type"],
        "pong"
    );
}

/// The status and JSON body of a WebSocket upgrade sent with these headers.
fn upgrade(port: u16, id: &str, origin: &str, host: &str) -> (u16, String) {
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        stream,
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nConnection: Upgrade\r\n\
         Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(3)))
        .unwrap();
    let mut buf = vec![0u8; 4096];
    let n = stream.read(&mut buf).unwrap_or(0);
    let raw = String::from_utf8_lossy(&buf[..n]).into_owned();
    let status = raw.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, raw)
}

/// 9b. A refused origin says so, and a page whose name was made to point
/// here (DNS rebinding: its Host agrees with its Origin) is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_9b_foreign_and_rebound_origins_are_refused_by_name() {
    let s = Server::start(&[]);
    let (id, _, _) = s.create(json!({"game": "yote", "opponent": "local"})).await;
    let port = s.port;
    let (status, raw) = upgrade(
        port,
        &id,
        "http://evil.example",
        &format!("127.0.0.1:{port}"),
    );
    assert_eq!(status, 403, "{raw}");
    assert!(raw.contains("forbidden_origin"), "{raw}");
    let rebound = format!("evil.example:{port}");
    let (status, raw) = upgrade(port, &id, &format!("http://{rebound}"), &rebound);
    assert_eq!(status, 403, "a rebinding page was let in: {raw}");
    let own = format!("127.0.0.1:{port}");
    assert_eq!(upgrade(port, &id, &format!("http://{own}"), &own).0, 101);
}

/// 9c. Import errors are JSON, and a record's size is the size of its start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_9c_import_errors_are_json_and_sizes_are_checked() {
    let s = Server::start(&[]);
    let res = s
        .http
        .post(s.url("/api/import"))
        .body(vec![0xff, 0xfe, 0x00])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let start = palabre_rules::nsolo::Position::start(8)
        .unwrap()
        .to_string();
    let lying = format!("[Game \"nsolo\"]\n[Size \"99\"]\n[Start \"{start}\"]\n\n");
    let res = s
        .http
        .post(s.url("/api/import"))
        .body(lying)
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        400,
        "a record claiming size 99 on a 4x8 start"
    );
    let v: Value = res.json().await.unwrap();
    assert_eq!(v["error"]["code"], "bad_request");
}

/// 9d. Names that show nothing or reorder text, time controls against the
/// machine, and resigning a game nobody joined are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_9d_bad_names_machine_clocks_and_empty_resignations() {
    let s = Server::start(&[]);
    for name in ["\u{200B}\u{200B}", "\u{3164}", "Awa\u{202E}gnp.exe"] {
        let (status, v) = s
            .post(
                "/api/games",
                json!({"game": "yote", "opponent": "online", "name": name}),
                None,
            )
            .await;
        assert_eq!(status, 400, "{name:?}: {v}");
    }
    let (status, v) = s
        .post(
            "/api/games",
            json!({"game": "yote", "opponent": "machine", "time_control": "5+3"}),
            None,
        )
        .await;
    assert_eq!(status, 400, "{v}");
    let (id, seat, _) = s
        .create(json!({"game": "yote", "opponent": "online", "name": "Awa"}))
        .await;
    let (status, v) = s
        .post(&format!("/api/games/{id}/resign"), json!({}), Some(&seat))
        .await;
    assert_eq!(status, 409, "{v}");
    assert_eq!(v["error"]["code"], "not_started");
    assert_eq!(s.state(&id).await["status"], "waiting");
    let _ = next;
}
