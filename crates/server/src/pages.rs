//! The pages and their assets, embedded in the binary from `web/`.

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::RustEmbed;

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
        .route("/partie/{id}", get(|_: Path<String>| page("game.html")))
        .route(
            "/partie/{id}/rejoindre",
            get(|_: Path<String>| page("join.html")),
        )
        .route("/salon", get(|| page("lobby.html")))
        .route("/parties", get(|| page("records.html")))
        .route("/parties/{id}", get(|_: Path<String>| page("replay.html")))
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

async fn asset(Path(path): Path<String>) -> Response {
    file(&format!("assets/{path}"), "public, max-age=300")
}
