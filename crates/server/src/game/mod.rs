//! One owner per game. Every command that reads or changes a game is a
//! message to that game's owner, a task that handles them one at a time:
//! check with the rules, store in one transaction, apply, publish once. The
//! owner also holds the game's clock timer and the machine's pending search;
//! a search's answer names the search it answers, and an answer to a search
//! that is no longer current is dropped. Idle owners stop and are rebuilt
//! from the store on the next request.
//!
//! - [`registry`]: finds or starts the owner of a game, creates games, and
//!   wakes games whose clock fell or whose machine is to move.
//! - [`owner`]: the owner's loop; [`moves`], [`takeback`], [`ending`] and
//!   [`seating`] are what it does with each command.
//! - [`state`]: the game as the owner holds it; [`view`]: the game as the
//!   pages read it.
//! - [`presence`]: a live connection's presence, given back when it drops;
//!   in a cluster, each node's count of its own connections.

mod ending;
mod moves;
mod owner;
mod presence;
pub mod registry;
mod seating;
pub mod state;
mod takeback;
pub mod view;

use std::sync::Arc;

use palabre_ai::{Level, Request, Thought};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, oneshot};

use crate::domain::Side;
use crate::error::AppError;
use crate::seats::{Key, Role};

pub use presence::{Held, Presence, REPORT_EVERY, Report};
pub use registry::Games;
pub use state::Game;

/// Where a command's answer goes.
pub type Reply<T> = oneshot::Sender<Result<T, AppError>>;

/// A read of the game, run by its owner between two changes (or told why
/// there is no game to read).
pub type ReadFn = Box<dyn FnOnce(Result<&Game, AppError>) + Send>;

/// What can be asked of a game's owner.
pub enum Command {
    Read(ReadFn),
    /// Opens a live connection: its role, the state now and every later
    /// one. `counted`: the owner counts the member present until the
    /// subscription's presence is dropped; otherwise (a cluster) the
    /// connection's node counts it and reports.
    Subscribe {
        key: Option<Key>,
        counted: bool,
        reply: Reply<Subscription>,
    },
    /// A live connection of `role` closed.
    Leave {
        role: Role,
    },
    /// A node's count of its connections to the game.
    Present {
        from: String,
        report: Report,
    },
    /// A player's action, authorised by their seat or account.
    Act {
        key: Option<Key>,
        action: Action,
        reply: Reply<Acted>,
    },
    Join {
        joiner: Joiner,
        side: Option<Side>,
        reply: Reply<Joined>,
    },
    /// The sweeper saw the running clock fall.
    Flag,
    /// Load the game (the machine may be to move).
    Wake,
    /// This node no longer holds the game's lease: stop at once.
    Lost,
    /// An account that played here was deleted (the store renamed it).
    AccountDeleted {
        account: i64,
    },
    MachineDone {
        token: u64,
        thought: Thought,
    },
    DrawDecided {
        token: u64,
        thought: Thought,
    },
}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Command::Read(_) => "Read",
            Command::Subscribe { .. } => "Subscribe",
            Command::Leave { .. } => "Leave",
            Command::Present { .. } => "Present",
            Command::Act { .. } => "Act",
            Command::Join { .. } => "Join",
            Command::Flag => "Flag",
            Command::Wake => "Wake",
            Command::Lost => "Lost",
            Command::AccountDeleted { .. } => "AccountDeleted",
            Command::MachineDone { .. } => "MachineDone",
            Command::DrawDecided { .. } => "DrawDecided",
        })
    }
}

/// A draw or take-back offer, or the answer to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

/// What a player does to a game (and, between nodes, what one forwards).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Action {
    Move {
        notation: String,
        ply: usize,
    },
    Draw(DrawAction),
    /// On one screen, `side` names the side that resigns.
    Resign {
        side: Option<Side>,
    },
    Abort,
    Start,
    /// Against the machine or on one screen: take back at once.
    TakeBack,
    /// Online: offer a take-back, or answer the other side's offer made at
    /// `ply`.
    TakeBackOffer {
        action: DrawAction,
        ply: Option<usize>,
    },
    Rematch,
    /// The position to search for a hint, at this level (asked of the
    /// owner's node as a whole, never forwarded as an action).
    #[serde(skip)]
    Hint {
        level: Level,
    },
}

/// How an action went.
#[derive(Debug, Serialize, Deserialize)]
pub enum Done {
    /// A new move was stored.
    Moved,
    /// The move repeats the last one: acknowledged again, nothing changed.
    Duplicate,
    Changed,
    /// The rematch game and the asker's `seat` in it: theirs already when
    /// this request `created` it, else the caller joins it with that seat
    /// on `side` as `name`.
    Rematch {
        id: String,
        seat: String,
        created: bool,
        side: Side,
        name: String,
        account: Option<i64>,
        bot: bool,
    },
    #[serde(skip)]
    Hint(Box<Request>),
}

/// An action's answer: how it went and the state after it.
#[derive(Debug)]
pub struct Acted {
    pub done: Done,
    pub state: Arc<str>,
}

/// Who takes a place in an online game: the name shown, and, signed in,
/// their account and its rating in the game's pool.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Joiner {
    pub name: String,
    pub account: Option<i64>,
    pub bot: bool,
    /// The account's rating in each pool it has played in.
    pub ratings: Vec<(crate::ratings::Pool, f64)>,
    /// The seat to take, rather than a fresh one: a place held with it
    /// already is answered again, not doubled (a rematch asked twice).
    #[serde(default)]
    pub seat: Option<String>,
}

/// A new member's secret seat and side.
#[derive(Debug)]
pub struct Joined {
    pub seat: String,
    pub side: Side,
    pub state: Arc<str>,
}

/// A live connection's view of a game.
#[derive(Debug)]
pub struct Subscription {
    /// The member's presence, counted until this is dropped (no role: a
    /// spectator's).
    pub presence: Presence,
    pub now: Arc<str>,
    pub updates: broadcast::Receiver<Arc<str>>,
}
