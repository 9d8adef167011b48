//! Palabre's web server.
//!
//! - [`app`] builds the router from one [`AppState`]: the API ([`api`]),
//!   the live socket ([`live`]), the lists ([`lobby`]), records
//!   ([`archive`]), [`status`] and the pages ([`pages`]), with the
//!   picture of a game for link previews ([`preview`]), and the web
//!   manifest and service worker that make it an installable app ([`pwa`]),
//!   and the API's own OpenAPI document and the page that shows it
//!   ([`openapi`]).
//! - [`game`] gives each game one owner, a task that applies every change
//!   to it in turn; [`store`] keeps games, moves and seats in SQLite.
//! - [`domain`] names games, sides, opponents, statuses and ends as types;
//!   [`play`] is a game's record; [`game::view`] is the JSON the pages read;
//!   [`clock`] keeps time controls.
//! - [`thinker`] runs every search on bounded pools.
//! - [`config`] holds the settings and limits, [`guards`] enforces them,
//!   [`net`] serves connections, [`error`] is the one error type.

pub mod accounts;
pub mod api;
pub mod archive;
pub mod bot;
pub mod bots;
pub mod clock;
pub mod cluster;
pub mod config;
pub mod domain;
pub mod endgame_tables;
pub mod engine_files;
pub mod error;
pub mod game;
pub mod guards;
pub mod headers;
pub mod live;
pub mod lobby;
pub mod names;
pub mod net;
pub mod openapi;
pub mod pages;
pub mod play;
pub mod players;
pub mod preview;
pub mod pwa;
pub mod ratings;
pub mod seats;
pub mod state;
pub mod status;
pub mod store;
pub mod table_dir;
pub mod thinker;
pub mod upload;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};
use tower_http::trace::TraceLayer;

pub use config::{Config, Limits};
pub use state::AppState;

/// Largest request body accepted (imports have their own limit).
pub const BODY_LIMIT: usize = 16 * 1024;

/// The whole application.
pub fn app(state: AppState) -> Router {
    let timeout = state.guards.limits.request_timeout;
    Router::new()
        .merge(api::router())
        .merge(live::router())
        .merge(lobby::router())
        .merge(archive::router())
        .merge(upload::router())
        .merge(status::router())
        .merge(endgame_tables::router())
        .merge(pages::router())
        .merge(engine_files::router())
        .merge(pwa::router())
        .merge(accounts::router())
        .merge(players::router())
        .merge(bot::router())
        .merge(openapi::router())
        .fallback(pages::fallback)
        .layer(axum::middleware::from_fn(accounts::session::csrf))
        .layer(accounts::session::layer(state.store().clone()))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(CompressionLayer::new().compress_when(
            // Streams go out line by line, not when a compressor's block fills.
            DefaultPredicate::new().and(NotForContentType::const_new("application/x-ndjson")),
        ))
        .layer(headers::security())
        .layer(RequestBodyTimeoutLayer::new(timeout))
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            timeout,
        ))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Resolves on Ctrl-C or SIGTERM.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => drop(s.recv().await),
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// Serves Palabre until Ctrl-C or SIGTERM, then stops gracefully: no new
/// connections, requests in progress finish, live connections are told,
/// and the store is closed.
pub async fn serve(config: Config) -> anyhow::Result<()> {
    let state = AppState::open(&config).await?;
    let listener = tokio::net::TcpListener::bind(&config.addr).await?;
    tracing::info!("Palabre serves http://{}", listener.local_addr()?);
    let shutdown = state.shutdown.clone();
    let stop = async move {
        stop_signal().await;
        tracing::info!("stopping");
        shutdown.cancel();
    };
    net::serve(listener, app(state.clone()), &config.limits, stop).await;
    state.games.shut_down();
    if let Some(cluster) = state.games.cluster() {
        // The other nodes take this node's games at once, not after expiry.
        match state.store().release_all(&cluster.node).await {
            Ok(n) => tracing::info!("{n} leases released"),
            Err(e) => tracing::warn!("releasing leases: {e}"),
        }
    }
    state.store().close().await;
    Ok(())
}
