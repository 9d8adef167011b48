//! `GET /api/games/{id}/ws`: the live socket of a game. After a `hello`
//! (with a seat, or none for a spectator) it carries the player's actions in
//! and every new state out. Messages are small and rate-limited; browsers
//! must come from the server's own origin.

use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use axum::routing::get;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;

use crate::actions::{self, Played, publish};
use crate::error::AppError;
use crate::seats::{Role, role_of};
use crate::state::{AppState, SharedSession};
use crate::view;

/// Largest message accepted from a client.
pub const MAX_MESSAGE: usize = 4 * 1024;
/// Messages a connection may send each second.
pub const RATE: u32 = 20;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/ws", get(upgrade))
}

/// A browser's `Origin` must name this server (`Host`); other clients send none.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    origin
        .split_once("://")
        .is_some_and(|(_, rest)| rest == host)
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    if !same_origin(&headers) {
        return Err(AppError::WrongSeat);
    }
    let session = app.session(&id).await?;
    Ok(ws
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| connection(app, session, socket)))
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Incoming {
    Hello {
        seat: Option<String>,
        #[allow(dead_code)]
        ply: Option<usize>,
    },
    Move {
        #[serde(rename = "move")]
        notation: String,
        ply: usize,
    },
    Draw {
        action: String,
    },
    Resign,
    Abort,
    Start,
    Rematch,
    Ping,
}

fn error(e: &AppError) -> String {
    json!({"type": "error", "code": e.code(), "message": e.to_string()}).to_string()
}

fn state_message(json: &str) -> String {
    format!(r#"{{"type":"state","state":{json}}}"#)
}

/// Counts messages per second.
struct Limiter {
    window: Instant,
    count: u32,
}

impl Limiter {
    fn allow(&mut self) -> bool {
        if self.window.elapsed() >= Duration::from_secs(1) {
            (self.window, self.count) = (Instant::now(), 0);
        }
        self.count += 1;
        self.count <= RATE
    }
}

async fn hello(socket: &mut WebSocket, session: &SharedSession) -> Result<Option<Role>, AppError> {
    let first = tokio::time::timeout(Duration::from_secs(10), socket.recv()).await;
    let Ok(Some(Ok(Message::Text(text)))) = first else {
        return Err(AppError::BadRequest("say hello first".into()));
    };
    match serde_json::from_str::<Incoming>(&text) {
        Ok(Incoming::Hello { seat: None, .. }) => Ok(None),
        Ok(Incoming::Hello {
            seat: Some(seat), ..
        }) => role_of(&seat, &*session.lock().await)
            .map(Some)
            .ok_or(AppError::WrongSeat),
        _ => Err(AppError::BadRequest("say hello first".into())),
    }
}

async fn presence(session: &SharedSession, role: &Option<Role>, delta: isize) {
    if let Some(Role::Member { side, position }) = role {
        let mut s = session.lock().await;
        let n = s.presence.entry((side.clone(), *position)).or_default();
        *n = n.saturating_add_signed(delta);
        publish(&s);
    }
}

async fn connection(app: AppState, session: SharedSession, mut socket: WebSocket) {
    let role = match hello(&mut socket, &session).await {
        Ok(role) => role,
        Err(e) => {
            let _ = socket.send(Message::Text(error(&e).into())).await;
            return;
        }
    };
    let (now, mut updates) = {
        let s = session.lock().await;
        (
            serde_json::to_string(&view::state(&s)).unwrap_or_default(),
            s.events.subscribe(),
        )
    };
    let (mut out, mut inbox) = socket.split();
    if out
        .send(Message::Text(state_message(&now).into()))
        .await
        .is_err()
    {
        return;
    }
    presence(&session, &role, 1).await;
    let mut limiter = Limiter {
        window: Instant::now(),
        count: 0,
    };
    loop {
        tokio::select! {
            update = updates.recv() => match update {
                Ok(json) => {
                    if out.send(Message::Text(state_message(&json).into())).await.is_err() {
                        break;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    let json = serde_json::to_string(&view::state(&*session.lock().await)).unwrap_or_default();
                    if out.send(Message::Text(state_message(&json).into())).await.is_err() {
                        break;
                    }
                }
                Err(_) => break,
            },
            message = inbox.next() => {
                let Some(Ok(message)) = message else { break };
                let Message::Text(text) = message else { continue };
                let reply = if limiter.allow() {
                    handle(&app, &session, &role, &text).await
                } else {
                    Some(error(&AppError::RateLimited))
                };
                if let Some(reply) = reply
                    && out.send(Message::Text(Utf8Bytes::from(reply))).await.is_err()
                {
                    break;
                }
            }
        }
    }
    presence(&session, &role, -1).await;
}

/// Carries out one message; returns the direct reply, if any.
async fn handle(
    app: &AppState,
    session: &SharedSession,
    role: &Option<Role>,
    text: &str,
) -> Option<String> {
    let incoming = match serde_json::from_str::<Incoming>(text) {
        Ok(m) => m,
        Err(e) => return Some(error(&AppError::BadRequest(e.to_string()))),
    };
    if let Incoming::Ping = incoming {
        return Some(json!({"type": "pong"}).to_string());
    }
    let Some(role) = role else {
        return Some(error(&AppError::MissingSeat));
    };
    let result = match incoming {
        Incoming::Move { notation, ply } => {
            match actions::play(app, session, role, &notation, ply).await {
                Ok(Played::New | Played::Duplicate) => {
                    return Some(json!({"type": "ack", "ply": ply}).to_string());
                }
                Err(e) => Err(e),
            }
        }
        Incoming::Draw { action } => actions::draw(app, session, role, &action).await,
        Incoming::Resign => actions::resign(app, session, role, None).await,
        Incoming::Abort => actions::abort(app, session).await,
        Incoming::Start => actions::start(app, session).await,
        Incoming::Rematch => match actions::rematch(app, session, role).await {
            Ok((id, seat)) => {
                return Some(json!({"type": "rematch", "id": id, "seat": seat}).to_string());
            }
            Err(e) => Err(e),
        },
        Incoming::Hello { .. } => {
            let json =
                serde_json::to_string(&view::state(&*session.lock().await)).unwrap_or_default();
            return Some(state_message(&json));
        }
        Incoming::Ping => Ok(()),
    };
    result.err().map(|e| error(&e))
}
