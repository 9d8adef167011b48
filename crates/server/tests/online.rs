//! Online play over real sockets: the server listens on port 0 and clients
//! speak HTTP and WebSocket to it.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use palabre_server::domain::{GameKind, Opponent, Side, Status};
use palabre_server::seats::seat_hash;
use palabre_server::store::{GameRow, Member, Summary};
use palabre_server::{AppState, Config, app};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn server() -> String {
    serve_state().await.0
}

/// A server on port 0; returns its address and state.
async fn serve_state() -> (String, AppState) {
    serve_with(Config::testing()).await
}

/// A server on port 0 with `config`.
async fn serve_with(config: Config) -> (String, AppState) {
    let state = AppState::open(&config).await.unwrap();
    let router = app(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        palabre_server::net::serve(listener, router, &config.limits, std::future::pending()).await
    });
    (format!("127.0.0.1:{}", addr.port()), state)
}

async fn post(addr: &str, path: &str, body: Value, seat: Option<&str>) -> (u16, Value) {
    let mut req = reqwest::Client::new()
        .post(format!("http://{addr}{path}"))
        .json(&body);
    if let Some(seat) = seat {
        req = req.bearer_auth(seat);
    }
    let res = req.send().await.unwrap();
    (
        res.status().as_u16(),
        res.json().await.unwrap_or(Value::Null),
    )
}

/// Opens the game's socket and says hello; returns it with the first state.
async fn connect(addr: &str, id: &str, seat: Option<&str>, ply: usize) -> (Socket, Value) {
    let (mut ws, _) = connect_async(format!("ws://{addr}/api/games/{id}/ws"))
        .await
        .unwrap();
    let hello = match seat {
        Some(seat) => json!({"type": "hello", "seat": seat, "ply": ply}),
        None => json!({"type": "hello", "ply": ply}),
    };
    ws.send(Message::text(hello.to_string())).await.unwrap();
    let first = next(&mut ws).await;
    (ws, first)
}

async fn next(ws: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// Reads messages until one satisfies `want` (states from others' moves
/// and presence changes may come first).
async fn until(ws: &mut Socket, want: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..50 {
        let m = next(ws).await;
        if want(&m) {
            return m;
        }
    }
    panic!("the expected message never came");
}

async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}

fn at_ply(n: u64) -> impl Fn(&Value) -> bool {
    move |m| m["type"] == "state" && m["state"]["ply"] == n
}

async fn two_player_game(addr: &str) -> (String, String, String) {
    let (status, a) = post(
        addr,
        "/api/games",
        json!({"game": "yote", "opponent": "online", "side": "red", "name": "Awa"}),
        None,
    )
    .await;
    assert_eq!(status, 201, "{a}");
    assert_eq!(
        a["invite"],
        format!("/partie/{}/rejoindre", a["id"].as_str().unwrap())
    );
    assert_eq!(a["state"]["status"], "waiting");
    let id = a["id"].as_str().unwrap().to_owned();
    let (status, b) = post(
        addr,
        &format!("/api/games/{id}/join"),
        json!({"name": "Kofi"}),
        None,
    )
    .await;
    assert_eq!(status, 201, "{b}");
    assert_eq!(
        (b["side"].as_str(), b["state"]["status"].as_str()),
        (Some("black"), Some("playing"))
    );
    let (status, c) = post(
        addr,
        &format!("/api/games/{id}/join"),
        json!({"name": "Late"}),
        None,
    )
    .await;
    assert_eq!(
        (status, c["error"]["code"].as_str()),
        (409, Some("already_started"))
    );
    (
        id,
        a["seat"].as_str().unwrap().to_owned(),
        b["seat"].as_str().unwrap().to_owned(),
    )
}

