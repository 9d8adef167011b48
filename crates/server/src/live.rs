//! `GET /api/games/{id}/ws`: the live socket of every game (against the
//! machine, on one screen, online). After a `hello` (with a seat, or none
//! for a spectator) it carries the player's actions in and every new state
//! out. Messages are small and rate-limited; connections are counted per
//! address, pinged, and closed when silent or too slow to read; browsers
//! must come from an allowed origin.

use std::num::NonZeroU32;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use crate::accounts::Viewer;
use crate::api::{Path, act, rematch};
use crate::error::AppError;
use crate::game::{Action, Done, DrawAction, Subscription};
use crate::guards::{ClientIp, SocketPlace};
use crate::seats::Key;
use crate::state::AppState;

/// Largest message the protocol uses; a larger one is answered `too_large`.
pub const MAX_MESSAGE: usize = 4 * 1024;
/// Largest frame read at all; a larger one closes the connection.
const MAX_FRAME: usize = 64 * 1024;
/// The read buffer of a live socket.
const READ_BUFFER: usize = 8 * 1024;
/// A connection must say hello within this.
const HELLO: Duration = Duration::from_secs(10);

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/ws", get(upgrade))
}

/// The live socket of a game: after a `hello` (with a seat, or none for a
/// spectator) it carries the player's actions in and every new state out
/// (docs/online.md). Browsers must come from an allowed origin.
#[utoipa::path(
    get,
    path = "/api/games/{id}/ws",
    operation_id = "liveSocket",
    tag = "live",
    params(crate::openapi::GameId),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol"),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn upgrade(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ip: ClientIp,
    viewer: Viewer,
) -> Result<Response, AppError> {
    // A request that is no WebSocket upgrade, in the API's error format.
    let ws = ws.map_err(|r| AppError::BadRequest(r.body_text()))?;
    if !app.guards.origin_allowed(&headers) {
        return Err(AppError::ForbiddenOrigin);
    }
    let place = app.guards.open_socket(ip)?;
    if !app.games.exists(&id).await? {
        return Err(AppError::NotFound);
    }
    // Messages are small: tungstenite's 128 KiB read buffer would be most of
    // what an idle socket costs.
    Ok(ws
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| connection(app, id, socket, place, viewer.id())))
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
        action: DrawAction,
    },
    Resign,
    Abort,
    Start,
    /// Without an action, against the machine or on one screen; with one,
    /// online.
    Takeback {
        action: Option<DrawAction>,
        ply: Option<usize>,
    },
    Rematch,
    Ping,
}

fn error(e: &AppError) -> String {
    let mut v = e.body();
    v["type"] = json!("error");
    if let Some(s) = e.retry_after() {
        v["retry_after"] = json!(s);
    }
    v.to_string()
}

