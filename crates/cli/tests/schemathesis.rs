//! Schemathesis, a schema-driven fuzzer (from PyPI), against a running
//! `palabre serve`, with the OpenAPI document the server serves
//! (`/api/openapi.json`). It must find no 5xx and no answer that breaks
//! the document: its status, its content type, its headers, its body.
//!
//! Before the run, the test makes what the fuzzer cannot guess: a game on
//! one screen and its seat (for `/api/games/{id}/…`), two accounts with
//! personal tokens, the first a bot with a game against the second and a
//! challenge from it (for the account, challenge and Bot API routes), and
//! two games waiting in the lobby. A configuration file in a scratch
//! directory gives these to the operations that take them; the rest are
//! fuzzed as they come.
//!
//! Without schemathesis the test says so and passes, except in CI
//! (`CI=true`), where it fails: `.ci/run` installs it (`pip install
//! schemathesis==…`). `PALABRE_SCHEMATHESIS` names another command,
//! `PALABRE_SCHEMATHESIS_EXAMPLES` sets the examples per operation.
//! docs/openapi.md tells how to run it by hand.

mod support;

use std::process::Command;
use std::time::Instant;

use serde_json::{Value, json};
use support::Server;

/// Every limit that would answer the fuzzer 429 instead of running the code.
const UNLIMITED: &[(&str, &str)] = &[
    ("PALABRE_CREATES_PER_MINUTE", "0"),
    ("PALABRE_JOINS_PER_MINUTE", "0"),
    ("PALABRE_HINTS_PER_MINUTE", "0"),
    ("PALABRE_IMPORTS_PER_MINUTE", "0"),
    ("PALABRE_SIGNUPS_PER_MINUTE", "0"),
    ("PALABRE_LOGINS_PER_MINUTE", "0"),
    ("PALABRE_LOGINS_PER_NAME_PER_MINUTE", "0"),
    ("PALABRE_SOCKET_RATE", "0"),
];

/// What schemathesis checks: no server error, and answers that conform to
/// the document.
const CHECKS: &str = "not_a_server_error,status_code_conformance,content_type_conformance,\
                      response_headers_conformance,response_schema_conformance";

/// Fixed, so that a failure can be replayed.
const SEED: &str = "20261201";

/// Test cases per operation and phase: under a minute on two cores.
const EXAMPLES: &str = "100";

fn command() -> String {
    std::env::var("PALABRE_SCHEMATHESIS").unwrap_or_else(|_| "schemathesis".to_owned())
}

/// Whether schemathesis runs here; in CI it must.
fn available(cmd: &str) -> bool {
    let found = Command::new(cmd)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "schemathesis is required in CI (pip install schemathesis)"
        );
        eprintln!("skipping: no `{cmd}` (pip install schemathesis, or set PALABRE_SCHEMATHESIS)");
    }
    found
}

