//! Scores: centi-units of material, and wins encoded by their distance.

/// A win at the root; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Anything beyond this is a forced win or loss.
pub const WIN_BOUND: i32 = WIN - 10_000;
pub const INFINITY: i32 = WIN + 1;

pub const fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN_BOUND
}

/// Converts a score relative to the root into one relative to a node `ply`
/// deep, for storing in the transposition table.
pub const fn to_tt(score: i32, ply: u32) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub const fn from_tt(score: i32, ply: u32) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}
