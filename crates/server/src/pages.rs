//! The pages and their assets, embedded in the binary from `web/`. A path
//! that names nothing, or a game that does not exist, gets the « Page
//! introuvable » page with a 404 (and the API's JSON error under `/api/`).

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::RustEmbed;

use crate::error::AppError;
use crate::state::AppState;

#[derive(RustEmbed)]
#[folder = "../../web/"]
#[exclude = "tests/*"]
#[exclude = "*/node_modules/*"]
struct Web;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(|| page("index.html")))
        .route("/nouvelle", get(|| page("new.html")))
        .route("/new", get(|| page("new.html")))
        .route("/yote/regles", get(|| page("yote-rules.html")))
        .route("/yote/rules", get(|| page("yote-rules.html")))
        .route("/nsolo/regles", get(|| page("nsolo-rules.html")))
        .route("/nsolo/rules", get(|| page("nsolo-rules.html")))
        .route(
            "/partie/{id}",
            get(|s: State<AppState>, id: Path<String>| game_page(s, id, "game.html")),
        )
        .route(
            "/partie/{id}/rejoindre",
            get(|s: State<AppState>, id: Path<String>| game_page(s, id, "join.html")),
        )
        .route("/salon", get(|| page("lobby.html")))
        .route("/parties", get(|| page("records.html")))
        .route(
            "/parties/{id}",
            get(|s: State<AppState>, id: Path<String>| game_page(s, id, "replay.html")),
        )
        .route("/assets/{*path}", get(asset))
}

fn file(path: &str, cache: &'static str) -> Response {
    match Web::get(path) {
        Some(f) => (
            [
                (header::CONTENT_TYPE, f.metadata.mimetype().to_owned()),
                (header::CACHE_CONTROL, cache.to_owned()),
            ],
            f.data.into_owned(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

async fn page(name: &'static str) -> Response {
    file(name, "no-cache")
}

fn not_found_page() -> Response {
    (StatusCode::NOT_FOUND, file("404.html", "no-cache")).into_response()
}

/// A page about one game, or the 404 page if there is no such game (a
/// database that cannot answer lets the page say so itself).
async fn game_page(
    State(app): State<AppState>,
    Path(id): Path<String>,
    name: &'static str,
) -> Response {
    match app.store().exists(&id).await {
        Ok(false) => not_found_page(),
        _ => file(name, "no-cache"),
    }
}

/// Whatever no route serves: the API's `not_found`, or the 404 page.
pub async fn fallback(uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        AppError::NotFound.into_response()
    } else {
        not_found_page()
    }
}

async fn asset(Path(path): Path<String>) -> Response {
    file(&format!("assets/{path}"), "public, max-age=300")
}
