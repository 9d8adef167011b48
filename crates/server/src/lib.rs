//! Palabre's web server.
//!
//! - [`app`] builds the whole router from one [`AppState`]: the API
//!   ([`api`]), the live event streams ([`events`]) and the pages ([`pages`]).
//! - [`store`] keeps games and moves in SQLite; [`session`] is a live game in
//!   memory, replayed from the store; [`view`] is the JSON the pages read.
//! - [`machine`] plays the machine's moves on the AI worker pool.
//! - [`error`] is the one error type, with its string codes.

pub mod actions;
pub mod api;
pub mod bots;
pub mod clock;
pub mod error;
pub mod events;
pub mod headers;
pub mod live;
pub mod lobby;
pub mod machine;
pub mod pages;
pub mod seats;
pub mod session;
pub mod state;
pub mod store;
pub mod timer;
pub mod view;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use tower_http::compression::CompressionLayer;

pub use state::{AppState, Config};

/// Largest request body accepted.
pub const BODY_LIMIT: usize = 16 * 1024;

/// The whole application.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(api::router())
        .merge(events::router())
        .merge(live::router())
        .merge(lobby::router())
        .merge(pages::router())
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(CompressionLayer::new())
        .layer(headers::security())
        .with_state(state)
}

/// Serves `app` on `addr` until Ctrl-C.
pub async fn serve(config: Config) -> anyhow::Result<()> {
    let state = AppState::open(&config).await?;
    let listener = tokio::net::TcpListener::bind(&config.addr).await?;
    tracing::info!("Palabre serves http://{}", listener.local_addr()?);
    axum::serve(listener, app(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
