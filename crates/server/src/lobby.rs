//! Games around the one being played: the lobby of open and live online
//! games, the records of finished ones, a game's replay frames, and its
//! export to text and import back.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use serde_json::{Value, json};

use crate::error::AppError;
use crate::session::{Play, Session, sides};
use crate::state::AppState;
use crate::store::Listing;
use crate::view;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/lobby", get(lobby))
        .route("/api/records", get(records))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/export", get(export))
        .route("/api/import", post(import))
}

#[derive(Debug, Serialize)]
struct LobbyGame {
    id: String,
    game: String,
    size: u8,
    time_control: String,
    team_size: u8,
    teams: BTreeMap<String, Vec<String>>,
    free: BTreeMap<String, usize>,
    ply: usize,
}

fn names(s: &Session) -> BTreeMap<String, Vec<String>> {
    sides(&s.row.game)
        .iter()
        .map(|side| {
            let who = if s.is_online() {
                s.team(side).iter().map(|m| m.name.clone()).collect()
            } else if s.machine_side().as_deref() == Some(*side) {
                vec!["machine".to_owned()]
            } else {
                vec![]
            };
            ((*side).to_owned(), who)
        })
        .collect()
}

async fn lobby(State(app): State<AppState>) -> Result<Json<Value>, AppError> {
    let (mut open, mut live) = (Vec::new(), Vec::new());
    for listing in app.store.lobby().await? {
        let session = app.session(&listing.id).await?;
        let s = session.lock().await;
        let size = usize::from(s.row.team_size);
        let item = LobbyGame {
            id: listing.id,
            game: listing.game,
            size: listing.size,
            time_control: listing.time_control,
            team_size: listing.team_size,
            teams: names(&s),
            free: sides(&s.row.game)
                .iter()
                .map(|side| ((*side).to_owned(), size - s.team(side).len().min(size)))
                .collect(),
            ply: s.play.ply(),
        };
        match s.status() {
            "waiting" => open.push(item),
            "playing" => live.push(item),
            _ => {}
        }
    }
    Ok(Json(json!({ "open": open, "live": live })))
}

async fn records(State(app): State<AppState>) -> Result<Json<Vec<Value>>, AppError> {
    let mut out = Vec::new();
    for Listing {
        id,
        game,
        size,
        result_winner,
        result_reason,
        moves,
        updated_at,
        ..
    } in app.store.records().await?
    {
        let session = app.session(&id).await?;
        let players = names(&*session.lock().await);
        out.push(json!({
            "id": id, "game": game, "size": size, "players": players,
            "result": {"winner": result_winner, "reason": result_reason},
            "moves": moves, "ended_at": updated_at,
        }));
    }
    Ok(Json(out))
}

async fn replay(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, AppError> {
    let session = app.session(&id).await?;
    let s = session.lock().await;
    Ok(Json(
        json!({ "game": s.row.game, "size": s.row.size, "frames": view::frames(&s.play) }),
    ))
}

/// Headers in brackets, a blank line, then the moves numbered by turn.
fn export_text(s: &Session) -> String {
    let mut text = format!(
        "[Game \"{}\"]\n[Size \"{}\"]\n[Start \"{}\"]\n",
        s.row.game, s.row.size, s.row.start_fen
    );
    for (side, who) in names(s) {
        let who = if who.is_empty() {
            "human".to_owned()
        } else {
            who.join(", ")
        };
        text.push_str(&format!(
            "[{} \"{}\"]\n",
            capitalise(&side),
            who.replace('"', "'")
        ));
    }
    let result = s.result().map_or_else(
        || "*".to_owned(),
        |r| match r.winner {
            Some(w) => format!("{w} wins by {}", r.reason),
            None => format!("draw by {}", r.reason),
        },
    );
    text.push_str(&format!("[Result \"{result}\"]\n\n"));
    for (i, pair) in s.play.moves().chunks(2).enumerate() {
        text.push_str(&format!("{}. {}\n", i + 1, pair.join(" ")));
    }
    text
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

async fn export(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, AppError> {
    let session = app.session(&id).await?;
    let text = export_text(&*session.lock().await);
    let disposition = format!("attachment; filename=\"palabre-{id}.txt\"");
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    ))
}

/// Reads an exported game back: checks every move and answers with the
/// replay frames (nothing is stored).
async fn import(body: String) -> Result<Json<Value>, AppError> {
    let mut headers = BTreeMap::new();
    let mut moves = Vec::new();
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
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
    let game = headers
        .get("game")
        .cloned()
        .ok_or_else(|| AppError::BadRequest("missing [Game \"…\"]".into()))?;
    let start = match headers.get("start") {
        Some(fen) => fen.clone(),
        None => match game.as_str() {
            "yote" => palabre_rules::yote::Position::START.to_string(),
            _ => {
                let size = headers
                    .get("size")
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(8);
                palabre_rules::nsolo::Position::start(size)
                    .map_err(|e| AppError::BadRequest(e.to_string()))?
                    .to_string()
            }
        },
    };
    let mut play = Play::start(&game, &start).map_err(|e| AppError::BadRequest(e.to_string()))?;
    for (ply, m) in moves.iter().enumerate() {
        play.play(m)
            .map_err(|e| AppError::IllegalMove(format!("ply {ply}: {m}: {e:?}")))?;
    }
    let size = headers
        .get("size")
        .and_then(|s| s.parse::<u8>().ok())
        .unwrap_or(if game == "yote" { 5 } else { 8 });
    Ok(Json(
        json!({ "game": game, "size": size, "frames": view::frames(&play) }),
    ))
}