#[tokio::test]
async fn two_players_and_a_spectator() {
    let addr = server().await;
    let (id, red, black) = two_player_game(&addr).await;
    let (mut a, first) = connect(&addr, &id, Some(&red), 0).await;
    assert_eq!(
        (first["type"].as_str(), first["state"]["ply"].as_u64()),
        (Some("state"), Some(0))
    );
    let (mut b, _) = connect(&addr, &id, Some(&black), 0).await;
    let (mut watcher, _) = connect(&addr, &id, None, 0).await;
    send(&mut a, json!({"type": "move", "move": "c3", "ply": 0})).await;
    assert_eq!(until(&mut a, |m| m["type"] == "ack").await["ply"], 0);
    for ws in [&mut a, &mut b, &mut watcher] {
        let s = until(ws, at_ply(1)).await;
        assert_eq!(
            (s["state"]["turn"].as_str(), s["state"]["moves"][0].as_str()),
            (Some("black"), Some("c3"))
        );
    }
    send(
        &mut watcher,
        json!({"type": "move", "move": "c4", "ply": 1}),
    )
    .await;
    assert_eq!(
        until(&mut watcher, |m| m["type"] == "error").await["code"],
        "missing_seat"
    );
    send(&mut a, json!({"type": "move", "move": "c4", "ply": 1})).await;
    assert_eq!(
        until(&mut a, |m| m["type"] == "error").await["code"],
        "not_your_hand"
    );
    send(&mut b, json!({"type": "move", "move": "c4", "ply": 1})).await;
    assert_eq!(until(&mut b, |m| m["type"] == "ack").await["ply"], 1);
    let s = until(&mut watcher, at_ply(2)).await;
    let teams = &s["state"]["teams"];
    assert_eq!(
        (
            teams["red"][0]["name"].as_str(),
            teams["red"][0]["online"].as_bool()
        ),
        (Some("Awa"), Some(true))
    );
    send(&mut b, json!({"type": "resign"})).await;
    let end = until(&mut a, |m| {
        m["type"] == "state" && !m["state"]["result"].is_null()
    })
    .await;
    assert_eq!(
        end["state"]["result"],
        json!({"winner": "red", "reason": "resignation"})
    );
}

#[tokio::test]
async fn a_client_reconnects_and_resumes() {
    let addr = server().await;
    let (id, red, black) = two_player_game(&addr).await;
    let (mut a, _) = connect(&addr, &id, Some(&red), 0).await;
    let (b, _) = connect(&addr, &id, Some(&black), 0).await;
    drop(b);
    let away = until(&mut a, |m| {
        m["type"] == "state" && m["state"]["teams"]["black"][0]["online"] == false
    })
    .await;
    assert_eq!(away["state"]["teams"]["black"][0]["name"], "Kofi");
    send(&mut a, json!({"type": "move", "move": "c3", "ply": 0})).await;
    until(&mut a, |m| m["type"] == "ack").await;
    let (mut b, state) = connect(&addr, &id, Some(&black), 0).await;
    assert_eq!(
        (
            state["state"]["ply"].as_u64(),
            state["state"]["moves"][0].as_str()
        ),
        (Some(1), Some("c3"))
    );
    send(&mut b, json!({"type": "move", "move": "a1", "ply": 1})).await;
    assert_eq!(until(&mut b, |m| m["type"] == "ack").await["ply"], 1);
}

#[tokio::test]
async fn stale_and_duplicate_moves() {
    let addr = server().await;
    let (id, red, black) = two_player_game(&addr).await;
    let (mut a, _) = connect(&addr, &id, Some(&red), 0).await;
    let (mut b, _) = connect(&addr, &id, Some(&black), 0).await;
    send(&mut a, json!({"type": "move", "move": "c3", "ply": 0})).await;
    until(&mut a, |m| m["type"] == "ack").await;
    // The same move again (a client that did not see its ack): acknowledged once more, not replayed.
    send(&mut a, json!({"type": "move", "move": "c3", "ply": 0})).await;
    assert_eq!(until(&mut a, |m| m["type"] == "ack").await["ply"], 0);
    send(&mut b, json!({"type": "move", "move": "d4", "ply": 0})).await;
    assert_eq!(
        until(&mut b, |m| m["type"] == "error").await["code"],
        "stale_ply"
    );
    let (_, s) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        json!({"move": "c3", "ply": 0}),
        Some(&red),
    )
    .await;
    assert_eq!(s["moves"], json!(["c3"]), "nothing doubled");
}

