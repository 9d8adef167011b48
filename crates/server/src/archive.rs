//! A game as a record: its replay frames, its export to text, and the
//! import of such a text back into the viewer (checked move by move, off
//! the async runtime, bounded in size and work; nothing is stored).

use std::collections::BTreeMap;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use palabre_rules::record_text::{self, RecordText, RecordTextError};
use serde_json::{Value, json};

use crate::api::Path;
use crate::domain::{GameKind, Opponent, Side};
use crate::error::AppError;
use crate::game::Game;
use crate::game::view;
use crate::guards::ClientIp;
use crate::play::Play;
use crate::state::AppState;
use crate::thinker::RETRY_AFTER_S;

/// Largest record accepted for import.
pub const IMPORT_LIMIT: usize = 256 * 1024;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/export", get(export))
        .route(
            "/api/import",
            post(import).layer(DefaultBodyLimit::max(IMPORT_LIMIT)),
        )
}

fn size_of(play: &Play) -> u8 {
    match play {
        Play::Yote(_) => 5,
        Play::Nsolo(r) => r.start().size(),
    }
}

/// Every position of a game, with the move that led to it.
#[utoipa::path(
    get,
    path = "/api/games/{id}/replay",
    operation_id = "replay",
    tag = "records",
    params(crate::openapi::GameId),
    responses(
        (status = 200, description = "The replay frames", body = crate::openapi::shapes::Replay),
        (status = 404, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn replay(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, AppError> {
    let frames = app
        .games
        .read(
            &id,
            |g| json!({ "game": g.row.kind, "size": g.row.size, "frames": view::frames(&g.play) }),
        )
        .await?;
    Ok(Json(frames))
}

/// Who plays each side, as a record names them.
fn players(g: &Game) -> BTreeMap<Side, String> {
    g.row
        .kind
        .sides()
        .into_iter()
        .map(|side| {
            let who = match g.row.opponent {
                Opponent::Online => g
                    .team(side)
                    .map(|m| m.name.replace('"', "'"))
                    .collect::<Vec<_>>()
                    .join(", "),
                _ if g.machine_side() == Some(side) => "machine".to_owned(),
                _ => "human".to_owned(),
            };
            (side, who)
        })
        .collect()
}

/// The day play began, `YYYY.MM.DD` in UTC (as chess records write it), or
/// `????.??.??` for a game not started.
fn date(started_at_ms: Option<i64>) -> String {
    let format = time::macros::format_description!("[year].[month].[day]");
    started_at_ms
        .and_then(|ms| time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)).ok())
        .and_then(|at| at.format(&format).ok())
        .unwrap_or_else(|| "????.??.??".to_owned())
}

/// Headers in brackets, a blank line, then the moves numbered by turn.
fn export_text(g: &Game) -> String {
    let mut text = format!(
        "[Game \"{}\"]\n[Size \"{}\"]\n[Start \"{}\"]\n[Date \"{}\"]\n[TimeControl \"{}\"]\n",
        g.row.kind,
        g.row.size,
        g.row.start_fen,
        date(g.row.started_at_ms),
        g.row.time_control
    );
    if g.machine_side().is_some() {
        text.push_str(&format!("[Level \"{}\"]\n", g.row.level));
    }
    for (side, who) in players(g) {
        let name = side.as_str();
        let capital = name[..1].to_uppercase() + &name[1..];
        text.push_str(&format!("[{capital} \"{who}\"]\n"));
    }
    let result = g.result().map_or_else(|| "*".to_owned(), |r| r.to_string());
    text.push_str(&format!("[Result \"{result}\"]\n\n"));
    for (i, pair) in g.play.moves().chunks(2).enumerate() {
        text.push_str(&format!("{}. {}\n", i + 1, pair.join(" ")));
    }
    text
}

/// A game as a text record: headers in brackets, then the moves.
#[utoipa::path(
    get,
    path = "/api/games/{id}/export",
    operation_id = "exportGame",
    tag = "records",
    params(crate::openapi::GameId),
    responses(
        (status = 200, description = "The record, as an attachment",
            content_type = "text/plain; charset=utf-8", body = String,
            headers(("Content-Disposition" = String, description = "attachment; filename=\"palabre-{id}.txt\""))),
        (status = 404, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn export(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, AppError> {
    let text = app.games.read(&id, export_text).await?;
    let disposition = format!("attachment; filename=\"palabre-{id}.txt\"");
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    ))
}

/// A refused record as the API's error: the code (`bad_request`,
/// `malformed_move` or `illegal_move`) and, in `details`, what is wrong:
/// for a move its ply, its number in the record (two plies a turn, from 1),
/// the side that played it, and the rule it breaks with the places that
/// rule names.
fn refused(e: RecordTextError) -> AppError {
    let kind = e.kind();
    let message = e.to_string();
    let (error, details) = match &e {
        RecordTextError::Malformed {
            ply, side, text, ..
        } => (
            AppError::MalformedMove(message),
            move_details(*ply, side, text, kind, json!({})),
        ),
        RecordTextError::Illegal {
            ply,
            side,
            text,
            error,
        } => {
            let args: serde_json::Map<String, Value> = error
                .args()
                .iter()
                .map(|(name, value)| ((*name).to_owned(), Value::from(value.as_str())))
                .collect();
            (
                AppError::IllegalMove(message),
                move_details(*ply, side, text, kind, Value::Object(args)),
            )
        }
        header => (
            AppError::BadRequest(message),
            json!({ "kind": kind, "args": header_args(header) }),
        ),
    };
    error.with_details(details)
}

fn move_details(ply: usize, side: &str, text: &str, kind: &str, args: Value) -> Value {
    json!({ "ply": ply, "turn": ply / 2 + 1, "side": side, "move": text, "kind": kind, "args": args })
}

/// The values a header's fault names, for the page's words.
fn header_args(e: &RecordTextError) -> Value {
    match e {
        RecordTextError::TooManyMoves { count, max } => json!({ "max": max, "count": count }),
        RecordTextError::UnknownGame(game) => json!({ "game": game }),
        RecordTextError::BadSize(size) => json!({ "size": size }),
        RecordTextError::BadStart { start, .. } => json!({ "start": start }),
        RecordTextError::SizeMismatch { size, start } => {
            json!({ "size": size.to_string(), "start": start.to_string() })
        }
        _ => json!({}),
    }
}

/// Replays a record: the frames, or why it does not replay.
pub fn replay_record(text: &str, max_plies: usize) -> Result<Value, AppError> {
    let play = match record_text::read(text, max_plies).map_err(refused)? {
        RecordText::Yote(record) => Play::Yote(record),
        RecordText::Nsolo(record) => Play::Nsolo(record),
    };
    let kind = match play {
        Play::Yote(_) => GameKind::Yote,
        Play::Nsolo(_) => GameKind::Nsolo,
    };
    Ok(json!({ "game": kind, "size": size_of(&play), "frames": view::frames(&play) }))
}

/// Checks an exported game and answers with its replay frames.
#[utoipa::path(
    post,
    path = "/api/import",
    operation_id = "importRecord",
    tag = "records",
    request_body(content = String, content_type = "text/plain",
        description = "A record as `GET /api/games/{id}/export` writes it (256 KiB at most); nothing is stored",
        example = json!("[Game \"yote\"]\n[Result \"*\"]\n\n1. c3 c4\n2. b2\n")),
    responses(
        (status = 200, description = "The record's replay frames", body = crate::openapi::shapes::Replay),
        (status = 400, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 422, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn import(
    State(app): State<AppState>,
    ip: ClientIp,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<Value>, AppError> {
    app.guards.imports.check(ip)?;
    let body = body.map_err(|r| match r.status() {
        axum::http::StatusCode::PAYLOAD_TOO_LARGE => AppError::TooLarge,
        _ => AppError::BadRequest(r.body_text()),
    })?;
    let text = String::from_utf8(body.to_vec())
        .map_err(|_| AppError::BadRequest("a record is UTF-8 text".into()))?;
    let permit = app
        .guards
        .import_slots
        .try_acquire()
        .map_err(|_| AppError::Busy(RETRY_AFTER_S))?;
    let max = app.guards.limits.import_plies;
    let frames = tokio::task::spawn_blocking(move || replay_record(&text, max))
        .await
        .map_err(|e| AppError::Internal(e.into()))??;
    drop(permit);
    Ok(Json(frames))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_dated_by_the_day_play_began() {
        assert_eq!(date(Some(1_796_036_400_000)), "2026.11.30");
        assert_eq!(date(None), "????.??.??");
    }
}
