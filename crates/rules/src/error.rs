//! Error types shared by both games.
//!
//! A string that cannot be read is a [`ParseError`]; a position that reads
//! but cannot exist is a [`PositionError`]; a move that reads but may not be
//! played is an [`IllegalMove`]. The messages are terse and say where.

use thiserror::Error;

/// Text that does not follow the notation or the position-string grammar.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct ParseError(pub(crate) String);

impl ParseError {
    pub(crate) fn new(message: impl Into<String>) -> ParseError {
        ParseError(message.into())
    }
}

/// A well-formed position string describing an impossible position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct PositionError(pub(crate) String);

/// Either failure of reading a position string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("malformed position: {0}")]
    Parse(#[from] ParseError),
    #[error("invalid position: {0}")]
    Position(#[from] PositionError),
}

/// A well-formed move that the position does not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct IllegalMove(pub(crate) String);

impl IllegalMove {
    pub(crate) fn new(message: impl Into<String>) -> IllegalMove {
        IllegalMove(message.into())
    }
}
