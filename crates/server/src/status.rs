//! `GET /api/status`: what the server holds now, for operators and load
//! tests: games in memory, live connections, queued searches, ponders,
//! memory.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/status", get(status))
}

/// The process's resident memory in bytes, where the system tells it.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// What the server holds now: games in memory, live connections, queued
/// searches, resident memory.
#[utoipa::path(
    get,
    path = "/api/status",
    operation_id = "status",
    tag = "status",
    responses((status = 200, description = "The server's load", body = crate::openapi::shapes::ServerStatus))
)]
async fn status(State(app): State<AppState>) -> Json<Value> {
    let (quick, deep) = app.games.thinker().queued();
    Json(json!({
        "games_in_memory": app.games.in_memory(),
        "sockets": app.guards.sockets(),
        "searches_queued": { "quick": quick, "deep": deep },
        "pondering": app.games.thinker().pondering(),
        "resident_bytes": resident_bytes(),
    }))
}
