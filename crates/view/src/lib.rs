//! Positions as Palabre's pages draw them, shared by the server and the
//! browser's engine so that a board never knows where its game lives.
//!
//! - [`Drawn`]: what each game's position shows: its [`board`], its legal
//!   moves in a compact form ([`Legal`]), why the other places refuse a tap,
//!   and what a move does, step by step, for the animation.
//! - [`record`]: the last move of a record and every frame of a replay.

pub mod board;
pub mod drawn;
pub mod legal;
pub mod record;

pub use board::{NsoloBoard, YoteBoard};
pub use drawn::Drawn;
pub use legal::Legal;
pub use record::{LastMove, frames, last_move};
