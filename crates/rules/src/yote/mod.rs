//! Yoté: 25 holes, 12 balls a side, one action a turn, a capture costs two.
//!
//! [`Setup`] reads and writes the position string; [`Position`] is a validated
//! position that generates, counts and plays [`Move`]s and knows when the game
//! is over. Everything fits in a few machine words: the board is two `u32`
//! bitboards, one bit per hole.

pub mod bitboard;
mod movegen;
mod moves;
mod perft;
mod position;
mod setup;
mod square;

pub use movegen::MoveList;
pub use moves::{Move, Second};
pub use perft::{perft, perft_divide};
pub use position::{Color, Position, QUIET_LIMIT};
pub use setup::Setup;
pub use square::Square;

/// Balls each side owns.
pub const BALLS: u8 = 12;
