//! The Bot API, in the shapes of lichess's, so that the authors of lichess
//! bots feel at home: a personal token with the `bot:play` scope, an
//! account upgraded to a bot, an event stream, challenges, and a stream and
//! moves for each game. `palabre bot` connects any engine through it.
//!
//! - [`hub`]: each account's events on this node.
//! - [`events`]: `/api/stream/event`; [`challenges`]: `/api/challenge/…`;
//!   [`play`]: `/api/bot/…`; [`streams`]: NDJSON responses.

pub mod challenges;
pub mod events;
pub mod hub;
pub mod play;
pub mod streams;

use axum::Router;

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .merge(events::router())
        .merge(challenges::router())
        .merge(play::router())
}
