//! How a game ends: the winner and why, or a draw and why.

use std::fmt;

/// Why a side won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// Yoté: the loser has no ball left.
    AllCaptured,
    /// Yoté: the loser, to move, could not act.
    NdarKepp,
    /// Nsolo: the loser, to move, had no stone left.
    NoStones,
    /// Nsolo: the loser, to move, had no legal sowing.
    NoMove,
    /// The loser resigned (never deduced from a position).
    Resignation,
    /// The loser's clock ran out (never deduced from a position).
    Timeout,
}

/// Why a game was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Yoté: 120 plies without a capture.
    QuietMoves,
    /// Nsolo: a position came back.
    Repetition,
    /// The players agreed (never deduced from a position).
    Agreement,
}

/// The end of a game, generic over the game's side type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome<S> {
    Win { winner: S, reason: WinReason },
    Draw { reason: DrawReason },
}

impl fmt::Display for WinReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WinReason::AllCaptured => "all-captured",
            WinReason::NdarKepp => "ndar-kepp",
            WinReason::NoStones => "no-stones",
            WinReason::NoMove => "no-move",
            WinReason::Resignation => "resignation",
            WinReason::Timeout => "timeout",
        })
    }
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::QuietMoves => "quiet-moves",
            DrawReason::Repetition => "repetition",
            DrawReason::Agreement => "agreement",
        })
    }
}

/// `red wins by ndar-kepp`, `draw by repetition`: the CLI's contract.
impl<S: fmt::Display> fmt::Display for Outcome<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => write!(f, "{winner} wins by {reason}"),
            Outcome::Draw { reason } => write!(f, "draw by {reason}"),
        }
    }
}