/// A request with a bearer secret or a cookie; its status and JSON.
async fn call(
    server: &Server,
    method: &str,
    path: &str,
    auth: (&str, &str),
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = match method {
        "GET" => server.http.get(server.url(path)),
        _ => server.http.post(server.url(path)),
    };
    req = match auth {
        ("cookie", cookie) => req.header("cookie", cookie),
        ("bearer", secret) => req.bearer_auth(secret),
        _ => req,
    };
    if let Some(body) = body {
        req = req.json(&body);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// Signs `name` up; a personal token with the `bot:play` scope.
async fn account(server: &Server, name: &str) -> String {
    let res = server
        .http
        .post(server.url("/api/account/signup"))
        .json(&json!({"username": name, "password": "correct horse battery"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 201);
    let cookie = res.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let body = json!({"description": "schemathesis", "scopes": ["bot:play"]});
    let (status, v) = call(
        server,
        "POST",
        "/api/account/tokens",
        ("cookie", &cookie),
        Some(body),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    v["token"].as_str().unwrap().to_owned()
}

/// A challenge from `from` to `to`; its id.
async fn challenge(server: &Server, from: &str, to: &str) -> String {
    let body = json!({"game": "yote", "side": "red"});
    let path = format!("/api/challenge/{to}");
    let (status, v) = call(server, "POST", &path, ("bearer", from), Some(body)).await;
    assert_eq!(status, 201, "{v}");
    v["id"].as_str().unwrap().to_owned()
}

/// The data the fuzzer is given, as a schemathesis configuration.
struct Fixtures {
    game: String,
    seat: String,
    bot_token: String,
    bot_game: String,
    challenge: String,
}

async fn fixtures(server: &Server) -> Fixtures {
    let (game, seat, _) = server
        .create(json!({"game": "yote", "opponent": "local"}))
        .await;
    let bot_token = account(server, "fuzzbot").await;
    let rival = account(server, "rival").await;
    let (status, v) = call(
        server,
        "POST",
        "/api/bot/account/upgrade",
        ("bearer", &bot_token),
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    // A game the bot plays, and a challenge waiting for its answer.
    let first = challenge(server, &rival, "fuzzbot").await;
    let path = format!("/api/challenge/{first}/accept");
    let (status, v) = call(server, "POST", &path, ("bearer", &bot_token), None).await;
    assert_eq!(status, 200, "{v}");
    let bot_game = v["game_id"].as_str().unwrap().to_owned();
    let challenge = challenge(server, &rival, "fuzzbot").await;
    // The lobby lists a rated seek (with its creator's rating and range)
    // and a guest's game.
    let seek = json!({"game": "yote", "opponent": "online", "rated": true,
                      "rating_min": 1000, "rating_max": 2000});
    let (status, v) = call(server, "POST", "/api/games", ("bearer", &rival), Some(seek)).await;
    assert_eq!(status, 201, "{v}");
    let open = json!({"game": "nsolo", "size": 12, "opponent": "online", "name": "Awa"});
    server.create(open).await;
    Fixtures {
        game,
        seat,
        bot_token,
        bot_game,
        challenge,
    }
}

/// The configuration: which operations get which ids and secrets.
///
/// The two streams never end for an account, and schemathesis keeps the
/// cookies a sign-up or a log-in sets for the requests after it: they are
/// sent a cookie and a bearer of their own that sign no one in (401).
fn config(f: &Fixtures) -> String {
    format!(
        r#"
[[operations]]
include-path-regex = "^/api/games/\\{{id\\}}"
parameters = {{ "path.id" = "{game}" }}
headers = {{ Authorization = "Bearer {seat}" }}

[[operations]]
include-path-regex = "^/api/(account|bot/account|challenge/|users/)"
headers = {{ Authorization = "Bearer {token}" }}

[[operations]]
include-operation-id = ["challenge", "profile"]
parameters = {{ "path.username" = "rival" }}

[[operations]]
include-path-regex = "^/api/challenge/\\{{id\\}}"
parameters = {{ "path.id" = "{challenge}" }}

[[operations]]
include-path-regex = "^/api/bot/game/\\{{id\\}}"
parameters = {{ "path.id" = "{bot_game}" }}
headers = {{ Authorization = "Bearer {token}" }}

[[operations]]
include-operation-id = ["streamEvents", "streamGame"]
headers = {{ Cookie = "palabre_session=none", Authorization = "Bearer none" }}
"#,
        game = f.game,
        seat = f.seat,
        token = f.bot_token,
        challenge = f.challenge,
        bot_game = f.bot_game,
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn schemathesis_finds_no_server_error_and_no_answer_outside_the_document() {
    let cmd = command();
    if !available(&cmd) {
        return;
    }
    let server = Server::start(UNLIMITED);
    let fixtures = fixtures(&server).await;
    let dir = tempfile::tempdir().unwrap();
    let config_file = dir.path().join("schemathesis.toml");
    std::fs::write(&config_file, config(&fixtures)).unwrap();
    let examples =
        std::env::var("PALABRE_SCHEMATHESIS_EXAMPLES").unwrap_or_else(|_| EXAMPLES.to_owned());

    let started = Instant::now();
    let cmd_dir = dir.path().to_owned();
    let url = server.url("/api/openapi.json");
    let output = tokio::task::spawn_blocking(move || {
        Command::new(&cmd)
            .current_dir(&cmd_dir)
            .arg("--config-file")
            .arg(&config_file)
            .args(["run", &url, "--checks", CHECKS])
            .args(["--seed", SEED, "--max-examples", &examples])
            .args(["--workers", "2", "--request-timeout", "20"])
            .args(["--generation-database", "none", "--no-color"])
            .output()
            .expect("schemathesis runs")
    })
    .await
    .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "schemathesis found failures (seed {SEED}):\n{text}"
    );
    // The summary, for `--nocapture`.
    let summary: Vec<&str> = text.lines().rev().take(12).collect();
    for line in summary.iter().rev() {
        println!("{line}");
    }
    println!("schemathesis: {:.0?}", started.elapsed());
}