#[tokio::test]
async fn a_forged_seat_moves_nothing() {
    let addr = server().await;
    let (id, _, _) = two_player_game(&addr).await;
    let (mut ws, reply) = connect(&addr, &id, Some("00000000000000000000000000000000"), 0).await;
    assert_eq!(
        (reply["type"].as_str(), reply["code"].as_str()),
        (Some("error"), Some("wrong_seat"))
    );
    let closed = tokio::time::timeout(Duration::from_secs(5), ws.next())
        .await
        .unwrap();
    assert!(
        !matches!(closed, Some(Ok(Message::Text(_)))),
        "the socket closes"
    );
    let (status, v) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        json!({"move": "c3", "ply": 0}),
        Some("forged"),
    )
    .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (403, Some("wrong_seat"))
    );
    let too_big = json!({"type": "hello", "seat": "x".repeat(10_000)});
    let (mut ws, _) = connect_async(format!("ws://{addr}/api/games/{id}/ws"))
        .await
        .unwrap();
    let _ = ws.send(Message::text(too_big.to_string())).await;
    let answer = tokio::time::timeout(Duration::from_secs(5), ws.next())
        .await
        .unwrap();
    assert!(
        !matches!(answer, Some(Ok(Message::Text(ref t))) if t.contains("\"state\"")),
        "an oversized message is refused"
    );
}

#[tokio::test]
async fn teams_of_three_and_two_take_turns_in_joining_order() {
    let addr = server().await;
    let body = json!({"game": "nsolo", "size": 8, "opponent": "online", "side": "south", "name": "S0", "team_size": 3});
    let (_, created) = post(&addr, "/api/games", body, None).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let mut seats = vec![("south", 0, created["seat"].as_str().unwrap().to_owned())];
    for (name, side) in [
        ("N0", "north"),
        ("S1", "south"),
        ("N1", "north"),
        ("S2", "south"),
    ] {
        let (status, j) = post(
            &addr,
            &format!("/api/games/{id}/join"),
            json!({"name": name, "side": side}),
            None,
        )
        .await;
        assert_eq!(status, 201, "{j}");
        let position = seats.iter().filter(|s| s.0 == side).count();
        seats.push((side, position, j["seat"].as_str().unwrap().to_owned()));
    }
    let seat = |side: &str, pos: usize| {
        seats
            .iter()
            .find(|s| s.0 == side && s.1 == pos)
            .unwrap()
            .2
            .clone()
    };
    let (status, s) = post(
        &addr,
        &format!("/api/games/{id}/start"),
        json!({}),
        Some(&seat("north", 1)),
    )
    .await;
    assert_eq!(
        (status, s["status"].as_str()),
        (200, Some("playing")),
        "{s}"
    );
    let mut ply = 0;
    let mut state = s;
    // Six South moves and six North moves: South 0,1,2,0,1,2; North 0,1,0,1,0,1.
    for round in 0..6 {
        for (side, team) in [("south", 3), ("north", 2)] {
            if !state["result"].is_null() {
                return;
            }
            let hand = round % team;
            assert_eq!(
                state["next_hand"]["index"].as_u64(),
                Some(hand as u64),
                "{side} round {round}"
            );
            assert_eq!(state["next_hand"]["side"], side);
            let m = palabre_server::bots::move_from_state(&state, 0).unwrap();
            let wrong = seat(side, (hand + 1) % team);
            let (status, e) = post(
                &addr,
                &format!("/api/games/{id}/moves"),
                json!({"move": m, "ply": ply}),
                Some(&wrong),
            )
            .await;
            assert_eq!(
                (status, e["error"]["code"].as_str()),
                (409, Some("not_your_hand"))
            );
            let (status, next) = post(
                &addr,
                &format!("/api/games/{id}/moves"),
                json!({"move": m, "ply": ply}),
                Some(&seat(side, hand)),
            )
            .await;
            assert_eq!(status, 201, "{next}");
            state = next;
            ply += 1;
        }
    }
}

