//! Yardsticks in the manner of a general game system's alpha-beta player
//! (the issue measured Ludii's): iterative deepening over plain alpha-beta,
//! no quiescence, no transposition table, and an evaluation of material
//! and mobility only; one module per game.
//!
//! No outside program for these games runs on this machine, so `palabre
//! arena` plays these in their place. They search Palabre's own move
//! generators, which are many times faster than a general system's, so at
//! equal time they look deeper than such systems do: a score against them
//! is a conservative estimate of the score against those.

pub mod nsolo;
pub mod yote;

use crate::Limits;
use crate::time::Instant;

/// A won game's score, less the plies to its end.
const WIN: i32 = 1_000_000;
/// The clock is read once every this many nodes.
const CLOCK_EVERY: u64 = 1024;

/// A search's time and node budget: the first reached stops it.
struct Budget {
    deadline: Option<Instant>,
    max_nodes: u64,
    nodes: u64,
    stopped: bool,
}

impl Budget {
    fn new(limits: &Limits) -> Budget {
        Budget {
            deadline: limits.movetime().map(|t| Instant::now() + t.mul_f64(0.95)),
            max_nodes: limits.nodes().unwrap_or(u64::MAX),
            nodes: 0,
            stopped: false,
        }
    }

    /// Counts a node; whether the search must stop.
    fn out_of_time(&mut self) -> bool {
        self.nodes += 1;
        let late = || self.deadline.is_some_and(|d| Instant::now() >= d);
        if self.nodes >= self.max_nodes || (self.nodes.is_multiple_of(CLOCK_EVERY) && late()) {
            self.stopped = true;
        }
        self.stopped
    }
}
