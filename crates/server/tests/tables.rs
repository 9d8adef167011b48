//! `POST /api/tables/yote`: the server's endgame tables looked up for the
//! replay page, on a server with small tables and on one without.

mod common;

use axum::http::StatusCode;
use palabre_ai::tables::{self, Tables};
use palabre_server::{AppState, Config, app};
use serde_json::{Value, json};

use common::{Client, code};

/// An app whose server has the tables up to 4 balls; the directory too.
async fn app_with_tables() -> (axum::Router, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    tables::build(dir.path(), 4, |_, _| {}).unwrap();
    let config = Config {
        tables: Some(dir.path().to_path_buf()),
        ..Config::testing()
    };
    (app(AppState::open(&config).await.unwrap()), dir)
}

#[tokio::test]
async fn each_position_gets_the_tables_answer_or_null() {
    let (app, dir) = app_with_tables().await;
    let direct = Tables::open(dir.path()).unwrap();
    let won = "5/5/1r3/1r1b1/1r3 0 0 r 0";
    let drawn_or_lost = "5/5/1r3/1r1b1/1r3 0 0 b 0";
    let reserve = "5/5/2r2/2b2/5 0 1 r 0";
    let crowded = "5/5/rrbb1/5/5 0 0 r 0";
    let mut client = Client::new(&app);
    let (status, body) = client
        .post(
            "/api/tables/yote",
            Some(json!({"positions": [won, reserve, drawn_or_lost, crowded]})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let answers = body["positions"].as_array().unwrap();
    assert_eq!(answers.len(), 4, "{body}");
    assert_eq!(answers[1], Value::Null, "a reserve is not empty");
    for (i, fen) in [(0, won), (2, drawn_or_lost), (3, crowded)] {
        let position = fen.parse().unwrap();
        let probe = direct.probe(&position).unwrap();
        let best = direct
            .best_move(&position)
            .unwrap()
            .map(|c| c.mv.to_string());
        assert_eq!(answers[i]["result"], probe.wdl.to_string(), "{fen}: {body}");
        assert_eq!(answers[i]["dtc"], json!(probe.distance()), "{fen}: {body}");
        assert_eq!(answers[i]["best"], json!(best), "{fen}: {body}");
    }
    assert_eq!(answers[0]["result"], "win", "three balls against one");
}

#[tokio::test]
async fn bad_requests_are_refused_whole() {
    let (app, _dir) = app_with_tables().await;
    let mut client = Client::new(&app);
    let good = "5/5/1r3/1r1b1/1r3 0 0 r 0";
    let (status, body) = client
        .post(
            "/api/tables/yote",
            Some(json!({"positions": [good, "5/5/5/5 0 0 r 0"]})),
        )
        .await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::BAD_REQUEST, "bad_request")
    );
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("position 1"),
        "{body}"
    );
    let many = vec![good; palabre_server::endgame_tables::MAX_POSITIONS + 1];
    let (status, body) = client
        .post("/api/tables/yote", Some(json!({"positions": many})))
        .await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::BAD_REQUEST, "bad_request"),
        "{body}"
    );
    let (status, body) = client
        .post(
            "/api/tables/yote",
            Some(json!({"positions": [good], "more": 1})),
        )
        .await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::BAD_REQUEST, "bad_request"),
        "{body}"
    );
}

#[tokio::test]
async fn a_server_without_tables_says_so() {
    let app = common::new_app(palabre_server::Limits::unlimited()).await;
    assert_no_tables(&app).await;
}

/// Asserts that `app`'s lookups answer that its server has no tables.
async fn assert_no_tables(app: &axum::Router) {
    let (status, body) = Client::new(app)
        .post(
            "/api/tables/yote",
            Some(json!({"positions": ["5/5/1r3/1r1b1/1r3 0 0 r 0"]})),
        )
        .await;
    assert_eq!(
        (status, code(&body)),
        (StatusCode::NOT_FOUND, "no_tables"),
        "{body}"
    );
}

/// A server started where its tables' directory holds none builds them
/// there, and its lookups answer once they are built.
#[tokio::test]
async fn a_server_builds_the_tables_it_lacks_and_then_answers_from_them() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("tables");
    let config = Config {
        tables: Some(dir.clone()),
        build_tables: 4,
        ..Config::testing()
    };
    let app = app(AppState::open(&config).await.unwrap());
    let mut client = Client::new(&app);
    let won = "5/5/1r3/1r1b1/1r3 0 0 r 0";
    let started = std::time::Instant::now();
    let body = loop {
        let (status, body) = client
            .post("/api/tables/yote", Some(json!({"positions": [won]})))
            .await;
        if status == StatusCode::OK {
            break body;
        }
        assert_eq!(code(&body), "no_tables", "{body}");
        assert!(
            started.elapsed().as_secs() < 120,
            "no tables after two minutes"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(body["positions"][0]["result"], "win", "{body}");
    let built = Tables::open(&dir).unwrap();
    assert_eq!(built.materials().len(), 6, "every material to 4 balls");
    let left: Vec<_> = std::fs::read_dir(parent.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["tables"], "the staging directory is gone");
}

/// A tables' directory that is missing leaves the server without tables
/// when it is not to build them; it still starts.
#[tokio::test]
async fn a_missing_tables_directory_is_no_tables_without_a_build() {
    let parent = tempfile::tempdir().unwrap();
    let config = Config {
        tables: Some(parent.path().join("none here")),
        build_tables: 0,
        ..Config::testing()
    };
    let app = app(AppState::open(&config).await.unwrap());
    assert_no_tables(&app).await;
}