#[tokio::test]
async fn clocks_run_with_increments() {
    let addr = server().await;
    let body = json!({"game": "yote", "opponent": "online", "side": "red", "name": "Awa", "time_control": "5+3"});
    let (_, a) = post(&addr, "/api/games", body, None).await;
    let id = a["id"].as_str().unwrap().to_owned();
    let (_, b) = post(
        &addr,
        &format!("/api/games/{id}/join"),
        json!({"name": "Kofi"}),
        None,
    )
    .await;
    let clocks = &b["state"]["clocks"];
    assert_eq!(b["state"]["running"], "red");
    assert!(
        clocks["red"].as_i64().unwrap() <= 300_000 && clocks["black"] == 300_000,
        "{clocks}"
    );
    let (_, s) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        json!({"move": "c3", "ply": 0}),
        a["seat"].as_str(),
    )
    .await;
    assert_eq!(s["running"], "black");
    assert!(
        s["clocks"]["red"].as_i64().unwrap() > 300_000,
        "the increment was added: {}",
        s["clocks"]
    );
    let (status, bad) = post(
        &addr,
        "/api/games",
        json!({"game": "yote", "opponent": "online", "name": "X", "time_control": "1+0"}),
        None,
    )
    .await;
    assert_eq!(
        (status, bad["error"]["code"].as_str()),
        (400, Some("bad_request"))
    );
}

