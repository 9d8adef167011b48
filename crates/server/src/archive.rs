//! A game as a record: its replay frames, its export to text, and the
//! import of such a text back into the viewer (checked move by move, off
//! the async runtime, bounded in size and work; nothing is stored).

use std::collections::BTreeMap;

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use palabre_rules::{GamePosition, Record};
use serde_json::{Value, json};

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

/// A record's headers and moves.
fn parse_record(text: &str) -> (BTreeMap<String, String>, Vec<String>) {
    let mut headers = BTreeMap::new();
    let mut moves = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if let Some((key, value)) = inner.split_once(' ') {
                headers.insert(
                    key.to_lowercase(),
                    value.trim().trim_matches('"').to_owned(),
                );
            }
            continue;
        }
        moves.extend(
            line.split_whitespace()
                .filter(|w| !w.ends_with('.'))
                .map(str::to_owned),
        );
    }
    (headers, moves)
}

/// A refused record's header: `kind` names what is wrong with it.
fn bad_header(message: String, kind: &str, args: Value) -> AppError {
    AppError::BadRequest(message).with_details(json!({ "kind": kind, "args": args }))
}

/// Plays the moves of a record, naming the first one refused: its ply, its
/// number in the record (two plies a turn, from 1), the side that played
/// it, and the rule it breaks with the places that rule names.
fn replay_moves<P: GamePosition>(record: &mut Record<P>, moves: &[String]) -> Result<(), AppError> {
    for (ply, text) in moves.iter().enumerate() {
        let side = record.position().turn().to_string();
        let refused = |error: AppError, kind: &str, args: Value| {
            error.with_details(json!({
                "ply": ply,
                "turn": ply / 2 + 1,
                "side": side,
                "move": text,
                "kind": kind,
                "args": args,
            }))
        };
        let m = match text.parse::<P::Move>() {
            Ok(m) => m,
            Err(e) => {
                let error = AppError::MalformedMove(format!("ply {ply}: {text}: {e}"));
                return Err(refused(error, "malformed", json!({})));
            }
        };
        if let Err(e) = record.play(&m) {
            let args: serde_json::Map<String, Value> = e
                .args()
                .iter()
                .map(|(name, value)| ((*name).to_owned(), Value::from(value.as_str())))
                .collect();
            let error = AppError::IllegalMove(format!("ply {ply}: {text}: {e}"));
            return Err(refused(error, e.kind().code(), Value::Object(args)));
        }
    }
    Ok(())
}

/// Replays a record: the frames, or why it does not replay.
pub fn replay_record(text: &str, max_plies: usize) -> Result<Value, AppError> {
    let (headers, moves) = parse_record(text);
    if moves.len() > max_plies {
        return Err(bad_header(
            format!(
                "a record has at most {max_plies} moves, this one has {}",
                moves.len()
            ),
            "too_many_moves",
            json!({ "max": max_plies, "count": moves.len() }),
        ));
    }
    let game = headers
        .get("game")
        .ok_or_else(|| bad_header("missing [Game \"…\"]".into(), "missing_game", json!({})))?;
    let kind: GameKind = game
        .parse()
        .map_err(|e| bad_header(format!("{e}"), "unknown_game", json!({ "game": game })))?;
    let size: Option<u8> = match headers.get("size") {
        Some(s) => Some(s.parse().map_err(|_| {
            bad_header(
                format!("size {s:?} is not a number"),
                "bad_size",
                json!({ "size": s }),
            )
        })?),
        None => None,
    };
    let start = match (headers.get("start"), kind) {
        (Some(fen), _) => fen.clone(),
        (None, GameKind::Yote) => palabre_rules::yote::Position::START.to_string(),
        (None, GameKind::Nsolo) => {
            let size = size.unwrap_or(8);
            palabre_rules::nsolo::Position::start(size)
                .map_err(|e| {
                    bad_header(
                        e.to_string(),
                        "bad_size",
                        json!({ "size": size.to_string() }),
                    )
                })?
                .to_string()
        }
    };
    let mut play = Play::start(kind, &start)
        .map_err(|e| bad_header(e, "bad_start", json!({ "start": start })))?;
    let actual = size_of(&play);
    if let Some(given) = size.filter(|s| *s != actual) {
        return Err(bad_header(
            format!("[Size] says {given}, the start position has {actual}"),
            "size_mismatch",
            json!({ "size": given.to_string(), "start": actual.to_string() }),
        ));
    }
    match &mut play {
        Play::Yote(r) => replay_moves(r, &moves)?,
        Play::Nsolo(r) => replay_moves(r, &moves)?,
    }
    Ok(json!({ "game": kind, "size": actual, "frames": view::frames(&play) }))
}

/// Checks an exported game and answers with its replay frames.
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
