//! Yoté's yardstick: iterative deepening over plain fail-soft alpha-beta,
//! the previous iteration's root scores ordering the root, and an
//! evaluation of material (balls on the board and in reserve) and mobility.

use palabre_rules::Outcome;
use palabre_rules::yote::{Color, Move, Position};

use super::{Budget, WIN};
use crate::Limits;

/// A ball outweighs any difference in mobility.
const BALL: i32 = 1000;

/// The moves `color` would have if it were to move, as the rules count them
/// for the side to move (placements while it holds a reserve, else steps),
/// plus its capture jumps.
fn mobility(pos: &Position, color: Color) -> i32 {
    let quiet = if pos.reserve(color) > 0 {
        pos.empty().count_ones()
    } else {
        pos.steps_for(color)
    };
    (quiet + pos.jumps_for(color)) as i32
}

/// Material, then mobility, from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.turn();
    let them = me.other();
    let material = pos.material(me) as i32 - pos.material(them) as i32;
    BALL * material + mobility(pos, me) - mobility(pos, them)
}

struct Search {
    budget: Budget,
}

impl Search {
    fn alpha_beta(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.budget.out_of_time() {
            return 0;
        }
        if let Some(outcome) = pos.outcome() {
            return match outcome {
                Outcome::Draw { .. } => 0,
                // The side to move has lost; sooner losses score lower,
                // so the winner takes the quickest win.
                Outcome::Win { .. } => -WIN + ply,
            };
        }
        if depth == 0 {
            return evaluate(pos);
        }
        let mut best = -WIN;
        for m in pos.legal_moves() {
            let mut next = *pos;
            next.play_unchecked(m);
            let score = -self.alpha_beta(&next, depth - 1, ply + 1, -beta, -alpha);
            if self.budget.stopped {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The move after searching within `limits` (a time, a node count, or
/// both: the first reached stops it; a node count alone gives the same
/// move on any machine), or `None` if the game is over. A cut-short
/// iteration is thrown away, as such players do.
pub fn best_move(pos: &Position, limits: &Limits) -> Option<Move> {
    if pos.outcome().is_some() {
        return None;
    }
    let mut root: Vec<(Move, i32)> = pos.legal_moves().iter().map(|&m| (m, 0)).collect();
    let mut best = root.first()?.0;
    let mut search = Search {
        budget: Budget::new(limits),
    };
    for depth in 1..=u32::from(u8::MAX) {
        let mut alpha = -WIN - 1;
        for entry in root.iter_mut() {
            let mut next = *pos;
            next.play_unchecked(entry.0);
            entry.1 = -search.alpha_beta(&next, depth - 1, 1, -WIN - 1, -alpha);
            if search.budget.stopped {
                return Some(best);
            }
            alpha = alpha.max(entry.1);
        }
        // Stable: among equals the earlier-ordered move stays first.
        root.sort_by_key(|e| std::cmp::Reverse(e.1));
        best = root[0].0;
        if root[0].1.abs() >= WIN - 300 {
            break;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchLimit;
    use std::time::Duration;

    fn position(s: &str) -> Position {
        s.parse().unwrap()
    }

    fn time(ms: u64) -> Limits {
        Limits::new().with(SearchLimit::MoveTime(Duration::from_millis(ms)))
    }

    #[test]
    fn material_outweighs_mobility_from_the_movers_side() {
        assert_eq!(evaluate(&Position::START), 0);
        // Red has one ball more but is boxed in a corner: still ahead.
        let red = position("rb3/b4/5/5/5 2 0 r 0");
        assert!(evaluate(&red) > BALL / 2, "{}", evaluate(&red));
        let black = position("rb3/b4/5/5/5 2 0 b 0");
        assert_eq!(evaluate(&black), -evaluate(&red));
    }

    #[test]
    fn takes_a_capture_that_wins_the_game() {
        let pos = position("5/5/1rb2/5/5 0 0 r 0");
        let m = best_move(&pos, &time(50)).unwrap();
        assert_eq!(m.to_string(), "b3xd3");
    }

    #[test]
    fn has_no_move_in_a_finished_game() {
        let pos = position("5/5/1r3/5/5 0 0 b 0");
        assert_eq!(best_move(&pos, &time(10)), None);
    }

    #[test]
    fn a_node_budget_gives_the_same_move_however_long_it_takes() {
        let pos = position("5/1rb2/2r2/1b3/5 10 10 r 4");
        let budget = Limits::new().with(SearchLimit::Nodes(20_000));
        let first = best_move(&pos, &budget);
        assert!(first.is_some());
        assert!((0..3).all(|_| best_move(&pos, &budget) == first));
        // A budget too small for the first iteration keeps the first
        // root move, as a cut-short iteration always does.
        let tiny = Limits::new().with(SearchLimit::Nodes(1));
        assert_eq!(best_move(&pos, &tiny), pos.legal_moves().first().copied());
    }
}
