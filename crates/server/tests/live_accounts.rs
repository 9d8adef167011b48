//! The live socket with accounts: a signed-in player plays their game from
//! a socket that names no seat, and a signed-in spectator watches.

mod common;

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Signs up and returns the session cookie.
async fn sign_up(addr: &str, name: &str) -> String {
    let res = reqwest::Client::new()
        .post(format!("http://{addr}/api/account/signup"))
        .json(&json!({"username": name, "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 201);
    let cookie = res.headers()["set-cookie"].to_str().unwrap();
    cookie.split(';').next().unwrap().to_owned()
}

async fn post(addr: &str, path: &str, cookie: &str, body: Value) -> Value {
    let res = reqwest::Client::new()
        .post(format!("http://{addr}{path}"))
        .header("cookie", cookie)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{path}: {}", res.status());
    res.json().await.unwrap()
}

/// A socket opened with the session cookie and a hello with no seat.
async fn connect(addr: &str, id: &str, cookie: &str) -> (Socket, Value) {
    let mut req = format!("ws://{addr}/api/games/{id}/ws")
        .into_client_request()
        .unwrap();
    req.headers_mut().insert("cookie", cookie.parse().unwrap());
    let (mut ws, _) = connect_async(req).await.unwrap();
    ws.send(Message::text(json!({"type": "hello"}).to_string()))
        .await
        .unwrap();
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

#[tokio::test]
async fn an_account_plays_without_a_seat_and_another_watches() {
    let addr = common::serve().await;
    let awa = sign_up(&addr, "awa").await;
    let kofi = sign_up(&addr, "kofi").await;
    let watcher = sign_up(&addr, "watcher").await;
    let game = post(
        &addr,
        "/api/games",
        &awa,
        json!({"game": "yote", "opponent": "online", "side": "red"}),
    )
    .await;
    let id = game["id"].as_str().unwrap();
    post(&addr, &format!("/api/games/{id}/join"), &kofi, json!({})).await;

    let (mut spectator, first) = connect(&addr, id, &watcher).await;
    assert_eq!(
        first["type"], "state",
        "a signed-in spectator watches: {first}"
    );
    let (mut red, first) = connect(&addr, id, &awa).await;
    assert_eq!(first["type"], "state", "{first}");
    red.send(Message::text(
        json!({"type": "move", "move": "c3", "ply": 0}).to_string(),
    ))
    .await
    .unwrap();
    loop {
        let v = next(&mut spectator).await;
        if v["state"]["ply"] == 1 {
            assert_eq!(v["state"]["moves"], json!(["c3"]));
            break;
        }
    }
    // The spectator's account has no place in the game: its moves are refused.
    spectator
        .send(Message::text(
            json!({"type": "move", "move": "c4", "ply": 1}).to_string(),
        ))
        .await
        .unwrap();
    loop {
        let v = next(&mut spectator).await;
        if v["type"] == "error" {
            assert_eq!(v["code"], "wrong_seat");
            break;
        }
    }
}