fn state_message(json: &str) -> String {
    format!(r#"{{"type":"state","state":{json}}}"#)
}

type Out = SplitSink<WebSocket, Message>;
type In = SplitStream<WebSocket>;

/// Writes a message, giving up on a client that does not read.
async fn send(out: &mut Out, message: Message, within: Duration) -> bool {
    matches!(
        tokio::time::timeout(within, out.send(message)).await,
        Ok(Ok(()))
    )
}

async fn close(out: &mut Out, code: u16, reason: &'static str, within: Duration) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = send(out, Message::Close(Some(frame)), within).await;
}

/// The seat of the first message, which must be a hello.
async fn hello(inbox: &mut In) -> Result<Option<String>, AppError> {
    let first = tokio::time::timeout(HELLO, inbox.next()).await;
    let Ok(Some(Ok(Message::Text(text)))) = first else {
        return Err(AppError::BadRequest("say hello first".into()));
    };
    match serde_json::from_str::<Incoming>(&text) {
        Ok(Incoming::Hello { seat, .. }) => Ok(seat),
        _ => Err(AppError::BadRequest("say hello first".into())),
    }
}

/// A connection: its hello names a seat, or else the request's signed-in
/// account (`account`) plays.
async fn connection(
    app: AppState,
    id: String,
    socket: WebSocket,
    _place: SocketPlace,
    account: Option<i64>,
) {
    let write = app.guards.limits.socket_write;
    let (mut out, mut inbox) = socket.split();
    let seat = match hello(&mut inbox).await {
        Ok(Some(seat)) => Some(Key::Seat(seat)),
        Ok(None) => account.map(Key::Account),
        Err(e) => {
            let _ = send(&mut out, Message::Text(error(&e).into()), write).await;
            return close(&mut out, 1008, "hello expected", write).await;
        }
    };
    let subscribed = app.games.subscribe(&id, seat.clone()).await;
    let sub = match subscribed {
        Ok(sub) => sub,
        Err(e) => {
            let _ = send(&mut out, Message::Text(error(&e).into()), write).await;
            return close(&mut out, 1008, "refused", write).await;
        }
    };
    // The subscription's presence goes back when `serve` drops it.
    serve(&app, &id, seat, sub, &mut out, &mut inbox).await;
}

/// Relays states out and actions in until either side stops.
async fn serve(
    app: &AppState,
    id: &str,
    seat: Option<Key>,
    sub: Subscription,
    out: &mut Out,
    inbox: &mut In,
) {
    let limits = &app.guards.limits;
    let write = limits.socket_write;
    let Subscription {
        presence: _presence,
        now,
        mut updates,
    } = sub;
    if !send(out, Message::Text(state_message(&now).into()), write).await {
        return;
    }
    let rate: Option<DefaultDirectRateLimiter> = NonZeroU32::new(limits.socket_messages_per_second)
        .map(|n| RateLimiter::direct(Quota::per_second(n)));
    // Silence is checked at least twice per idle period.
    let mut ping = tokio::time::interval(
        limits
            .socket_ping
            .min(limits.socket_idle / 2)
            .max(Duration::from_millis(100)),
    );
    let mut heard = Instant::now();
    loop {
        let reply = tokio::select! {
            update = updates.recv() => match update {
                Ok(json) => Some(state_message(&json)),
                // Each state is whole: a reader that fell behind gets the latest.
                Err(RecvError::Lagged(_)) => latest(app, id).await,
                Err(RecvError::Closed) => break,
            },
            message = inbox.next() => {
                heard = Instant::now();
                match message {
                    Some(Ok(Message::Text(text))) => Some(if text.len() > MAX_MESSAGE {
                        error(&AppError::TooLarge)
                    } else if rate.as_ref().is_some_and(|r| r.check().is_err()) {
                        error(&AppError::RateLimited(1))
                    } else {
                        handle(app, id, &seat, &text).await
                    }),
                    Some(Ok(Message::Binary(_))) => {
                        Some(error(&AppError::BadRequest("messages are JSON text".into())))
                    }
                    Some(Ok(_)) => None,
                    Some(Err(_)) => {
                        let _ = send(out, Message::Text(error(&AppError::TooLarge).into()), write).await;
                        return close(out, 1009, "message too large", write).await;
                    }
                    None => break,
                }
            },
            _ = ping.tick() => {
                if heard.elapsed() > limits.socket_idle {
                    return close(out, 1000, "idle", write).await;
                }
                if !send(out, Message::Ping(Default::default()), write).await {
                    break;
                }
                None
            },
            () = app.shutdown.cancelled() => {
                return close(out, 1001, "server shutting down", write).await;
            }
        };
        if let Some(reply) = reply
            && !send(out, Message::Text(reply.into()), write).await
        {
            break;
        }
    }
}

async fn latest(app: &AppState, id: &str) -> Option<String> {
    let state = app.games.state(id).await.ok()?;
    Some(state_message(&state))
}

/// Carries out one message; returns the direct reply.
async fn handle(app: &AppState, id: &str, seat: &Option<Key>, text: &str) -> String {
    let incoming = match serde_json::from_str::<Incoming>(text) {
        Ok(m) => m,
        Err(e) => return error(&AppError::BadRequest(e.to_string())),
    };
    let action = match incoming {
        Incoming::Ping => return json!({"type": "pong"}).to_string(),
        Incoming::Hello { .. } => {
            return latest(app, id)
                .await
                .unwrap_or_else(|| error(&AppError::NotFound));
        }
        _ if seat.is_none() => return error(&AppError::MissingSeat),
        Incoming::Rematch => {
            return match rematch(&app.games, id, seat.clone()).await {
                Ok((id, seat)) => json!({"type": "rematch", "id": id, "seat": seat}).to_string(),
                Err(e) => error(&e),
            };
        }
        Incoming::Move { notation, ply } => Action::Move { notation, ply },
        Incoming::Draw { action } => Action::Draw(action),
        Incoming::Resign => Action::Resign { side: None },
        Incoming::Abort => Action::Abort,
        Incoming::Start => Action::Start,
        Incoming::Takeback { action: None, .. } => Action::TakeBack,
        Incoming::Takeback {
            action: Some(action),
            ply,
        } => Action::TakeBackOffer { action, ply },
    };
    let ply = match &action {
        Action::Move { ply, .. } => Some(*ply),
        _ => None,
    };
    match act(&app.games, id, seat.clone(), action).await {
        Ok(acted) => match (acted.done, ply) {
            (Done::Moved | Done::Duplicate, Some(ply)) => {
                json!({"type": "ack", "ply": ply}).to_string()
            }
            _ => json!({"type": "ok"}).to_string(),
        },
        Err(e) => error(&e),
    }
}
