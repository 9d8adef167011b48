//! The browser's engine, built from `crates/wasm` by this crate's build
//! step and embedded: `/assets/wasm/engine.js` (wasm-bindgen's loader) and
//! `/assets/wasm/engine_bg.wasm`. Where the build could not make them, the
//! folder is empty: the pages then say that offline play is missing.

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::RustEmbed;

use crate::state::AppState;

#[derive(RustEmbed)]
#[folder = "$OUT_DIR/wasm/"]
struct EngineFiles;

pub fn router() -> Router<AppState> {
    Router::new().route("/assets/wasm/{file}", get(file))
}

/// Whether the engine was built into this binary.
pub fn available() -> bool {
    EngineFiles::get("engine_bg.wasm").is_some()
}

/// The engine's files as the pages fetch them, with the sha256 of each
/// (the offline cache keeps them and counts them in its version).
pub fn files() -> impl Iterator<Item = (String, [u8; 32])> {
    EngineFiles::iter().filter_map(|f| {
        let sha256 = EngineFiles::get(&f)?.metadata.sha256_hash();
        Some((format!("/assets/wasm/{f}"), sha256))
    })
}

async fn file(Path(name): Path<String>) -> Response {
    match EngineFiles::get(&name) {
        Some(f) => (
            [
                (header::CONTENT_TYPE, f.metadata.mimetype().to_owned()),
                // The service worker keeps the engine by version; a browser
                // without one revalidates.
                (header::CACHE_CONTROL, "no-cache".to_owned()),
            ],
            f.data.into_owned(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
