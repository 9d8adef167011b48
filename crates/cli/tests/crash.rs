//! A server killed with SIGKILL in the middle of games keeps every move it
//! acknowledged, and the games go on after a restart.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start(port: u16, db: &str) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_palabre"))
        .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db", db])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..200 {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return child;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the server did not start");
}

/// One HTTP/1.1 request with `Connection: close`; returns status and JSON.
fn http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<Value>,
    seat: Option<&str>,
) -> (u16, Value) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = seat
        .map(|s| format!("Authorization: Bearer {s}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).unwrap();
    let status = raw[9..12].parse().unwrap();
    let (_, payload) = raw.split_once("\r\n\r\n").unwrap();
    (status, serde_json::from_str(payload).unwrap_or(Value::Null))
}

/// The first legal move of the state (Yoté).
fn first_legal(state: &Value) -> String {
    state["legal"][0]["move"].as_str().unwrap().to_owned()
}

#[test]
fn acknowledged_moves_survive_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db").to_string_lossy().into_owned();
    let port = free_port();
    let mut server = start(port, &db);
    let mut games = Vec::new();
    for _ in 0..3 {
        let (_, a) = http(
            port,
            "POST",
            "/api/games",
            Some(json!({"game": "yote", "opponent": "online", "side": "red", "name": "A"})),
            None,
        );
        let id = a["id"].as_str().unwrap().to_owned();
        let (_, b) = http(
            port,
            "POST",
            &format!("/api/games/{id}/join"),
            Some(json!({"name": "B"})),
            None,
        );
        games.push((
            id,
            [
                a["seat"].as_str().unwrap().to_owned(),
                b["seat"].as_str().unwrap().to_owned(),
            ],
            b["state"].clone(),
            Vec::new(),
        ));
    }
    for round in 0..12 {
        for (id, seats, state, acked) in games.iter_mut() {
            let m = first_legal(state);
            let (status, next) = http(
                port,
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(json!({"move": m, "ply": round})),
                Some(&seats[round % 2]),
            );
            assert_eq!(status, 201, "{next}");
            acked.push(m);
            *state = next;
        }
    }
    server.kill().unwrap(); // SIGKILL: no shutdown, no flush
    server.wait().unwrap();
    let mut server = start(port, &db);
    for (id, seats, _, acked) in &games {
        let (_, state) = http(port, "GET", &format!("/api/games/{id}"), None, None);
        let stored: Vec<String> = serde_json::from_value(state["moves"].clone()).unwrap();
        assert_eq!(
            &stored, acked,
            "every acknowledged move is back, none doubled"
        );
        let m = first_legal(&state);
        let (status, _) = http(
            port,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(json!({"move": m, "ply": acked.len()})),
            Some(&seats[acked.len() % 2]),
        );
        assert_eq!(status, 201, "the game goes on");
    }
    server.kill().unwrap();
    server.wait().unwrap();
}
