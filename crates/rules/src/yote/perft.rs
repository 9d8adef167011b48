//! Yoté perft: the number of move sequences of a given length.

use super::{Move, Position};

/// Leaves of the legal-move tree at `depth`, counting the last ply in bulk.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => pos
            .legal_moves()
            .iter()
            .map(|m| {
                let mut child = *pos;
                child.play_unchecked(*m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// `perft(child, depth - 1)` for each legal move (needs `depth >= 1`).
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut child = *pos;
            child.play_unchecked(*m);
            (*m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
