//! The API, called on the router directly.

mod common;

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use palabre_server::{AppState, Config, app};
use serde_json::{Value, json};
use tower::ServiceExt;

async fn state_with(db: Option<String>) -> AppState {
    let config = Config {
        db,
        ..Config::testing()
    };
    AppState::open(&config).await.unwrap()
}

async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    seat: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(seat) = seat {
        req = req.header(header::AUTHORIZATION, format!("Bearer {seat}"));
    }
    let body = match body {
        Some(v) => {
            req = req.header(header::CONTENT_TYPE, "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let res = app.clone().oneshot(req.body(body).unwrap()).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

async fn create(app: &Router, body: Value) -> (String, String, Value) {
    let (status, v) = call(app, "POST", "/api/games", None, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    (
        v["id"].as_str().unwrap().to_owned(),
        v["seat"].as_str().unwrap().to_owned(),
        v,
    )
}

/// Polls the game until `done` holds (the machine answers on its own).
async fn wait_for(app: &Router, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..400 {
        let (_, v) = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
        if done(&v) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the game never reached the expected state");
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

#[tokio::test]
async fn creating_a_game_gives_a_secret_seat_and_the_state() {
    let app = app(state_with(None).await);
    let (id, seat, v) = create(
        &app,
        json!({"game": "yote", "opponent": "machine", "side": "red"}),
    )
    .await;
    assert_eq!(seat.len(), 32);
    assert!(seat.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(v["side"], "red");
    let s = &v["state"];
    assert_eq!(
        (s["fen"].as_str(), s["turn"].as_str(), s["ply"].as_u64()),
        (Some("5/5/5/5/5 12 12 r 0"), Some("red"), Some(0))
    );
    assert_eq!(s["legal"].as_array().unwrap().len(), 25);
    let (status, got) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        !got.to_string().contains(&seat),
        "the seat is never shown again"
    );
    let (_, n) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "nsolo", "size": 36, "opponent": "local"})),
    )
    .await;
    let legal = n["state"]["legal"].as_array().unwrap();
    assert!(
        legal.len() <= 72
            && legal
                .iter()
                .all(|o| o["pit"].is_string() && o["bonus"].is_u64())
    );
    assert_eq!(
        n["state"]["nsolo"]["rows"]["A"].as_array().unwrap().len(),
        36
    );
}

#[tokio::test]
async fn bad_creations_are_refused() {
    let app = app(state_with(None).await);
    for body in [
        json!({"game": "chess"}),
        json!({"game": "nsolo", "size": 40}),
        json!({"game": "yote", "level": "grandmaster"}),
        json!({"game": "yote", "side": "north"}),
        json!({"game": "yote", "opponent": "cat"}),
        json!({"game": "yote", "extra": 1}),
    ] {
        let (status, v) = call(&app, "POST", "/api/games", None, Some(body.clone())).await;
        assert_eq!(
            (status, code(&v)),
            (StatusCode::BAD_REQUEST, "bad_request"),
            "{body}"
        );
    }
    let (status, v) = call(&app, "GET", "/api/games/nope", None, None).await;
    assert_eq!((status, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
}

/// Found by schemathesis (`crates/cli/tests/schemathesis.rs`): a query
/// or a path axum's extractors refuse was answered in plain text, not in
/// the API's error format.
#[tokio::test]
async fn malformed_queries_and_paths_are_refused_in_the_error_format() {
    let app = app(state_with(None).await);
    let (_, seat, v) = create(&app, json!({"game": "yote", "opponent": "local"})).await;
    let id = v["id"].as_str().unwrap();
    for uri in [
        format!("/api/games/{id}/hint?level=confirme&level=expert"),
        "/api/games/%FF".to_owned(),
        "/api/games/%FF/replay".to_owned(),
        "/api/users/%C3%28".to_owned(),
        "/api/leaderboard/%FF".to_owned(),
    ] {
        let (status, v) = call(&app, "GET", &uri, Some(&seat), None).await;
        assert_eq!(
            (status, code(&v)),
            (StatusCode::BAD_REQUEST, "bad_request"),
            "{uri}: {v}"
        );
        assert!(
            v["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
    }
    let (status, v) = call(&app, "POST", "/api/bot/game/%FF/move/c3", None, None).await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::BAD_REQUEST, "bad_request"),
        "{v}"
    );
}

#[tokio::test]
async fn refused_moves_change_nothing() {
    let app = app(state_with(None).await);
    let (id, seat, _) = create(&app, json!({"game": "yote", "opponent": "local"})).await;
    let uri = format!("/api/games/{id}/moves");
    let cases = [
        (
            None,
            json!({"move": "c3", "ply": 0}),
            StatusCode::UNAUTHORIZED,
            "missing_seat",
        ),
        (
            Some("0123456789abcdef0123456789abcdef"),
            json!({"move": "c3", "ply": 0}),
            StatusCode::FORBIDDEN,
            "wrong_seat",
        ),
        (
            Some(seat.as_str()),
            json!({"move": "c3", "ply": 5}),
            StatusCode::CONFLICT,
            "stale_ply",
        ),
        (
            Some(seat.as_str()),
            json!({"move": "z9", "ply": 0}),
            StatusCode::BAD_REQUEST,
            "malformed_move",
        ),
        (
            Some(seat.as_str()),
            json!({"move": "c3-c4", "ply": 0}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (
            Some(seat.as_str()),
            json!({"mv": "c3"}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ];
    for (seat, body, status, expected) in cases {
        let (got, v) = call(&app, "POST", &uri, seat, Some(body.clone())).await;
        assert_eq!((got, code(&v)), (status, expected), "{body}");
    }
    let huge = json!({"move": "c".repeat(40_000), "ply": 0});
    let (status, v) = call(&app, "POST", &uri, Some(&seat), Some(huge)).await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::PAYLOAD_TOO_LARGE, "too_large")
    );
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(
        (v["ply"].as_u64(), v["fen"].as_str()),
        (Some(0), Some("5/5/5/5/5 12 12 r 0"))
    );
    let (status, v) = call(
        &app,
        "POST",
        &uri,
        Some(&seat),
        Some(json!({"move": "c3", "ply": 0})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(
        (v["ply"].as_u64(), v["turn"].as_str()),
        (Some(1), Some("black"))
    );
    assert_eq!(v["last"]["animation"]["kind"], "place");
    let again = json!({"move": "c3", "ply": 0});
    let (status, v) = call(&app, "POST", &uri, Some(&seat), Some(again)).await;
    assert_eq!(
        (status, v["ply"].as_u64()),
        (StatusCode::OK, Some(1)),
        "a repeated request is answered, not replayed"
    );
    let other = json!({"move": "d3", "ply": 0});
    let (status, v) = call(&app, "POST", &uri, Some(&seat), Some(other)).await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::CONFLICT, "stale_ply"),
        "another move at an old ply is stale"
    );
}

/// A ply at the very top of its range is only a stale ply: it must not
/// bring down the game's owner (an overflow there left the game unanswered).
#[tokio::test]
async fn the_largest_ply_is_stale_and_the_game_lives_on() {
    let app = app(state_with(None).await);
    let (id, seat, _) = create(&app, json!({"game": "yote", "opponent": "local"})).await;
    let uri = format!("/api/games/{id}/moves");
    let first = json!({"move": "c3", "ply": 0});
    let (status, _) = call(&app, "POST", &uri, Some(&seat), Some(first)).await;
    assert_eq!(status, StatusCode::CREATED);
    let top = json!({"move": "c4", "ply": u64::MAX});
    let (status, v) = call(&app, "POST", &uri, Some(&seat), Some(top)).await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::CONFLICT, "stale_ply"),
        "{v}"
    );
    let next = json!({"move": "c4", "ply": 1});
    let (status, v) = call(&app, "POST", &uri, Some(&seat), Some(next)).await;
    assert_eq!(
        (status, v["ply"].as_u64()),
        (StatusCode::CREATED, Some(2)),
        "{v}"
    );
}

#[tokio::test]
async fn the_machine_answers_by_itself() {
    let app = app(state_with(None).await);
    let (id, seat, _) = create(
        &app,
        json!({"game": "yote", "side": "red", "level": "debutant"}),
    )
    .await;
    let uri = format!("/api/games/{id}/moves");
    let (status, v) = call(
        &app,
        "POST",
        &uri,
        Some(&seat),
        Some(json!({"move": "c3", "ply": 0})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(
        v["legal"].as_array().unwrap().len(),
        0,
        "no legal moves while the machine is to move"
    );
    let (status, v) = call(
        &app,
        "POST",
        &uri,
        Some(&seat),
        Some(json!({"move": "c4", "ply": 1})),
    )
    .await;
    // Débutant may already have answered, and then ply 1 is gone: either
    // way the human's move is refused and the game keeps the machine's.
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(
        ["not_your_turn", "stale_ply"].contains(&code(&v)),
        "refused as {v}"
    );
    let v = wait_for(&app, &id, |v| v["ply"] == 2).await;
    assert_eq!(
        (v["turn"].as_str(), v["thinking"].as_bool()),
        (Some("red"), Some(false))
    );
    assert_eq!(v["last"]["by"], "black");
    // The machine moves first when the human plays second.
    let (id, _, _) = create(&app, json!({"game": "nsolo", "side": "north"})).await;
    let v = wait_for(&app, &id, |v| v["ply"] == 1).await;
    assert!(v["last"]["animation"]["steps"].as_array().unwrap().len() >= 3);
}

#[tokio::test]
async fn take_back_returns_to_the_humans_turn() {
    let app = app(state_with(None).await);
    let (id, seat, _) = create(&app, json!({"game": "yote", "side": "black"})).await;
    wait_for(&app, &id, |v| v["ply"] == 1).await;
    let takeback = format!("/api/games/{id}/takeback");
    let (status, v) = call(&app, "POST", &takeback, Some(&seat), Some(json!({}))).await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::CONFLICT, "nothing_to_take_back")
    );
    let legal = call(&app, "GET", &format!("/api/games/{id}"), None, None)
        .await
        .1["legal"][0]["move"]
        .clone();
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&seat),
        Some(json!({"move": legal, "ply": 1})),
    )
    .await;
    wait_for(&app, &id, |v| v["ply"] == 3).await;
    let (status, v) = call(&app, "POST", &takeback, Some(&seat), Some(json!({}))).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (v["ply"].as_u64(), v["turn"].as_str()),
        (Some(1), Some("black"))
    );
}

#[tokio::test]
async fn draws_and_resignation_on_one_screen() {
    let app = app(state_with(None).await);
    let (id, seat, _) = create(&app, json!({"game": "nsolo", "opponent": "local"})).await;
    let draw = format!("/api/games/{id}/draw");
    let (status, v) = call(
        &app,
        "POST",
        &draw,
        Some(&seat),
        Some(json!({"action": "accept"})),
    )
    .await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "no_draw_offer"));
    let (_, v) = call(
        &app,
        "POST",
        &draw,
        Some(&seat),
        Some(json!({"action": "offer"})),
    )
    .await;
    assert_eq!(v["draw_offer"], "south");
    let (_, v) = call(
        &app,
        "POST",
        &draw,
        Some(&seat),
        Some(json!({"action": "decline"})),
    )
    .await;
    assert_eq!(
        (v["draw_offer"].is_null(), v["draw_declined"].as_bool()),
        (true, Some(true))
    );
    call(
        &app,
        "POST",
        &draw,
        Some(&seat),
        Some(json!({"action": "offer"})),
    )
    .await;
    let (_, v) = call(
        &app,
        "POST",
        &draw,
        Some(&seat),
        Some(json!({"action": "accept"})),
    )
    .await;
    assert_eq!(v["result"], json!({"winner": null, "reason": "agreement"}));
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&seat),
        Some(json!({"move": "A2", "ply": 0})),
    )
    .await;
    assert_eq!((status, code(&v)), (StatusCode::CONFLICT, "game_over"));

    let (id, seat, _) = create(&app, json!({"game": "yote", "side": "red"})).await;
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&seat),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        v["result"],
        json!({"winner": "black", "reason": "resignation"})
    );
}

