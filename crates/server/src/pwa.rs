//! The installable app: the web manifest (`/manifest.webmanifest`) and the
//! service worker (`/sw.js`) that keeps the app shell for offline use.
//!
//! The worker is `web/sw.js` with two placeholders filled here: its
//! version, a hash over the content of every embedded file, and the list of
//! addresses it keeps (the pages, every file under `/assets/`, the
//! manifest). Any change to any file thus gives a new worker, which the
//! browser installs beside the running one; the pages then offer to switch
//! (`web/assets/js/pwa.js`). Both answers are `no-cache`, so the browser
//! asks for them again on every visit.

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use sha2::{Digest, Sha256};

use crate::pages;
use crate::state::AppState;

/// The pages kept for offline use, by their French paths (the worker maps
/// the English ones onto these).
const PAGES: &[&str] = &[
    "/",
    "/nouvelle",
    "/mes-parties",
    "/partie-locale",
    "/partie-locale/revoir",
    "/yote/regles",
    "/nsolo/regles",
    "/parties",
];

const MANIFEST: &str = "manifest.webmanifest";
const TEMPLATE: &str = "sw.js";
/// The template's lines that the server fills.
const VERSION_LINE: &str = "const VERSION = \"__VERSION__\";";
const PRECACHE_LINE: &str = "const PRECACHE = [\"__PRECACHE__\"];";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/sw.js", get(worker))
        .route("/manifest.webmanifest", get(manifest))
}

/// The worker's version: the first 16 hex digits of a sha256 over every
/// file's address and content hash, in a fixed order.
fn version(files: &[(String, [u8; 32])]) -> String {
    let mut sorted: Vec<_> = files.iter().collect();
    sorted.sort();
    let mut h = Sha256::new();
    for (path, sha256) in sorted {
        h.update(path.as_bytes());
        h.update([0]);
        h.update(sha256);
    }
    hex::encode(&h.finalize()[..8])
}

/// The service worker's text from `template`. `extra` are files served
/// outside `web/assets/` that the worker must keep too, as their address
/// and the sha256 of their content (the engine's WebAssembly under
/// `/assets/wasm/`): their content counts in the version like the rest.
pub(crate) fn service_worker(
    template: &str,
    extra: impl IntoIterator<Item = (String, [u8; 32])>,
) -> String {
    // Every embedded file counts in the version (a page or the worker's own
    // template too), but only the assets and the manifest are kept by file.
    let mut files: Vec<(String, [u8; 32])> = pages::embedded()
        .map(|(path, sha256)| (format!("/{path}"), sha256))
        .collect();
    let mut assets: Vec<&str> = files
        .iter()
        .map(|(path, _)| path.as_str())
        .filter(|path| path.starts_with("/assets/"))
        .collect();
    assets.sort_unstable();
    let mut precache: Vec<String> = PAGES.iter().map(|p| (*p).to_owned()).collect();
    precache.push(format!("/{MANIFEST}"));
    precache.extend(assets.into_iter().map(str::to_owned));
    let extra: Vec<_> = extra.into_iter().collect();
    precache.extend(extra.iter().map(|(path, _)| path.clone()));
    files.extend(extra);
    let version = serde_json::to_string(&version(&files)).unwrap_or_default();
    let precache = serde_json::to_string(&precache).unwrap_or_default();
    template
        .replacen(VERSION_LINE, &format!("const VERSION = {version};"), 1)
        .replacen(PRECACHE_LINE, &format!("const PRECACHE = {precache};"), 1)
}

async fn worker() -> Response {
    let Some(template) = pages::embedded_file(TEMPLATE) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let text = service_worker(
        &String::from_utf8_lossy(&template),
        crate::engine_files::files(),
    );
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

async fn manifest() -> Response {
    match pages::embedded_file(MANIFEST) {
        Some(data) => (
            [
                (header::CONTENT_TYPE, "application/manifest+json"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            data.into_owned(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
