//! `GET /api/games/{id}/events`: server-sent events, one `state` event now
//! and one after every change of the game.

use std::convert::Infallible;
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use futures_util::stream::{self, Stream, StreamExt};
use tokio_stream::wrappers::BroadcastStream;

use crate::error::AppError;
use crate::state::AppState;
use crate::view;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/events", get(events))
}

async fn events(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, AppError> {
    let session = app.session(&id).await?;
    let (now, updates) = {
        let s = session.lock().await;
        (
            serde_json::to_string(&view::state(&s)).map_err(|e| AppError::Internal(e.into()))?,
            s.events.subscribe(),
        )
    };
    let first = stream::once(async move { now.into() });
    // A subscriber that falls behind skips to the next state: each is whole.
    let later = BroadcastStream::new(updates).filter_map(|r| async move { r.ok() });
    let stream = first
        .chain(later)
        .map(|json: std::sync::Arc<str>| Ok(Event::default().event("state").data(json.as_ref())));
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}