#[tokio::test]
async fn the_machine_declines_a_draw_when_ahead_and_gives_hints() {
    let app = app(state_with(None).await);
    let (id, seat, _) = create(&app, json!({"game": "yote", "side": "red"})).await;
    let (status, v) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/hint"),
        Some(&seat),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let hint = v["move"].as_str().unwrap().to_owned();
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&seat),
        Some(json!({"move": hint, "ply": 0})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, v) = call(&app, "GET", &format!("/api/games/{id}/hint"), None, None).await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::UNAUTHORIZED, "missing_seat")
    );
}

#[tokio::test]
async fn the_machine_declines_a_draw_offered_at_move_zero() {
    let app = app(state_with(None).await);
    for side in ["red", "black"] {
        let (id, seat, _) = create(&app, json!({"game": "yote", "side": side})).await;
        let (status, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/draw"),
            Some(&seat),
            Some(json!({"action": "offer"})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["draw_declined"], true, "{v}");
        assert!(v["result"].is_null(), "a new game goes on: {v}");
    }
}

#[tokio::test]
async fn games_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db").to_string_lossy().into_owned();
    let (id, seat) = {
        let app = app(state_with(Some(db.clone())).await);
        let (id, seat, _) = create(&app, json!({"game": "yote", "opponent": "local"})).await;
        for (ply, m) in ["c3", "c4", "d3"].iter().enumerate() {
            let (status, _) = call(
                &app,
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&seat),
                Some(json!({"move": m, "ply": ply})),
            )
            .await;
            assert_eq!(status, StatusCode::CREATED);
        }
        (id, seat)
    };
    let app = app(state_with(Some(db)).await);
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(v["moves"], json!(["c3", "c4", "d3"]));
    assert_eq!(v["fen"], "5/2b2/2rr1/5/5 10 11 b 3");
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&seat),
        Some(json!({"move": "c4xc2/r", "ply": 3})),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "the seat still works after a restart"
    );
}

