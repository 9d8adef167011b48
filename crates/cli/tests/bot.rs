//! `palabre bot` running `palabre engine` against a `palabre serve`: it
//! accepts a person's challenge and plays a whole game through the Bot
//! API's streams, while the person plays from their account; the engine
//! ponders on the person's time.

mod ponder_log;
mod support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Server, legal};

/// A signed-in client: the session cookie it got at sign-up.
struct Person {
    cookie: String,
}

async fn sign_up(server: &Server, name: &str) -> Person {
    let res = server
        .http
        .post(server.url("/api/account/signup"))
        .json(&json!({"username": name, "password": "correct horse"}))
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
    Person { cookie }
}

impl Person {
    async fn call(&self, server: &Server, method: &str, path: &str, body: Value) -> (u16, Value) {
        let req = match method {
            "GET" => server.http.get(server.url(path)),
            _ => server.http.post(server.url(path)).json(&body),
        };
        let res = req.header("cookie", &self.cookie).send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `palabre bot --ponder` with an engine that logs every line it is
/// sent to `log`.
#[cfg(unix)]
fn start_bot(server: &Server, token: &str, log: &std::path::Path) -> Killed {
    use std::os::unix::fs::PermissionsExt;
    let bin = env!("CARGO_BIN_EXE_palabre");
    let script = log.with_extension("sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntee -a '{}' | exec '{bin}' engine\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let child = Command::new(bin)
        .args([
            "bot",
            "--server",
            &server.url(""),
            "--token",
            token,
            "--engine",
            &script.display().to_string(),
            "--movetime",
            "30",
            "--ponder",
            "--upgrade",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    Killed(child)
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_accepts_a_challenge_and_plays_a_whole_game() {
    let server = Server::start(&[]);
    let owner = sign_up(&server, "engine-bot").await;
    let (status, t) = owner
        .call(
            &server,
            "POST",
            "/api/account/tokens",
            json!({"description": "palabre bot", "scopes": ["bot:play"]}),
        )
        .await;
    assert_eq!(status, 201, "{t}");
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("engine.log");
    let bot_process = start_bot(&server, t["token"].as_str().unwrap(), &log);

    // The bot upgrades its account, then listens.
    let started = Instant::now();
    loop {
        let (_, profile) = owner
            .call(&server, "GET", "/api/users/engine-bot", json!({}))
            .await;
        if profile["bot"] == true {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "{profile}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let awa = sign_up(&server, "awa").await;
    let (status, c) = awa
        .call(
            &server,
            "POST",
            "/api/challenge/engine-bot",
            json!({"game": "yote", "side": "red", "rated": true}),
        )
        .await;
    assert_eq!(status, 201, "{c}");
    let challenge = c["id"].as_str().unwrap().to_owned();
    let game = loop {
        let (_, c) = awa
            .call(
                &server,
                "GET",
                &format!("/api/challenge/{challenge}/show"),
                json!({}),
            )
            .await;
        if let Some(game) = c["game_id"].as_str() {
            assert_eq!(c["status"], "accepted");
            break game.to_owned();
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{c}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };

    // Awa plays red from her account, the first legal move each turn.
    let deadline = Instant::now() + Duration::from_secs(240);
    let end = loop {
        let state = server.state(&game).await;
        if state["status"] == "finished" {
            break state;
        }
        assert!(Instant::now() < deadline, "the game did not end: {state}");
        if state["turn"] == "red" {
            let (status, v) = awa
                .call(
                    &server,
                    "POST",
                    &format!("/api/games/{game}/moves"),
                    json!({"move": legal(&state, 0), "ply": state["ply"]}),
                )
                .await;
            assert!(status == 201 || status == 409, "{status} {v}");
        } else {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let moves = end["moves"].as_array().unwrap();
    assert!(moves.len() >= 2, "{end}");
    assert_eq!(end["teams"]["black"][0]["name"], "engine-bot");
    assert_eq!(end["teams"]["black"][0]["bot"], true);
    assert_eq!(end["rated"], true);
    // The rated game counted for both.
    let (_, bot) = awa
        .call(&server, "GET", "/api/users/engine-bot", json!({}))
        .await;
    assert_eq!(bot["ratings"]["yote"]["games"], 1, "{bot}");
    let (_, me) = awa.call(&server, "GET", "/api/account", json!({})).await;
    assert_eq!(me["ratings"]["yote"]["games"], 1, "{me}");
    // The engine pondered on Awa's time, and each ponder was stopped by
    // her move before the engine was asked for its own (or the game ended).
    drop(bot_process);
    let sent: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    for then in ponder_log::after_each_stop(&sent, "go ponder movetime 60000") {
        assert!(
            then.first().is_some_and(|l| l.starts_with("position "))
                && then.get(1).is_some_and(|l| l.starts_with("go movetime")),
            "{sent:?}"
        );
    }
}
