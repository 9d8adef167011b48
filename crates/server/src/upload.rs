//! `POST /api/records`: a game finished in a browser, offline, sent to the
//! server as a record once the network is back, so that it is listed with
//! the others, replayed, exported and analysed.
//!
//! The body names the game, its board, its moves from the standard start,
//! who played it and an end the moves do not show (a resignation or an
//! agreed draw). Every move is checked by the rules and the game must be
//! over; a refused record stores nothing. The game's id comes from the
//! browser's own id for it, so the same upload sent twice stores one game
//! (the second answer says `"stored": false`).

use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use palabre_ai::Level;
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::api::start_fen;
use crate::archive::IMPORT_LIMIT;
use crate::clock::TimeControl;
use crate::domain::{EndReason, Ended, GameKind, Opponent, Side};
use crate::error::AppError;
use crate::game::Game;
use crate::guards::ClientIp;
use crate::play::Play;
use crate::seats::{random_token, seat_hash};
use crate::state::AppState;
use crate::store::{GameRow, StoredMove};

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/api/records",
        post(upload).layer(DefaultBodyLimit::max(IMPORT_LIMIT)),
    )
}

/// A game finished offline.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "client_id": "Lexample", "game": "yote", "moves": ["c3", "c4"], "opponent": "local",
    "ended": {"winner": "black", "reason": "resignation"}
}))]
pub struct Upload {
    /// The browser's id for the game (`L` and letters).
    #[schema(min_length = 1, max_length = 64)]
    client_id: String,
    #[schema(value_type = GameKind)]
    game: String,
    /// Nsolo: pits a row, 8 to 36 (default 8).
    #[serde(default)]
    #[schema(minimum = 8, maximum = 36)]
    size: Option<u8>,
    /// Every move from the standard start.
    moves: Vec<String>,
    /// `machine` or `local` (two people on one screen).
    #[schema(value_type = crate::openapi::shapes::OfflineOpponent)]
    opponent: String,
    /// Against the machine: its level.
    #[serde(default)]
    #[schema(value_type = Option<crate::openapi::shapes::LevelName>)]
    level: Option<String>,
    /// The person's side against the machine.
    #[serde(default)]
    #[schema(value_type = Option<Side>)]
    human: Option<String>,
    /// An end the moves do not show.
    #[serde(default)]
    ended: Option<UploadEnd>,
}

/// A resignation (with the winner) or an agreed draw (without).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UploadEnd {
    #[schema(value_type = Option<Side>)]
    winner: Option<String>,
    #[schema(value_type = crate::openapi::shapes::PeopleEnd)]
    reason: String,
}

fn bad(why: impl std::fmt::Display) -> AppError {
    AppError::BadRequest(format!("record: {why}"))
}

/// The stored game's id, shaped like every other (12 hex digits): the
/// start of a hash of the browser's id.
fn id_for(client_id: &str) -> String {
    hex::encode(Sha256::digest(client_id.as_bytes()))[..12].to_owned()
}

fn side_of(kind: GameKind, name: &str) -> Result<Side, AppError> {
    let side: Side = name.parse().map_err(bad)?;
    kind.side(side)
        .ok_or_else(|| bad(format!("no side {name} in this game")))
}

/// An end the moves cannot show: a resignation or an agreed draw.
fn people_end(kind: GameKind, end: &UploadEnd) -> Result<Ended, AppError> {
    let reason: EndReason = end.reason.parse().map_err(bad)?;
    match (reason, end.winner.as_deref()) {
        (EndReason::Resignation, Some(w)) => Ok(Ended::win(side_of(kind, w)?, reason)),
        (EndReason::Agreement, None) => Ok(Ended::draw(reason)),
        _ => Err(bad(
            "an end by the people is a resignation with a winner or an agreed draw",
        )),
    }
}

/// The checked game, ready to store.
fn game_of(u: &Upload, max_plies: usize, account: Option<i64>) -> Result<Game, AppError> {
    if u.client_id.is_empty() || u.client_id.len() > 64 {
        return Err(bad("client_id is 1 to 64 characters"));
    }
    if u.moves.len() > max_plies {
        return Err(AppError::TooLarge);
    }
    let kind: GameKind = u.game.parse().map_err(bad)?;
    let (fen, size) = start_fen(kind, u.size.unwrap_or(8))?;
    let opponent: Opponent = u.opponent.parse().map_err(bad)?;
    let (level, human) = match opponent {
        Opponent::Machine => {
            let level: Level = u.level.as_deref().unwrap_or("").parse().map_err(bad)?;
            let human = side_of(kind, u.human.as_deref().unwrap_or(""))?;
            (level, Some(human))
        }
        Opponent::Local => (Level::Debutant, None),
        Opponent::Online => return Err(bad("games online are on the server already")),
    };
    let play = Play::replay(kind, &fen, &u.moves).map_err(|(_, why)| bad(why))?;
    let ended = match (&u.ended, play.outcome()) {
        (None, Some(_)) => None,
        (Some(end), None) => Some(people_end(kind, end)?),
        (None, None) => return Err(bad("the game is not over")),
        (Some(_), Some(_)) => return Err(bad("the moves end the game already")),
    };
    let row = GameRow {
        id: id_for(&u.client_id),
        kind,
        size,
        start_fen: fen,
        opponent,
        level,
        human,
        // Nobody holds a seat in a record: a random one nobody knows.
        seat_hash: seat_hash(&random_token(16)),
        ended,
        team_size: 1,
        time_control: TimeControl::None,
        started_at_ms: Some(crate::clock::now_ms()),
        rematch_id: None,
        damaged: None,
        account,
        rated: false,
        rating_range: None,
        clock_credit_ms: 0,
    };
    let moves: Vec<StoredMove> = play
        .moves()
        .into_iter()
        .enumerate()
        .map(|(ply, notation)| StoredMove {
            ply,
            notation,
            played_at_ms: None,
            clock_ms: None,
        })
        .collect();
    Ok(Game::replay(row, &moves, Vec::new()))
}

/// Stores a game finished offline as a record; the same game sent twice
/// is stored once.
#[utoipa::path(
    post,
    path = "/api/records",
    operation_id = "uploadRecord",
    tag = "records",
    request_body = Upload,
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "Stored", body = crate::openapi::shapes::Uploaded),
        (status = 200, description = "Sent before: stored already", body = crate::openapi::shapes::Uploaded),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn upload(
    State(app): State<AppState>,
    ip: ClientIp,
    viewer: crate::accounts::Viewer,
    body: Result<Json<Upload>, axum::extract::rejection::JsonRejection>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    app.guards.imports.check(ip)?;
    let Json(u) = body.map_err(|r| match r.status() {
        StatusCode::PAYLOAD_TOO_LARGE => AppError::TooLarge,
        _ => bad(r.body_text()),
    })?;
    // A signed-in player's local games join their account's.
    let game = game_of(&u, app.guards.limits.import_plies, viewer.id())?;
    let stored = app.games.import_finished(&game).await?;
    let status = if stored {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(json!({ "id": game.row.id, "stored": stored }))))
}
