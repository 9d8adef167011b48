//! Lists of games, answered by indexed queries: the lobby of online games
//! waiting for players or being played, and the records of finished games.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::{Value, json};

use crate::domain::{Ended, GameKind, Opponent, Side, Status};
use crate::error::AppError;
use crate::ratings::Pool;
use crate::state::AppState;
use crate::store::Listing;

/// Lines in a list.
const LIMIT: i64 = 200;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/lobby", get(lobby))
        .route("/api/records", get(records))
}

/// Who plays each side of a listed game.
pub fn names(l: &Listing) -> BTreeMap<Side, Vec<String>> {
    l.kind
        .sides()
        .into_iter()
        .map(|side| {
            let who = match l.opponent {
                Opponent::Online => l
                    .members
                    .iter()
                    .filter(|m| m.side == side)
                    .map(|m| m.name.clone())
                    .collect(),
                Opponent::Machine if l.human != Some(side) => vec!["machine".to_owned()],
                _ => vec![],
            };
            (side, who)
        })
        .collect()
}

/// A game in a list: who plays it, where it stands, how it ended.
pub fn listing_json(l: &Listing) -> Value {
    json!({
        "id": l.id,
        "game": l.kind,
        "size": l.size,
        "opponent": l.opponent,
        "players": names(l),
        "status": l.status,
        "result": l.result,
        "moves": l.ply,
        "rated": l.rated,
        "ended_at": l.finished_at,
    })
}

/// An online game in the lobby.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct LobbyGame {
    id: String,
    game: GameKind,
    size: u8,
    time_control: String,
    team_size: u8,
    /// Side to the names of its members.
    #[schema(value_type = BTreeMap<String, Vec<String>>)]
    teams: BTreeMap<Side, Vec<String>>,
    /// Side to the places still free in it.
    #[schema(value_type = BTreeMap<String, usize>)]
    free: BTreeMap<Side, usize>,
    ply: usize,
    rated: bool,
    /// A rated seek: its creator's rating now.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    rating: Option<f64>,
    /// A rated seek: the ratings it accepts, lowest and highest.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<i64>>, nullable = false, min_items = 2, max_items = 2)]
    rating_range: Option<[i64; 2]>,
}

/// The rating of a rated seek's creator, in the seek's pool.
async fn creator_rating(app: &AppState, l: &Listing) -> Result<Option<f64>, AppError> {
    let creator = l.members.iter().find_map(|m| m.account);
    match creator {
        Some(account) if l.rated && l.status == Status::Waiting => {
            let pool = Pool::of(l.kind, l.size);
            Ok(Some(app.store().rating(account, pool).await?.rating))
        }
        _ => Ok(None),
    }
}

/// The lobby: online games waiting for players (`open`) and being played
/// (`live`), 200 at most.
#[utoipa::path(
    get,
    path = "/api/lobby",
    operation_id = "lobby",
    tag = "lists",
    responses(
        (status = 200, description = "The lobby", body = crate::openapi::shapes::Lobby),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn lobby(State(app): State<AppState>) -> Result<Json<Value>, AppError> {
    let (mut open, mut live) = (Vec::new(), Vec::new());
    for l in app.store().lobby(LIMIT).await? {
        let rating = creator_rating(&app, &l).await?;
        let size = usize::from(l.team_size);
        let teams = names(&l);
        let item = LobbyGame {
            free: teams
                .iter()
                .map(|(side, who)| (*side, size.saturating_sub(who.len())))
                .collect(),
            teams,
            id: l.id,
            game: l.kind,
            size: l.size,
            time_control: l.time_control.to_string(),
            team_size: l.team_size,
            ply: l.ply,
            rated: l.rated,
            rating,
            rating_range: l.rating_range.map(|(a, b)| [a, b]),
        };
        match l.status {
            Status::Waiting => open.push(item),
            _ => live.push(item),
        }
    }
    Ok(Json(json!({ "open": open, "live": live })))
}

/// A finished game in the records.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = FinishedGame)]
pub struct Record {
    id: String,
    game: GameKind,
    size: u8,
    /// Side to the names of who played it.
    #[schema(value_type = BTreeMap<String, Vec<String>>)]
    players: BTreeMap<Side, Vec<String>>,
    #[schema(required)]
    result: Option<Ended>,
    /// Moves played.
    moves: usize,
    /// When it ended, in milliseconds since the epoch.
    #[schema(required)]
    ended_at: Option<i64>,
    rated: bool,
}

/// Finished games, 200 at most.
#[utoipa::path(
    get,
    path = "/api/records",
    operation_id = "listRecords",
    tag = "lists",
    responses(
        (status = 200, description = "Finished games", body = Vec<Record>),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn records(State(app): State<AppState>) -> Result<Json<Vec<Record>>, AppError> {
    let list = app.store().records(LIMIT).await?;
    Ok(Json(
        list.into_iter()
            .map(|l| Record {
                players: names(&l),
                id: l.id,
                game: l.kind,
                size: l.size,
                result: l.result,
                moves: l.ply,
                ended_at: l.finished_at,
                rated: l.rated,
            })
            .collect(),
    ))
}
