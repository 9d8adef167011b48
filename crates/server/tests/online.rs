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

/// Found by schemathesis (`crates/cli/tests/schemathesis.rs`): a plain
/// GET of the live socket's address (no WebSocket upgrade) was refused in
/// plain text, not in the API's error format.
#[tokio::test]
async fn a_plain_get_of_the_socket_is_refused_in_the_error_format() {
    let addr = server().await;
    let (status, v) = post(&addr, "/api/games", json!({"game": "yote"}), None).await;
    assert_eq!(status, 201, "{v}");
    let id = v["id"].as_str().unwrap();
    for path in [
        format!("/api/games/{id}/ws"),
        "/api/games/nope/ws".to_owned(),
    ] {
        let res = reqwest::get(format!("http://{addr}{path}")).await.unwrap();
        assert_eq!(res.status().as_u16(), 400, "{path}");
        assert_eq!(
            res.headers()["content-type"].to_str().unwrap(),
            "application/json",
            "{path}"
        );
        let v: Value = res.json().await.unwrap();
        assert_eq!(v["error"]["code"], "bad_request", "{path}: {v}");
    }
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

/// Sends `v` and waits for its direct answer (`ok`, `ack` or `error`),
/// passing over the states published meanwhile.
async fn say(ws: &mut Socket, v: Value) -> Value {
    send(ws, v).await;
    until(ws, |m| {
        ["ok", "ack", "error"].contains(&m["type"].as_str().unwrap_or(""))
    })
    .await
}

fn takeback(action: &str) -> Value {
    json!({"type": "takeback", "action": action})
}

async fn state_of(addr: &str, id: &str) -> Value {
    reqwest::get(format!("http://{addr}/api/games/{id}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_takeback_offer_is_accepted_or_declined() {
    let addr = server().await;
    let (id, red, black) = two_player_game(&addr).await;
    let (mut a, first) = connect(&addr, &id, Some(&red), 0).await;
    assert_eq!(
        (
            &first["state"]["takeback_offer"],
            &first["state"]["takeback_declined"]
        ),
        (&Value::Null, &json!(false))
    );
    let (mut b, _) = connect(&addr, &id, Some(&black), 0).await;
    assert_eq!(
        say(&mut b, takeback("offer")).await["code"],
        "nothing_to_take_back"
    );
    let m = say(&mut a, json!({"type": "move", "move": "c3", "ply": 0})).await;
    assert_eq!(m["type"], "ack");
    assert_eq!(
        say(&mut b, takeback("offer")).await["code"],
        "nothing_to_take_back",
        "black has not moved yet"
    );
    assert_eq!(say(&mut a, takeback("offer")).await["type"], "ok");
    let offered = until(&mut b, |m| {
        m["type"] == "state" && !m["state"]["takeback_offer"].is_null()
    })
    .await;
    assert_eq!(
        offered["state"]["takeback_offer"],
        json!({"by": "red", "ply": 1})
    );
    assert_eq!(
        say(&mut a, takeback("accept")).await["code"],
        "no_takeback_offer",
        "the asker cannot answer its own offer"
    );
    assert_eq!(
        say(&mut b, takeback("offer")).await["code"],
        "takeback_pending"
    );
    let m = say(
        &mut b,
        json!({"type": "takeback", "action": "decline", "ply": 1}),
    )
    .await;
    assert_eq!(m["type"], "ok");
    let s = state_of(&addr, &id).await;
    assert_eq!(
        (&s["takeback_offer"], &s["takeback_declined"], &s["ply"]),
        (&Value::Null, &json!(true), &json!(1))
    );
    // Accepted: red's one move goes, and it is red's turn again.
    assert_eq!(say(&mut a, takeback("offer")).await["type"], "ok");
    let m = say(
        &mut b,
        json!({"type": "takeback", "action": "accept", "ply": 1}),
    )
    .await;
    assert_eq!(m["type"], "ok");
    let back = until(&mut a, at_ply(0)).await;
    assert_eq!(
        (
            &back["state"]["moves"],
            &back["state"]["turn"],
            &back["state"]["takeback_offer"]
        ),
        (&json!([]), &json!("red"), &Value::Null)
    );
    // Asked after the opponent's reply: both moves go.
    say(&mut a, json!({"type": "move", "move": "c3", "ply": 0})).await;
    say(&mut b, json!({"type": "move", "move": "d4", "ply": 1})).await;
    assert_eq!(say(&mut a, takeback("offer")).await["type"], "ok");
    assert_eq!(say(&mut b, takeback("accept")).await["type"], "ok");
    let s = state_of(&addr, &id).await;
    assert_eq!(
        (&s["ply"], &s["turn"], &s["moves"]),
        (&json!(0), &json!("red"), &json!([]))
    );
    // The moves left the store too.
    let (status, next) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        json!({"move": "e5", "ply": 0}),
        Some(&red),
    )
    .await;
    assert_eq!((status, &next["moves"]), (201, &json!(["e5"])));
    // On one screen and against the machine a take-back is not offered.
    let (_, local) = post(
        &addr,
        "/api/games",
        json!({"game": "yote", "opponent": "local"}),
        None,
    )
    .await;
    let (mut l, _) = connect(
        &addr,
        local["id"].as_str().unwrap(),
        local["seat"].as_str(),
        0,
    )
    .await;
    assert_eq!(say(&mut l, takeback("offer")).await["code"], "forbidden");
    assert_eq!(
        say(&mut a, json!({"type": "takeback"})).await["code"],
        "forbidden",
        "online, a take-back is asked for"
    );
}

#[tokio::test]
async fn a_move_or_a_new_offer_makes_a_takeback_answer_stale() {
    let addr = server().await;
    let (id, red, black) = two_player_game(&addr).await;
    let (mut a, _) = connect(&addr, &id, Some(&red), 0).await;
    let (mut b, _) = connect(&addr, &id, Some(&black), 0).await;
    say(&mut a, json!({"type": "move", "move": "c3", "ply": 0})).await;
    assert_eq!(say(&mut a, takeback("offer")).await["type"], "ok");
    // Black plays instead of answering: the offer is gone.
    say(&mut b, json!({"type": "move", "move": "d4", "ply": 1})).await;
    let s = state_of(&addr, &id).await;
    assert_eq!((&s["ply"], &s["takeback_offer"]), (&json!(2), &Value::Null));
    assert_eq!(
        say(&mut b, takeback("accept")).await["code"],
        "no_takeback_offer"
    );
    // Red offers at ply 2, thinks better of it and plays, then offers again
    // at ply 3: an answer meant for the first offer is refused.
    assert_eq!(say(&mut a, takeback("offer")).await["type"], "ok");
    say(&mut a, json!({"type": "move", "move": "e5", "ply": 2})).await;
    assert_eq!(say(&mut a, takeback("offer")).await["type"], "ok");
    let m = say(
        &mut b,
        json!({"type": "takeback", "action": "accept", "ply": 2}),
    )
    .await;
    assert_eq!(m["code"], "stale_takeback", "{m}");
    let s = state_of(&addr, &id).await;
    assert_eq!(
        (&s["ply"], &s["takeback_offer"]),
        (&json!(3), &json!({"by": "red", "ply": 3})),
        "a stale answer changes nothing"
    );
    let m = say(
        &mut b,
        json!({"type": "takeback", "action": "accept", "ply": 3}),
    )
    .await;
    assert_eq!(m["type"], "ok");
    let s = state_of(&addr, &id).await;
    assert_eq!((&s["ply"], &s["moves"]), (&json!(2), &json!(["c3", "d4"])));
    // An end clears the offer, and nothing is taken back after it.
    assert_eq!(say(&mut a, takeback("offer")).await["type"], "ok");
    say(&mut b, json!({"type": "resign"})).await;
    let s = state_of(&addr, &id).await;
    assert_eq!(
        (&s["status"], &s["takeback_offer"]),
        (&json!("finished"), &Value::Null)
    );
    assert_eq!(say(&mut b, takeback("accept")).await["code"], "game_over");
    assert_eq!(say(&mut a, takeback("offer")).await["code"], "game_over");
}

#[tokio::test]
async fn clocks_wait_for_the_first_move() {
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
    let full = json!({"red": 300_000, "black": 300_000});
    assert_eq!(
        (
            &b["state"]["status"],
            &b["state"]["running"],
            &b["state"]["clocks"]
        ),
        (&json!("playing"), &Value::Null, &full)
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let s = state_of(&addr, &id).await;
    assert_eq!(
        (&s["running"], &s["clocks"]),
        (&Value::Null, &full),
        "nobody's clock runs before the first move"
    );
    let (_, s) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        json!({"move": "c3", "ply": 0}),
        a["seat"].as_str(),
    )
    .await;
    assert_eq!(
        (&s["running"], &s["clocks"]["red"]),
        (&json!("black"), &json!(300_000)),
        "the first move costs nothing and earns no increment"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    let s = state_of(&addr, &id).await;
    let black = s["clocks"]["black"].as_i64().unwrap();
    assert!(black <= 300_000 - 200, "black's clock runs: {black}");
    let (_, s) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        json!({"move": "d4", "ply": 1}),
        b["seat"].as_str(),
    )
    .await;
    assert_eq!(s["running"], "red");
    assert!(
        s["clocks"]["black"].as_i64().unwrap() > 300_000,
        "the increment was added: {}",
        s["clocks"]
    );
    // Taking both moves back returns to a game whose clocks wait again.
    let (mut ws, _) = connect(&addr, &id, a["seat"].as_str(), 2).await;
    let (mut other, _) = connect(&addr, &id, b["seat"].as_str(), 2).await;
    assert_eq!(say(&mut ws, takeback("offer")).await["type"], "ok");
    assert_eq!(say(&mut other, takeback("accept")).await["type"], "ok");
    let s = state_of(&addr, &id).await;
    assert_eq!(
        (&s["ply"], &s["running"], &s["clocks"]),
        (&json!(0), &Value::Null, &full)
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

/// A Yoté game between two players at "5+3", begun at `started_at_ms`,
/// as the store holds it.
fn timed_yote(id: &str, started_at_ms: i64) -> GameRow {
    GameRow {
        id: id.to_owned(),
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
        started_at_ms: Some(started_at_ms),
        rematch_id: None,
        damaged: None,
        account: None,
        rated: false,
        rating_range: None,
        clock_credit_ms: 0,
    }
}

/// A game in play at `ply`, the mover's clock falling at `deadline_ms`.
fn playing(ply: usize, deadline_ms: Option<i64>) -> Summary {
    Summary {
        status: Status::Playing,
        ply,
        result: None,
        machine_due: false,
        deadline_ms,
        clock_credit_ms: 0,
    }
}

/// A guest holding `seat`, first on `side`.
fn member(side: Side, name: &str, seat: &str) -> Member {
    Member {
        side,
        position: 0,
        name: name.into(),
        seat_hash: seat_hash(seat),
        account: None,
        bot: false,
    }
}

#[tokio::test]
async fn a_flag_falls_only_once_a_move_started_the_clocks() {
    let (addr, state) = serve_state().await;
    let seat = "red-seat";
    let long_ago = palabre_server::clock::now_ms() - 600_000;
    let row = |id: &str| timed_yote(id, long_ago);
    let summary = playing;
    let store = state.store();
    // Two games that began ten minutes ago: nobody has moved in `idle`;
    // in `moved`, red moved five minutes and a moment ago and black's
    // clock has run out since.
    let (idle, moved) = ("00000000f1a9".to_owned(), "00000000f1aa".to_owned());
    let first = palabre_server::clock::now_ms() - 300_050;
    for (id, ply, deadline) in [(&idle, 0, None), (&moved, 1, Some(first + 300_000))] {
        store
            .create(
                &row(id),
                Some(&member(Side::Red, "Awa", seat)),
                &summary(0, None),
            )
            .await
            .unwrap();
        store
            .join(
                id,
                None,
                &member(Side::Black, "Kofi", "black-seat"),
                None,
                &summary(0, None),
            )
            .await
            .unwrap();
        if ply == 1 {
            store
                .append_move(id, None, 0, "c3", Some(300_000), &summary(1, deadline))
                .await
                .unwrap();
            sqlx::query("UPDATE moves SET played_at_ms = ? WHERE game_id = ?")
                .bind(first)
                .bind(id)
                .execute(store.pool())
                .await
                .unwrap();
        }
    }
    // Nobody asks: the sweeper finds the fallen clock in the store.
    let mut ended = false;
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = ?")
            .bind(&moved)
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
        &format!("/api/games/{moved}/moves"),
        json!({"move": "d4", "ply": 1}),
        Some("black-seat"),
    )
    .await;
    assert_eq!(s["error"]["code"], "game_over");
    let v = state_of(&addr, &moved).await;
    assert_eq!(v["result"], json!({"winner": "red", "reason": "timeout"}));
    assert_eq!(v["clocks"]["black"], 0, "a fallen clock shows zero");
    // Loading the idle game does not end it: it can still be aborted.
    let v = state_of(&addr, &idle).await;
    assert_eq!(
        (&v["status"], &v["running"], &v["clocks"]["red"]),
        (&json!("playing"), &Value::Null, &json!(300_000))
    );
    let (status, v) = post(
        &addr,
        &format!("/api/games/{idle}/abort"),
        json!({}),
        Some(seat),
    )
    .await;
    assert_eq!((status, &v["result"]["reason"]), (200, &json!("aborted")));
}

/// A move that finds its mover's clock fallen is answered `game_over` only
/// once the end is stored; while storing it fails, the mover hears that.
#[tokio::test]
async fn a_flag_fall_that_could_not_be_stored_is_not_game_over() {
    let (addr, state) = serve_state().await;
    let store = state.store();
    let id = "00000000f1ab";
    let first = palabre_server::clock::now_ms() - 300_050;
    let (summary, row) = (playing, timed_yote(id, first - 1_000));
    let (red, black) = (
        member(Side::Red, "Awa", "red-seat"),
        member(Side::Black, "Kofi", "black-seat"),
    );
    let (waiting, moved) = (summary(0, None), summary(1, Some(first + 300_000)));
    store.create(&row, Some(&red), &waiting).await.unwrap();
    store.join(id, None, &black, None, &waiting).await.unwrap();
    let appended = store.append_move(id, None, 0, "c3", Some(300_000), &moved);
    appended.await.unwrap();
    let sql = [
        format!("UPDATE moves SET played_at_ms = {first} WHERE game_id = '{id}'"),
        "CREATE TRIGGER no_end BEFORE UPDATE ON games WHEN NEW.status = 'finished' \
         BEGIN SELECT RAISE(ABORT, 'injected'); END"
            .to_owned(),
    ];
    for sql in sql {
        sqlx::query(&sql).execute(store.pool()).await.unwrap();
    }
    let moves = format!("/api/games/{id}/moves");
    let body = json!({"move": "d4", "ply": 1});
    let (status, v) = post(&addr, &moves, body.clone(), Some("black-seat")).await;
    assert!(status >= 500, "{status}: {v}");
    sqlx::query("DROP TRIGGER no_end")
        .execute(store.pool())
        .await
        .unwrap();
    let (_, v) = post(&addr, &moves, body, Some("black-seat")).await;
    assert_eq!(v["error"]["code"], "game_over");
    let v = state_of(&addr, id).await;
    assert_eq!(v["result"], json!({"winner": "red", "reason": "timeout"}));
}

/// In a team game, a guest who asks for the rematch twice at once, then
/// again, keeps the one place the first request gave them: every answer is
/// the same seat, and their team's other place stays free.
#[tokio::test]
async fn a_guest_asking_twice_for_a_team_rematch_takes_one_place() {
    let addr = server().await;
    let body = json!({"game": "nsolo", "size": 8, "opponent": "online", "side": "south", "name": "S0", "team_size": 2});
    let (_, created) = post(&addr, "/api/games", body, None).await;
    let id = created["id"].as_str().unwrap().to_owned();
    let s0 = created["seat"].as_str().unwrap().to_owned();
    let mut n0 = String::new();
    for (name, side) in [("N0", "north"), ("S1", "south"), ("N1", "north")] {
        let join = json!({"name": name, "side": side});
        let (status, j) = post(&addr, &format!("/api/games/{id}/join"), join, None).await;
        assert_eq!(status, 201, "{j}");
        if name == "N0" {
            n0 = j["seat"].as_str().unwrap().to_owned();
        }
    }
    let (status, v) = post(
        &addr,
        &format!("/api/games/{id}/abort"),
        json!({}),
        Some(&s0),
    )
    .await;
    assert_eq!(status, 200, "{v}");

    let rematch = format!("/api/games/{id}/rematch");
    let ask = || post(&addr, &rematch, json!({}), Some(&s0));
    let (first, second) = tokio::join!(ask(), ask());
    let again = ask().await;
    let mut places = Vec::new();
    for (status, r) in [first, second, again] {
        assert_eq!(status, 201, "{r}");
        places.push((r["id"].clone(), r["seat"].clone()));
    }
    assert!(
        places.iter().all(|p| *p == places[0]),
        "one rematch, one seat: {places:?}"
    );
    let new_id = places[0].0.as_str().unwrap();
    let (status, r) = post(&addr, &rematch, json!({}), Some(&n0)).await;
    assert_eq!((status, r["id"].as_str()), (201, Some(new_id)), "{r}");
    assert_ne!(r["seat"], places[0].1, "another member, another seat");
    let fresh = state_of(&addr, new_id).await;
    let names = |side: &str| -> Vec<String> {
        fresh["teams"][side]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        (names("north"), names("south")),
        (vec!["S0".to_owned()], vec!["N0".to_owned()]),
        "sides swapped, one place each"
    );
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

/// Two people who both offer a draw have agreed to one: the second offer,
/// made while the first waits, ends the game (it used to replace the first
/// offer, and each side was left waiting for the other's answer).
#[tokio::test]
async fn offering_a_draw_while_the_other_side_offers_one_agrees_to_it() {
    let addr = server().await;
    let (id, red, black) = two_player_game(&addr).await;
    let draw = format!("/api/games/{id}/draw");
    let offer = json!({"action": "offer"});
    let (status, v) = post(&addr, &draw, offer.clone(), Some(&red)).await;
    assert_eq!(
        (status, v["draw_offer"].as_str()),
        (200, Some("red")),
        "{v}"
    );
    let (status, v) = post(&addr, &draw, offer.clone(), Some(&red)).await;
    assert_eq!(
        (status, v["draw_offer"].as_str(), v["status"].as_str()),
        (200, Some("red"), Some("playing")),
        "offering again is still one offer: {v}"
    );
    let (status, v) = post(&addr, &draw, offer, Some(&black)).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["status"].as_str(), &v["result"]),
        (
            Some("finished"),
            &json!({"winner": null, "reason": "agreement"})
        ),
        "{v}"
    );
}
