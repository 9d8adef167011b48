//! Yoté as the search sees it: moves straight from the rules crate, captures
//! ordered by the second ball they remove, and the endgame tables' exact
//! values wherever a line reaches a position they hold.

pub mod eval;
pub mod patterns;

use std::sync::Arc;

use palabre_rules::Outcome;
use palabre_rules::yote::bitboard::Dir;
use palabre_rules::yote::{Color, Move, Position, Second};

use crate::endgame;
use crate::game::NOISY;
use crate::tables::Tables;
use crate::{Params, SearchGame};

/// The Yoté adapter, holding the evaluation weights and, for Expert and
/// hints, the endgame tables the search reads where it reaches them.
#[derive(Debug, Clone)]
pub struct Yote {
    pub params: Params,
    pub tables: Option<Arc<Tables>>,
}

impl Yote {
    pub fn new(params: Params) -> Yote {
        Yote {
            params,
            tables: None,
        }
    }

    /// A search that scores every position the tables hold exactly.
    pub fn with_tables(params: Params, tables: Option<Arc<Tables>>) -> Yote {
        Yote { params, tables }
    }
}

/// How much a capture's second ball is worth removing: balls next to the
/// mover's (likely attackers) first, then the reserve.
fn capture_order(pos: &Position, m: Move) -> i32 {
    let own = pos.balls(pos.turn());
    let near = |bit: u32| Dir::ALL.iter().filter(|d| d.shift(bit) & own != 0).count() as i32;
    NOISY
        + match m {
            Move::Capture {
                second: Some(Second::Board(sq)),
                ..
            } => 10 * near(sq.bit()),
            Move::Capture {
                second: Some(Second::Reserve),
                ..
            } => 5,
            _ => 0,
        }
}

impl SearchGame for Yote {
    type Position = Position;
    type Move = Move;
    const REPETITION_DRAWS: bool = false;
    const HISTORY_SLOTS: usize = 650;

    fn hash(&self, pos: &Position) -> u64 {
        if self.params.yote_hash_quiet {
            // An odd multiplier spreads the count over every bit.
            pos.hash() ^ u64::from(pos.quiet()).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        } else {
            pos.hash()
        }
    }

    fn quick_outcome(&self, pos: &Position) -> Option<i32> {
        match pos.outcome()? {
            Outcome::Draw { .. } => Some(0),
            Outcome::Win { .. } => Some(-1),
        }
    }

    fn generate(&self, pos: &Position, out: &mut Vec<(Move, i32)>) {
        for m in pos.legal_moves() {
            let order = if m.is_capture() {
                capture_order(pos, m)
            } else {
                0
            };
            out.push((m, order));
        }
    }

    fn generate_noisy(&self, pos: &Position, out: &mut Vec<(Move, i32)>) {
        let mut list = palabre_rules::yote::MoveList::new();
        pos.generate_captures(&mut list);
        out.extend(list.iter().map(|&m| (m, capture_order(pos, m))));
    }

    fn is_noisy(&self, m: Move) -> bool {
        m.is_capture()
    }

    fn quiescence_limits(&self) -> (u32, usize) {
        (
            self.params.yote_quiescence_plies,
            self.params.yote_quiescence_width,
        )
    }

    fn cannot_wait(&self, pos: &Position, qply: u32) -> bool {
        qply < self.params.yote_cramped_plies
            && pos.empty().count_ones() <= self.params.yote_cramped_holes
    }

    fn play(&self, pos: &Position, m: Move) -> Position {
        let mut next = *pos;
        next.play_unchecked(m);
        next
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        eval::evaluate(pos, &self.params)
    }

    fn known(&self, pos: &Position) -> Option<i32> {
        let balls = (pos.balls(Color::Red) | pos.balls(Color::Black)).count_ones();
        if !self.params.yote_table_probes || balls > self.params.yote_table_probe_balls {
            return None;
        }
        let probe = self.tables.as_deref()?.probe_in_memory(pos)?;
        Some(endgame::score(probe.wdl, probe.entry))
    }

    fn key(&self, m: Move) -> u32 {
        match m {
            Move::Place { to } => to.index() as u32,
            Move::Step { from, to } => 1 << 16 | (from.index() as u32) << 5 | to.index() as u32,
            Move::Capture { from, to, second } => {
                let s = match second {
                    None => 0,
                    Some(Second::Reserve) => 1,
                    Some(Second::Board(sq)) => 2 + sq.index() as u32,
                };
                2 << 16 | s << 10 | (from.index() as u32) << 5 | to.index() as u32
            }
        }
    }

    fn history_slot(&self, m: Move) -> usize {
        match m {
            Move::Place { to } => 625 + to.index(),
            Move::Step { from, to } | Move::Capture { from, to, .. } => {
                from.index() * 25 + to.index()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_key_tells_quiet_counts_apart_so_the_fade_is_seen() {
        let fresh: Position = "5/1r3/2b2/3r1/5 0 0 b 10".parse().unwrap();
        let late: Position = "5/1r3/2b2/3r1/5 0 0 b 100".parse().unwrap();
        let game = Yote::new(Params::default());
        assert_ne!(game.hash(&fresh), game.hash(&late));
        assert_ne!(game.evaluate(&fresh), game.evaluate(&late), "the fade");
        let blind = Yote::new(Params {
            yote_hash_quiet: false,
            ..Params::default()
        });
        assert_eq!(blind.hash(&fresh), blind.hash(&late));
    }

    #[test]
    fn the_search_reads_the_tables_only_up_to_its_ball_limit() {
        let dir = tempfile::tempdir().unwrap();
        crate::tables::build(dir.path(), 4, |_, _| {}).unwrap();
        let tables = Arc::new(Tables::open(dir.path()).unwrap());
        tables.preload().unwrap();
        let four: Position = "5/5/rb2b/5/r4 0 0 r 0".parse().unwrap();
        let three: Position = "5/5/rb3/5/r4 0 0 r 0".parse().unwrap();
        let with = |balls| {
            let params = Params {
                yote_table_probe_balls: balls,
                ..Params::default()
            };
            Yote::with_tables(params, Some(tables.clone()))
        };
        assert!(with(4).known(&four).is_some());
        assert!(with(4).known(&three).is_some());
        assert_eq!(with(3).known(&four), None, "more balls than the limit");
        assert!(with(3).known(&three).is_some());
    }
}
