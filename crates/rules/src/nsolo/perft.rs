//! Nsolo perft: the number of move sequences of a given length, each bonus
//! distribution a distinct move. The last ply is counted, not listed.

use super::{Move, Position};

/// Leaves of the legal-move tree at `depth` (repetition ignored).
pub fn perft(pos: &Position, depth: u32) -> u128 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => children(pos)
            .map(|(_, child)| perft(&child, depth - 1))
            .sum(),
    }
}

/// `perft(child, depth - 1)` for each legal move (needs `depth >= 1`).
/// At `depth == 1` this lists every move, which may be many.
pub fn perft_divide(pos: &Position, depth: u32) -> impl Iterator<Item = (Move, u128)> + '_ {
    children(pos).map(move |(m, child)| (m, perft(&child, depth.saturating_sub(1))))
}

fn children(pos: &Position) -> impl Iterator<Item = (Move, Position)> + '_ {
    pos.legal_origins().into_iter().flat_map(move |origin| {
        let sown = pos.sow_pit(origin.pit).expect("a legal origin sows");
        let bonuses = sown.distributions();
        bonuses.map(move |bonus| {
            (
                Move::new(origin.pit, bonus),
                sown.clone().finish_unchecked(&bonus),
            )
        })
    })
}