#[tokio::test]
async fn responses_carry_security_headers() {
    let app = app(state_with(None).await);
    let (id, _, _) = create(&app, json!({"game": "yote", "opponent": "local"})).await;
    let req = Request::get(format!("/api/games/{id}"))
        .body(Body::empty())
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.headers()[header::CONTENT_TYPE], "application/json");
    assert!(
        res.headers()[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap()
            .contains("default-src 'self'")
    );
    assert_eq!(res.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    let body = res.into_body().collect().await.unwrap().to_bytes();
    let v: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(v["id"], id.as_str());
}

/// The status and the body, as text, of a GET.
async fn page(app: &Router, uri: &str) -> (StatusCode, String) {
    let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

#[tokio::test]
async fn unknown_pages_and_games_get_the_not_found_page() {
    let app = app(state_with(None).await);
    for uri in [
        "/nulle-part",
        "/partie/000000000000",
        "/parties/nope",
        "/partie/abc/rejoindre",
    ] {
        let (status, body) = page(&app, uri).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert!(body.contains("Page introuvable"), "{uri}: {body}");
        assert!(body.contains(r#"href="/""#), "a way home from {uri}");
    }
    let (status, v) = call(&app, "GET", "/api/nulle-part", None, None).await;
    assert_eq!((status, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
    let (id, _, _) = create(&app, json!({"game": "yote", "opponent": "local"})).await;
    let (status, body) = page(&app, &format!("/partie/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!body.contains("Page introuvable"));
}

#[tokio::test]
async fn the_state_says_why_a_place_starts_no_move() {
    let app = app(state_with(None).await);
    let (id, seat, created) = create(&app, json!({"game": "yote", "opponent": "local"})).await;
    assert_eq!(
        created["state"]["refusals"],
        json!({}),
        "every hole takes a ball"
    );
    let moves = format!("/api/games/{id}/moves");
    for (ply, m) in ["c3", "d4"].iter().enumerate() {
        let (status, v) = call(
            &app,
            "POST",
            &moves,
            Some(&seat),
            Some(json!({"move": m, "ply": ply})),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
    }
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(
        v["refusals"],
        json!({"c3": "reserve_first"}),
        "red's ball cannot capture, and red still has balls to place"
    );
    let (_, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&seat),
        Some(json!({"side": "red"})),
    )
    .await;
    assert_eq!(
        v["refusals"],
        json!({}),
        "nothing is refused once the game is over"
    );

    let (_, _, created) = create(&app, json!({"game": "nsolo", "opponent": "local"})).await;
    assert_eq!(created["state"]["refusals"], json!({"B8": "empty"}));
}

async fn import(app: &Router, text: &str) -> (StatusCode, Value) {
    let req = Request::builder()
        .method("POST")
        .uri("/api/import")
        .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
        .body(Body::from(text.to_owned()))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn an_import_names_the_move_it_refuses_and_why() {
    let app = app(state_with(None).await);
    let start = "[Game \"yote\"]\n[Start \"5/5/5/5/2r2 0 12 r 0\"]\n\n";
    let (status, v) = import(
        &app,
        &format!("{start}1. c1-c2 a1\n2. c2-c3 b1\n3. c3-e3\n"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(code(&v), "illegal_move");
    assert_eq!(v["error"]["message"], "ply 4: c3-e3: e3 is not next to c3");
    assert_eq!(
        v["error"]["details"],
        json!({"ply": 4, "turn": 3, "side": "red", "move": "c3-e3", "kind": "not_adjacent",
               "args": {"from": "c3", "to": "e3"}})
    );
    let (status, v) = import(&app, &format!("{start}1. c1-c2 zz\n")).await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::BAD_REQUEST, "malformed_move")
    );
    assert_eq!(
        v["error"]["details"],
        json!({"ply": 1, "turn": 1, "side": "black", "move": "zz", "kind": "malformed", "args": {}})
    );
    let (_, v) = import(&app, "[Game \"yote\"]\n\n1. c3 c3\n").await;
    assert_eq!(
        (
            &v["error"]["details"]["kind"],
            &v["error"]["details"]["args"]
        ),
        (&json!("occupied"), &json!({"hole": "c3"}))
    );
    for (record, kind, args) in [
        (
            "[Game \"chess\"]\n",
            "unknown_game",
            json!({"game": "chess"}),
        ),
        (
            "[Game \"yote\"]\n[Size \"8\"]\n",
            "size_mismatch",
            json!({"size": "8", "start": "5"}),
        ),
        (
            "[Game \"nsolo\"]\n[Size \"40\"]\n",
            "bad_size",
            json!({"size": "40"}),
        ),
        (
            "[Game \"yote\"]\n[Start \"6/5 12 12 r 0\"]\n",
            "bad_start",
            json!({"start": "6/5 12 12 r 0"}),
        ),
        ("1. c3\n", "missing_game", json!({})),
    ] {
        let (status, v) = import(&app, record).await;
        assert_eq!(
            (status, code(&v)),
            (StatusCode::BAD_REQUEST, "bad_request"),
            "{v}"
        );
        assert_eq!(
            v["error"]["details"],
            json!({"kind": kind, "args": args}),
            "{record}"
        );
    }
}

/// Polls `done` until it holds.
async fn wait_until(done: impl Fn() -> bool) {
    for _ in 0..400 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("never happened");
}

#[tokio::test]
async fn expert_thinks_on_the_person_s_time_until_the_game_ends() {
    let mut config = Config::testing();
    config.thinker.ponder = Duration::from_secs(60);
    config.params.expert_budget_ms = 50;
    let state = AppState::open(&config).await.unwrap();
    let thinker = std::sync::Arc::clone(state.games.thinker());
    let app = app(state);
    let play = |id: &str, seat: &str, v: &Value, ply: u64| {
        let m = v["legal"][0]["move"].as_str().unwrap().to_owned();
        let (app, uri, seat) = (
            app.clone(),
            format!("/api/games/{id}/moves"),
            seat.to_owned(),
        );
        async move {
            let body = json!({"move": m, "ply": ply});
            let (status, v) = call(&app, "POST", &uri, Some(&seat), Some(body)).await;
            assert_eq!(status, StatusCode::CREATED, "{v}");
        }
    };

    // The machine places first, then thinks while the person does.
    let (id, seat, _) = create(
        &app,
        json!({"game": "yote", "side": "black", "level": "expert"}),
    )
    .await;
    let v = wait_for(&app, &id, |v| v["ply"] == 1).await;
    wait_until(|| thinker.pondering() == 1).await;
    // The person's move ends that ponder (the machine's search takes the
    // thread, the only deep one), and the next starts after the answer.
    play(&id, &seat, &v, 1).await;
    let v = wait_for(&app, &id, |v| v["ply"] == 3).await;
    assert_eq!(v["last"]["by"], "red");
    wait_until(|| thinker.pondering() == 1).await;
    let (_, status) = call(&app, "GET", "/api/status", None, None).await;
    assert_eq!(status["pondering"], 1, "{status}");
    let resign = format!("/api/games/{id}/resign");
    let (status, _) = call(&app, "POST", &resign, Some(&seat), None).await;
    assert_eq!(status, StatusCode::OK);
    wait_until(|| thinker.pondering() == 0).await;

    // Below Expert the machine never ponders: by the time the person's
    // move is accepted, its owner has long handled the machine's.
    let (id, seat, _) = create(
        &app,
        json!({"game": "yote", "side": "black", "level": "confirme"}),
    )
    .await;
    let v = wait_for(&app, &id, |v| v["ply"] == 1).await;
    play(&id, &seat, &v, 1).await;
    assert_eq!(thinker.pondering(), 0);
}

/// A trigger that fails the insert of the move at `ply` after the row is
/// written: in SQLite's autocommit, `RAISE(FAIL)` keeps the row, as a
/// connection lost during COMMIT may on PostgreSQL. The write is an error
/// to the owner although the move is stored.
fn stored_but_failed(ply: usize) -> String {
    format!(
        "CREATE TRIGGER ambiguous AFTER INSERT ON moves WHEN NEW.ply = {ply} \
         BEGIN SELECT RAISE(FAIL, 'injected after the write'); END"
    )
}

#[tokio::test]
async fn a_move_stored_despite_an_error_is_a_duplicate_when_sent_again() {
    let state = state_with(None).await;
    let app = app(state.clone());
    let (id, seat, _) = create(&app, json!({"game": "yote", "opponent": "local"})).await;
    let uri = format!("/api/games/{id}/moves");
    common::exec(&state, &stored_but_failed(0)).await;
    let first = json!({"move": "c3", "ply": 0});
    let (status, v) = call(&app, "POST", &uri, Some(&seat), Some(first.clone())).await;
    assert!(status.is_server_error(), "{status}: {v}");
    common::exec(&state, "DROP TRIGGER ambiguous").await;

    // The database holds the move: the retry is the duplicate it is.
    let (status, v) = call(&app, "POST", &uri, Some(&seat), Some(first)).await;
    assert!(status.is_success(), "{status}: {v}");
    assert_eq!((v["ply"].as_u64(), &v["moves"]), (Some(1), &json!(["c3"])));
    let (status, v) = call(
        &app,
        "POST",
        &uri,
        Some(&seat),
        Some(json!({"move": "c4", "ply": 1})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["moves"], json!(["c3", "c4"]));
}

#[tokio::test]
async fn a_machine_move_stored_despite_an_error_is_not_searched_again() {
    let state = state_with(None).await;
    let app = app(state.clone());
    let (id, seat, _) = create(
        &app,
        json!({"game": "yote", "side": "red", "level": "debutant"}),
    )
    .await;
    common::exec(&state, &stored_but_failed(1)).await;
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&seat),
        Some(json!({"move": "c3", "ply": 0})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    // The machine's move at ply 1 is stored but its write failed.
    for _ in 0..400 {
        let (stored,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM moves WHERE game_id = $1")
            .bind(&id)
            .fetch_one(state.store().pool())
            .await
            .unwrap();
        if stored == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    common::exec(&state, "DROP TRIGGER ambiguous").await;
    // The game goes on from what the database holds, not from a memory
    // that retries the stored move forever.
    let v = wait_for(&app, &id, |v| v["ply"] == 2).await;
    assert_eq!(
        (v["turn"].as_str(), v["thinking"].as_bool()),
        (Some("red"), Some(false))
    );
    let legal = v["legal"][0]["move"].clone();
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&seat),
        Some(json!({"move": legal, "ply": 2})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
}
