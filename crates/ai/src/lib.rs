//! Palabre's machine opponents for Yoté and Nsolo.
//!
//! - [`search`]: iterative-deepening alpha-beta (PVS) with a transposition
//!   table ([`tt`]), killer and history ordering and a capture quiescence,
//!   generic over a [`SearchGame`]; [`yote`] and [`nsolo`] adapt each game and
//!   hold its evaluation.
//! - [`limits`]: what bounds a search, as data; [`time`] turns it into
//!   deadlines that are never overrun; [`game_clock`] turns a game clock
//!   into one move's budget.
//! - [`level`]: « Débutant » to « Expert », reproducible from a seed;
//!   [`player`] answers "which move", "which hint", "accept a draw?".
//! - [`smp`]: Lazy SMP, more threads sharing one table.
//! - [`worker`]: a search in its own thread, control in, reports out;
//!   [`pool`]: many games' searches on a few threads, pondering when idle.
//! - [`params`]: every tunable in one place.
//! - [`reference`]: a plain material-and-mobility alpha-beta, the arena's
//!   stand-in for outside programs; [`uct`]: plain Monte-Carlo tree search,
//!   the stand-in for those that sample.

pub mod analysis;
pub mod bench;
pub mod endgame;
pub mod game;
pub mod game_clock;
pub mod greedy;
pub mod level;
pub mod limits;
pub mod nsolo;
pub mod params;
pub mod player;
pub mod pool;
pub mod reference;
pub mod score;
pub mod search;
pub mod smp;
pub mod tables;
pub mod time;
pub mod tt;
pub mod uct;
pub mod worker;
pub mod yote;

pub use game::SearchGame;
pub use level::Level;
pub use limits::{Limits, SearchLimit};
pub use params::Params;
pub use player::{AnyMove, AnyPosition, Ponder, Request, Thought};
pub use search::{Info, SearchResult};
