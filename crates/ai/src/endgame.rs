//! Answers from the Yoté endgame tables: where they cover a position (both
//! reserves empty, few enough balls, every table it reaches present), the
//! machine plays their best move at once: it wins soonest, loses latest and
//! never lets the 120-quiet-ply counter turn a won position into a draw.

use palabre_rules::yote;

use crate::player::{AnyMove, Thought};
use crate::score::WIN_BOUND;
use crate::tables::{Entry, Tables, Wdl};
use crate::time::Instant;

/// The tables' move and value, or `None` where they do not cover the
/// position (the search answers instead).
pub fn answer(tables: &Tables, position: &yote::Position) -> Option<Thought> {
    let started = Instant::now();
    let probe = tables.probe(position).ok()?;
    let best = tables.best_move(position).ok()??;
    Some(Thought {
        best: Some(AnyMove::Yote(best.mv)),
        score: score(probe.wdl, probe.entry),
        depth: 0,
        nodes: 0,
        elapsed: started.elapsed(),
        pv: vec![AnyMove::Yote(best.mv)],
    })
}

/// A table result on the search's scale: decisive results just inside the
/// search's own win bound, nearer wins higher; a draw is 0.
pub(crate) fn score(wdl: Wdl, entry: Entry) -> i32 {
    let dtc = match entry {
        Entry::Win(d) | Entry::Loss(d) => d,
        Entry::Draw => 0,
    };
    match wdl {
        Wdl::Win => WIN_BOUND - 1 - i32::from(dtc),
        Wdl::Draw => 0,
        Wdl::Loss => -(WIN_BOUND - 1 - i32::from(dtc)),
    }
}
