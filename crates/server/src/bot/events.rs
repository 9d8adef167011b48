//! An account's events: `gameStart` and `gameFinish` for its online games,
//! `challenge`, `challengeCanceled` and `challengeDeclined`. A new stream
//! first hears the games in play and the challenges waiting.

use axum::Router;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::challenges::challenge_json;
use super::streams::{KEEP_ALIVE, Lines, ndjson};
use crate::accounts::Viewer;
use crate::domain::Status;
use crate::error::AppError;
use crate::guards::ClientIp;
use crate::state::AppState;

/// Games in play listed when a stream opens.
const ONGOING: i64 = 100;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/stream/event", get(stream))
}

/// What `account` is told of game `id`: its side, its opponent, the terms.
async fn game_event(app: &AppState, kind: &str, id: &str, account: i64) -> Result<Value, AppError> {
    let id_owned = id.to_owned();
    let (game, state) = app
        .games
        .read(id, move |g| {
            let me = g.members.iter().find(|m| m.account == Some(account));
            let side = me.map(|m| m.side);
            let opponent = g
                .members
                .iter()
                .find(|m| Some(m.side) != side)
                .map(|m| json!({"username": m.name, "bot": m.bot}));
            (
                json!({
                    "id": id_owned,
                    "game": g.row.kind,
                    "size": g.row.size,
                    "rated": g.row.rated,
                    "time_control": g.row.time_control.to_string(),
                    "side": side,
                    "opponent": opponent,
                }),
                (g.status(), g.result()),
            )
        })
        .await?;
    let mut game = game;
    game["status"] = json!(state.0);
    game["result"] = json!(state.1);
    Ok(json!({ "type": kind, "game": game }))
}

pub async fn game_start(app: &AppState, id: &str, account: i64) -> Result<Value, AppError> {
    game_event(app, "gameStart", id, account).await
}

/// Tells the signed-in players of each online game that ends on this node
/// `gameFinish`, as its owner ends it. Nothing here holds a game: one that
/// nobody uses leaves memory, and its end is announced whenever it comes.
pub fn announce_finishes(app: AppState) {
    let mut finished = app.games.finished();
    tokio::spawn(async move {
        loop {
            let id = tokio::select! {
                id = finished.recv() => match id {
                    Ok(id) => id,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                        tracing::warn!("{n} game ends were not announced");
                        continue;
                    }
                    Err(_) => return,
                },
                () = app.shutdown.cancelled() => return,
            };
            let app = app.clone();
            tokio::spawn(async move { announce_finish(&app, &id).await });
        }
    });
}

async fn announce_finish(app: &AppState, id: &str) {
    let accounts = app
        .games
        .read(id, |g| {
            g.members
                .iter()
                .filter_map(|m| m.account)
                .collect::<Vec<_>>()
        })
        .await;
    for account in accounts.unwrap_or_default() {
        if let Ok(event) = game_event(app, "gameFinish", id, account).await {
            app.hub.send(account, &event);
        }
    }
}

/// The first lines of a new stream: games in play, challenges waiting.
async fn opening(app: &AppState, account: i64) -> Result<Vec<Value>, AppError> {
    let mut lines = Vec::new();
    for g in app.store().account_games(account, ONGOING).await? {
        if g.status == Status::Playing && g.opponent == crate::domain::Opponent::Online {
            lines.push(game_start(app, &g.id, account).await?);
        }
    }
    for c in app.store().open_challenges(account).await? {
        if c.dest == account {
            let shown = challenge_json(app, &c).await?;
            lines.push(json!({"type": "challenge", "challenge": shown}));
        }
    }
    Ok(lines)
}

/// The account's events, one JSON object a line, as long as the client
/// reads: `gameStart`, `gameFinish`, `challenge`, `challengeCanceled`,
/// `challengeDeclined` (docs/bot-api.md); a blank line every 7 s keeps it
/// open. It opens with the games in play and the challenges waiting.
#[utoipa::path(
    get,
    path = "/api/stream/event",
    operation_id = "streamEvents",
    tag = "bot",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Newline-delimited JSON events, without end",
            content_type = "application/x-ndjson", body = String),
        (status = 401, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn stream(
    State(app): State<AppState>,
    viewer: Viewer,
    ip: ClientIp,
) -> Result<Response, AppError> {
    let account = viewer.account()?.id;
    let place = app.guards.open_socket(ip)?;
    // Subscribed before the opening is read, so that nothing falls between.
    let mut events = app.hub.subscribe(account);
    let opening = opening(&app, account).await?;
    let within = app.guards.limits.socket_write;
    Ok(ndjson(place, within, move |lines: Lines| async move {
        for line in &opening {
            if !lines.send(&line.to_string()).await {
                return;
            }
        }
        loop {
            let alive = tokio::select! {
                event = events.recv() => match event {
                    Ok(event) => lines.send(&event).await,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => true,
                    Err(_) => false,
                },
                () = tokio::time::sleep(KEEP_ALIVE) => lines.keep_alive().await,
                () = app.shutdown.cancelled() => false,
            };
            if !alive {
                return;
            }
        }
    }))
}
