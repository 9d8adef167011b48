//! Exact rules of the two games Palabre plays, with no I/O.
//!
//! - [`yote`]: Yoté on 5×5 holes, twelve balls a side, a capture costs two.
//! - [`nsolo`]: Nsolo, the Ngoni four-row mancala, 4×8 up to 4×36 pits.
//!
//! Each game has the same shape: an unvalidated `Setup` parsed from a position
//! string becomes a `Position` through a `Result`; a `Move` parses from and
//! displays as the game's notation; `Position::play` refuses illegal moves with
//! an [`IllegalMove`]; `Position::outcome` tells whether the game is over.
//! [`Record`] holds a whole game and knows the rules that need its history;
//! [`record_text::read`] reads one back from its exported text.
//! `Position::refusal` says why a place cannot start a move ([`Refusal`]).
//! [`GamePosition`] is the trait the generic tools (records, perft drivers,
//! servers) use to treat both games alike.

mod error;
mod game;
mod mix;
pub mod nsolo;
mod outcome;
mod record;
pub mod record_text;
mod refusal;
pub mod yote;

pub use error::{Illegal, IllegalMove, ParseError, PositionError, SetupError};
pub use game::GamePosition;
pub use outcome::{DrawReason, Outcome, WinReason};
pub use record::{Record, RecordError};
pub use refusal::Refusal;
