//! `POST /api/tables/yote`: what this server's Yoté endgame tables say of
//! some positions, for the replay page's analysis. The browser's engine has
//! no tables (they weigh hundreds of megabytes), so the page asks here for
//! the positions of a game and shows « gagnant en N » or « nulle » where
//! the tables hold them. Reading only: no game is touched. `GET` on the
//! same path says whether this server has tables at all, so that a page
//! asks only one that has (a 404 would show in the browser's console).

use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use palabre_ai::tables::Tables;
use palabre_rules::yote;
use serde::{Deserialize, Serialize};

use crate::api::Body;
use crate::error::AppError;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/tables/yote", get(available).post(probe))
}

/// Whether this server has Yoté endgame tables (`--tables`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Availability {
    /// `false` when the server runs without `--tables`: a probe would
    /// answer 404 `no_tables`.
    pub available: bool,
}

/// Whether the server has Yoté endgame tables to probe.
#[utoipa::path(
    get,
    path = "/api/tables/yote",
    operation_id = "tablesAvailable",
    tag = "tables",
    responses((status = 200, description = "Whether there are tables", body = Availability))
)]
pub async fn available(State(app): State<AppState>) -> Json<Availability> {
    Json(Availability {
        available: app.games.thinker().tables().is_some(),
    })
}

/// The most positions one request may ask about: a long game's every ply
/// fits in two requests, and the body stays under the server's limit.
pub const MAX_POSITIONS: usize = 300;

/// Positions to look up.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"positions": ["5/2r2/2b2/5/5 0 0 r 0"]}))]
pub struct ProbeRequest {
    /// Yoté position strings.
    #[schema(max_items = 300)]
    positions: Vec<String>,
}

/// The tables' answers, one a position asked, in order.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ProbeAnswer {
    /// `null` where the tables do not hold the position (a reserve is not
    /// empty, too many balls, a side has none left).
    #[schema(required)]
    pub positions: Vec<Option<Verdict>>,
}

/// A position's value for the side to move.
#[derive(Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct Verdict {
    #[schema(value_type = String, example = "win")]
    pub result: &'static str,
    /// Plies to the capture (or the end) that keeps a win or a loss, as
    /// chess's DTZ; `null` for a draw.
    #[schema(required)]
    pub dtc: Option<u8>,
    /// The move that keeps the result best; `null` when the game is over.
    #[schema(required)]
    pub best: Option<String>,
}

/// What the tables say of one position, or `None` where they do not hold it.
pub fn verdict(tables: &Tables, position: &yote::Position) -> Option<Verdict> {
    let probe = tables.probe(position).ok()?;
    let best = tables.best_move(position).ok()?;
    Some(Verdict {
        result: probe.wdl.as_str(),
        dtc: probe.distance(),
        best: best.map(|c| c.mv.to_string()),
    })
}

/// Looks positions up in the endgame tables; a malformed position refuses
/// the whole request, and a server without tables answers 404 `no_tables`.
#[utoipa::path(
    post,
    path = "/api/tables/yote",
    operation_id = "probeTables",
    tag = "tables",
    request_body = ProbeRequest,
    responses(
        (status = 200, description = "One answer a position", body = ProbeAnswer),
        (status = 400, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
    )
)]
pub async fn probe(
    State(app): State<AppState>,
    Body(req): Body<ProbeRequest>,
) -> Result<Json<ProbeAnswer>, AppError> {
    let tables: Arc<Tables> = app.games.thinker().tables().ok_or(AppError::NoTables)?;
    if req.positions.len() > MAX_POSITIONS {
        return Err(AppError::BadRequest(format!(
            "at most {MAX_POSITIONS} positions a request"
        )));
    }
    let positions = req
        .positions
        .iter()
        .enumerate()
        .map(|(i, text)| {
            text.parse::<yote::Position>()
                .map_err(|e| AppError::BadRequest(format!("position {i}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    // A table not read yet is read from disk: off the runtime.
    let answers = tokio::task::spawn_blocking(move || {
        positions.iter().map(|p| verdict(&tables, p)).collect()
    })
    .await
    .map_err(|e| AppError::Internal(e.into()))?;
    Ok(Json(ProbeAnswer { positions: answers }))
}