#[tokio::test]
async fn a_flag_falls_when_the_running_clock_reaches_zero() {
    let (addr, state) = serve_state().await;
    // A game whose red clock started five minutes and a moment ago, stored
    // before any owner loaded it: loading it ends it on time.
    let id = "00000000f1a9".to_owned();
    let seat = "red-seat";
    let started = palabre_server::clock::now_ms() - 300_050;
    let row = GameRow {
        id: id.clone(),
        kind: GameKind::Yote,
        size: 5,
        start_fen: palabre_rules::yote::Position::START.to_string(),
        opponent: Opponent::Online,
        level: palabre_ai::Level::Debutant,
        human: None,
        seat_hash: seat_hash("unused"),
        ended: None,
        team_size: 1,
        time_control: "5+3".parse().unwrap(),
        started_at_ms: Some(started),
        rematch_id: None,
        damaged: None,
    };
    let summary = Summary {
        status: Status::Playing,
        ply: 0,
        result: None,
        machine_due: false,
        deadline_ms: Some(started + 300_000),
    };
    let member = |side, name: &str, seat: &str| Member {
        side,
        position: 0,
        name: name.into(),
        seat_hash: seat_hash(seat),
    };
    let store = state.store();
    store
        .create(&row, Some(&member(Side::Red, "Awa", seat)), &summary)
        .await
        .unwrap();
    store
        .join(
            &id,
            None,
            &member(Side::Black, "Kofi", "black-seat"),
            None,
            &summary,
        )
        .await
        .unwrap();
    // Nobody asks: the sweeper finds the fallen clock in the store.
    let mut ended = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = ?")
            .bind(&id)
            .fetch_one(store.pool())
            .await
            .unwrap();
        if status == "finished" {
            ended = true;
            break;
        }
    }
    assert!(ended, "the sweeper ended the game on time");
    let (_, s) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        json!({"move": "c3", "ply": 0}),
        Some(seat),
    )
    .await;
    assert_eq!(s["error"]["code"], "game_over");
    let v: Value = reqwest::get(format!("http://{addr}/api/games/{id}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(v["result"], json!({"winner": "black", "reason": "timeout"}));
    assert_eq!(v["clocks"]["red"], 0, "a fallen clock shows zero");
}

#[tokio::test]
async fn abort_rematch_records_and_export_round_trip() {
    let addr = server().await;
    let (id, red, black) = two_player_game(&addr).await;
    let (mut a, _) = connect(&addr, &id, Some(&red), 0).await;
    send(&mut a, json!({"type": "abort"})).await;
    let aborted = until(&mut a, |m| {
        m["type"] == "state" && !m["state"]["result"].is_null()
    })
    .await;
    assert_eq!(
        aborted["state"]["result"],
        json!({"winner": null, "reason": "aborted"})
    );
    send(&mut a, json!({"type": "rematch"})).await;
    let r = until(&mut a, |m| m["type"] == "rematch").await;
    let new_id = r["id"].as_str().unwrap().to_owned();
    let (mut b, _) = connect(&addr, &id, Some(&black), 0).await;
    send(&mut b, json!({"type": "rematch"})).await;
    let rb = until(&mut b, |m| m["type"] == "rematch").await;
    assert_eq!(rb["id"], new_id.as_str(), "both join the same rematch");
    let fresh: Value = reqwest::get(format!("http://{addr}/api/games/{new_id}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        (
            fresh["teams"]["black"][0]["name"].as_str(),
            fresh["teams"]["red"][0]["name"].as_str()
        ),
        (Some("Awa"), Some("Kofi")),
        "sides swapped"
    );
    for (ply, (m, seat)) in [
        ("c3", rb["seat"].as_str().unwrap()),
        ("c4", r["seat"].as_str().unwrap()),
    ]
    .into_iter()
    .enumerate()
    {
        let (status, _) = post(
            &addr,
            &format!("/api/games/{new_id}/moves"),
            json!({"move": m, "ply": ply}),
            Some(seat),
        )
        .await;
        assert_eq!(status, 201);
    }
    post(
        &addr,
        &format!("/api/games/{new_id}/resign"),
        json!({}),
        r["seat"].as_str(),
    )
    .await;
    let records: Value = reqwest::get(format!("http://{addr}/api/records"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        records
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == new_id.as_str() && g["result"]["reason"] == "resignation")
    );
    let text = reqwest::get(format!("http://{addr}/api/games/{new_id}/export"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        text.contains("[Game \"yote\"]")
            && text.contains("[TimeControl \"none\"]")
            && text.contains("[Date \"20")
            && text.contains("1. c3 c4")
            && text.contains("red wins by resignation"),
        "{text}"
    );
    let imported: Value = reqwest::Client::new()
        .post(format!("http://{addr}/api/import"))
        .body(text.clone())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let frames = imported["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 3);
    assert_eq!(
        (
            frames[2]["last"]["move"].as_str(),
            frames[2]["fen"].as_str()
        ),
        (Some("c4"), Some("5/2b2/2r2/5/5 11 11 r 2"))
    );
    let broken = text.replace("c4", "c3");
    let res = reqwest::Client::new()
        .post(format!("http://{addr}/api/import"))
        .body(broken)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 422);
}

#[tokio::test]
async fn foreign_origins_and_floods_are_refused() {
    let mut config = Config::testing();
    config.limits.socket_messages_per_second = 20;
    let (addr, _) = serve_with(config).await;
    let (id, red, _) = two_player_game(&addr).await;
    let mut req = tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
        format!("ws://{addr}/api/games/{id}/ws"),
    )
    .unwrap();
    req.headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    assert!(
        connect_async(req).await.is_err(),
        "a foreign origin cannot open the socket"
    );
    let (mut a, _) = connect(&addr, &id, Some(&red), 0).await;
    for _ in 0..40 {
        send(&mut a, json!({"type": "ping"})).await;
    }
    let limited = until(&mut a, |m| m["type"] == "error").await;
    assert_eq!(limited["code"], "rate_limited");
}
