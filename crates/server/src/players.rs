//! Players in public: a profile by username (ratings, their history, the
//! results and the recent games) and the leaderboards of each pool.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::api::Path;
use crate::error::AppError;
use crate::lobby::listing_json;
use crate::ratings::{Pool, every_pool};
use crate::state::AppState;
use crate::store::RatingPoint;

/// Recent games on a profile.
const RECENT: i64 = 30;
/// Places on a leaderboard.
const BOARD: i64 = 100;
/// A leaderboard lists players with this many games at least…
pub const BOARD_MIN_GAMES: i64 = 10;
/// …and a deviation under this (a rating that is known well enough).
pub const BOARD_MAX_DEVIATION: f64 = 110.0;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/users/{username}", get(profile))
        .route("/api/leaderboard", get(leaderboards))
        .route("/api/leaderboard/{pool}", get(leaderboard))
}

/// A player in public: ratings and their history, results, recent online games.
#[utoipa::path(
    get,
    path = "/api/users/{username}",
    operation_id = "profile",
    tag = "players",
    params(("username" = String, Path, description = "The player's username (any case)")),
    responses(
        (status = 200, description = "The profile", body = crate::openapi::shapes::Profile),
        (status = 404, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn profile(
    State(app): State<AppState>,
    Path(username): Path<String>,
) -> Result<Json<Value>, AppError> {
    let store = app.store();
    let account = store
        .account_named(&username)
        .await?
        .ok_or(AppError::NotFound)?;
    let stored = store.ratings(account.id).await?;
    let results: BTreeMap<Pool, Value> = Pool::ALL
        .into_iter()
        .map(|pool| {
            let r = stored
                .iter()
                .find(|(p, _)| *p == pool)
                .map(|(_, r)| *r)
                .unwrap_or_default();
            (
                pool,
                json!({ "wins": r.wins, "draws": r.draws, "losses": r.losses }),
            )
        })
        .collect();
    let mut history: BTreeMap<Pool, Vec<RatingPoint>> =
        Pool::ALL.into_iter().map(|p| (p, Vec::new())).collect();
    for (pool, point) in store.rating_history(account.id).await? {
        history.entry(pool).or_default().push(point);
    }
    let games = store.account_games(account.id, RECENT).await?;
    Ok(Json(json!({
        "username": account.username,
        "bot": account.bot,
        "created_at": account.created_at,
        "ratings": every_pool(&stored),
        "results": results,
        "history": history,
        "games": games
            .iter()
            .filter(|g| g.opponent == crate::domain::Opponent::Online)
            .map(listing_json)
            .collect::<Vec<_>>(),
    })))
}

async fn board(app: &AppState, pool: Pool) -> Result<Value, AppError> {
    let ranked = app
        .store()
        .leaderboard(pool, BOARD_MIN_GAMES, BOARD_MAX_DEVIATION, BOARD)
        .await?;
    let players: Vec<Value> = ranked
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "rank": i + 1,
                "username": r.username,
                "bot": r.bot,
                "rating": r.rating,
                "deviation": r.deviation,
                "games": r.games,
            })
        })
        .collect();
    Ok(json!({ "pool": pool, "players": players }))
}

/// One pool's leaderboard: players with 10 rated games at least and a
/// rating known well enough, 100 at most.
#[utoipa::path(
    get,
    path = "/api/leaderboard/{pool}",
    operation_id = "leaderboard",
    tag = "players",
    params(("pool" = Pool, Path, description = "`yote`, `nsolo8` (Nsolo on 4×8) or `nsolo` (larger boards)")),
    responses(
        (status = 200, description = "The leaderboard", body = crate::openapi::shapes::Leaderboard),
        (status = 404, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn leaderboard(
    State(app): State<AppState>,
    Path(pool): Path<String>,
) -> Result<Json<Value>, AppError> {
    let pool: Pool = pool.parse().map_err(|_| AppError::NotFound)?;
    Ok(Json(board(&app, pool).await?))
}

/// Every pool's leaderboard.
#[utoipa::path(
    get,
    path = "/api/leaderboard",
    operation_id = "leaderboards",
    tag = "players",
    responses(
        (status = 200, description = "The leaderboards", body = crate::openapi::shapes::Leaderboards),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn leaderboards(State(app): State<AppState>) -> Result<Json<Value>, AppError> {
    let mut all = serde_json::Map::new();
    for pool in Pool::ALL {
        all.insert(pool.to_string(), board(&app, pool).await?);
    }
    Ok(Json(Value::Object(all)))
}
