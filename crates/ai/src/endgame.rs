//! Answers from the Yoté endgame tables: where they cover a position (both
//! reserves empty, few enough balls, every table it reaches present), the
//! machine plays their best move at once: it wins soonest, loses latest and
//! never lets the 120-quiet-ply counter turn a won position into a draw.
//! In a drawn position it keeps the draw with the move that leaves the
//! opponent the most replies the tables call lost: every move draws against
//! perfect play, but a fallible opponent should get the most ways to err.

use palabre_rules::yote;

use crate::player::{AnyMove, Thought};
use crate::score::WIN_BOUND;
use crate::tables::probe::Choice;
use crate::tables::{Entry, Tables, Wdl};
use crate::time::Instant;

/// The tables' move and value, or `None` where they do not cover the
/// position (the search answers instead).
pub fn answer(tables: &Tables, position: &yote::Position, swindle: bool) -> Option<Thought> {
    let started = Instant::now();
    let probe = tables.probe(position).ok()?;
    let choices = tables.choices(position).ok()?;
    let mut best = choices.first()?.mv;
    if swindle && probe.wdl == Wdl::Draw {
        best = most_traps(tables, position, &choices).unwrap_or(best);
    }
    Some(Thought {
        best: Some(AnyMove::Yote(best)),
        score: score(probe.wdl, probe.entry),
        depth: 0,
        nodes: 0,
        elapsed: started.elapsed(),
        pv: vec![AnyMove::Yote(best)],
    })
}

/// The drawing move after which the opponent has the most losing replies
/// (the first in the tables' order on a tie), if any move draws.
fn most_traps(
    tables: &Tables,
    position: &yote::Position,
    choices: &[Choice],
) -> Option<yote::Move> {
    let mut best: Option<(usize, yote::Move)> = None;
    for c in choices.iter().filter(|c| c.wdl == Wdl::Draw) {
        let mut child = *position;
        child.play_unchecked(c.mv);
        let Ok(replies) = tables.choices(&child) else {
            continue;
        };
        let traps = replies.iter().filter(|r| r.wdl == Wdl::Loss).count();
        if best.is_none_or(|(most, _)| traps > most) {
            best = Some((traps, c.mv));
        }
    }
    best.map(|(_, mv)| mv)
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
