//! The interface both games share, for code that handles either one.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use crate::{IllegalMove, Outcome, ParseError, SetupError};

/// A validated position of one game.
pub trait GamePosition: Clone + Debug + Display + PartialEq + Eq + Sized {
    /// A side of this game (`red`/`black`, `south`/`north`).
    type Side: Copy + Debug + Display + PartialEq + Eq + Hash;
    /// A complete move in this game's notation.
    type Move: Clone + Debug + Display + FromStr<Err = ParseError> + PartialEq + Eq;

    /// The game's name in the CLI and the API.
    const NAME: &'static str;
    /// Whether a repeated position draws (it needs the game's history).
    const REPETITION_DRAWS: bool;

    /// Reads a position string.
    fn from_position_string(s: &str) -> Result<Self, SetupError>;
    /// The side to move.
    fn turn(&self) -> Self::Side;
    /// Plays `m` after checking it; on error the position is unchanged.
    /// A position whose [`GamePosition::outcome`] is decided refuses every
    /// move ([`crate::Record`] relies on it).
    fn play(&mut self, m: &Self::Move) -> Result<(), IllegalMove>;
    /// The end decided by this position alone, if the game is over.
    fn outcome(&self) -> Option<Outcome<Self::Side>>;
    /// A 64-bit hash of everything but counters that do not change the future
    /// in kind (Yoté's quiet-ply count).
    fn hash(&self) -> u64;
}
