//! `POST /api/records`: games finished offline in a browser, stored as
//! records: listed, replayed and exported like the others; a record that
//! is not over, breaks a rule or says too much is refused and stores nothing.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use palabre_rules::{Record, yote};
use palabre_server::{AppState, Config, app};
use serde_json::{Value, json};
use tower::ServiceExt;

async fn router() -> Router {
    app(AppState::open(&Config::testing()).await.unwrap())
}

async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
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

/// A whole Yoté game: the first legal move each time, to its end.
fn finished_yote() -> Vec<String> {
    let mut record = Record::new(yote::Position::default());
    while record.outcome().is_none() {
        let m = record.position().legal_moves()[0];
        record.play(&m).unwrap();
    }
    record.moves().iter().map(ToString::to_string).collect()
}

#[tokio::test]
async fn a_finished_offline_game_is_stored_once_listed_and_replayed() {
    let app = router().await;
    let moves = finished_yote();
    let body = json!({"client_id": "Labc123", "game": "yote", "moves": moves,
        "opponent": "machine", "level": "expert", "human": "red"});
    let (status, v) = call(&app, "POST", "/api/records", Some(body.clone())).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_owned();
    assert_eq!(v["stored"], true);

    let (status, again) = call(&app, "POST", "/api/records", Some(body)).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "the same upload twice stores one game"
    );
    assert_eq!(again, json!({"id": id, "stored": false}));

    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(state["status"], "finished", "{state}");
    assert_eq!(state["moves"].as_array().unwrap().len(), moves.len());
    assert_eq!(state["level"], "expert");
    assert_eq!(state["players"]["red"], "human");
    let (_, records) = call(&app, "GET", "/api/records", None).await;
    let listed = records.to_string();
    assert!(listed.contains(&id), "{listed}");
    let (_, replay) = call(&app, "GET", &format!("/api/games/{id}/replay"), None).await;
    assert_eq!(replay["frames"].as_array().unwrap().len(), moves.len() + 1);
}

#[tokio::test]
async fn a_resignation_is_kept_as_the_end() {
    let app = router().await;
    let body = json!({"client_id": "Lresign", "game": "nsolo", "size": 8, "moves": [],
        "opponent": "local", "ended": {"winner": "north", "reason": "resignation"}});
    let (status, v) = call(&app, "POST", "/api/records", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (_, state) = call(
        &app,
        "GET",
        &format!("/api/games/{}", v["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(
        state["result"],
        json!({"winner": "north", "reason": "resignation"})
    );
}

#[tokio::test]
async fn a_record_that_is_not_over_or_breaks_a_rule_is_refused_and_stores_nothing() {
    let app = router().await;
    let moves = finished_yote();
    let cases = [
        json!({"client_id": "L1", "game": "yote", "moves": ["c3"], "opponent": "local"}),
        json!({"client_id": "L2", "game": "yote", "moves": ["c3", "c3"], "opponent": "local"}),
        json!({"client_id": "L3", "game": "yote", "moves": ["zz"], "opponent": "local"}),
        json!({"client_id": "L4", "game": "chess", "moves": [], "opponent": "local"}),
        json!({"client_id": "L5", "game": "yote", "moves": [], "opponent": "online",
            "ended": {"winner": null, "reason": "agreement"}}),
        json!({"client_id": "L6", "game": "yote", "moves": [], "opponent": "local",
            "ended": {"winner": "red", "reason": "timeout"}}),
        json!({"client_id": "L7", "game": "yote", "moves": moves.clone(), "opponent": "local",
            "ended": {"winner": null, "reason": "agreement"}}),
        json!({"client_id": "", "game": "yote", "moves": moves.clone(), "opponent": "local"}),
        json!({"client_id": "L9", "game": "yote", "moves": moves.clone(), "opponent": "machine",
            "level": "expert", "human": "south"}),
        json!({"client_id": "L10", "game": "yote", "moves": [], "opponent": "local", "seat": "x"}),
    ];
    for body in cases {
        let (status, v) = call(&app, "POST", "/api/records", Some(body.clone())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body} → {v}");
        assert_eq!(v["error"]["code"], "bad_request");
    }
    let (_, records) = call(&app, "GET", "/api/records", None).await;
    assert_eq!(
        records.as_array().map_or(0, Vec::len),
        0,
        "nothing stored: {records}"
    );
}

#[tokio::test]
async fn two_uploads_of_one_game_racing_store_it_once() {
    let app = router().await;
    let body = json!({"client_id": "Lrace", "game": "yote", "moves": finished_yote(),
        "opponent": "local"});
    let (a, b) = tokio::join!(
        call(&app, "POST", "/api/records", Some(body.clone())),
        call(&app, "POST", "/api/records", Some(body)),
    );
    let mut statuses = [a.0, b.0];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::CREATED],
        "{a:?} {b:?}"
    );
    assert_eq!(a.1["id"], b.1["id"]);
    let (_, records) = call(&app, "GET", "/api/records", None).await;
    assert_eq!(records.as_array().map_or(0, Vec::len), 1, "{records}");
}
