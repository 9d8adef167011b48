//! Nsolo's yardstick. A general game system plays a capture's bonus as
//! moves of their own: the sowing is one decision, then each bonus stone
//! another, by the same side. This player searches the same way, one ply a
//! stone, and so sees every distribution (Expert compares a few greedy
//! ones); it takes the stones in canonical pit order so that each
//! distribution is reached once, where a general system may reach one
//! several times. Its evaluation: stones, then the pits each side could
//! sow from. A position seen before in the game or the line is drawn, as
//! in play.

use palabre_rules::Outcome;
use palabre_rules::nsolo::{Bonus, Move, Pit, Position, Side, Sown};

use super::{Budget, WIN};
use crate::Limits;

/// A stone outweighs any difference in mobility.
const STONE: i32 = 1000;

/// The pits `side` could sow from if it were to move, before the check for
/// endless sowings: its pits of two or more, or else its single stones
/// whose next pit is empty.
fn mobility(pos: &Position, side: Side) -> i32 {
    let cells = pos.circuit(side);
    let pairs = cells.iter().filter(|&&c| c >= 2).count();
    if pairs > 0 {
        return pairs as i32;
    }
    let len = cells.len();
    (0..len)
        .filter(|&i| cells[i] == 1 && cells[(i + 1) % len] == 0)
        .count() as i32
}

/// Material, then mobility, from the side to move's point of view, with
/// `pending` bonus stones still to come off the other side.
fn evaluate_with(pos: &Position, pending: u8) -> i32 {
    let me = pos.turn();
    let them = me.other();
    let material = pos.stones(me) as i32 - (pos.stones(them) as i32 - i32::from(pending));
    STONE * material + mobility(pos, me) - mobility(pos, them)
}

/// Material, then mobility, from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, 0)
}

/// Whether the next bonus stone after `picks` may come from victim pit
/// `i`: a stone is left there, and enough from `i` on for the `required`
/// in all (picks go in pit order, so none may come from before `i`, and
/// of the pits from `i` on only `i` itself can have given stones).
fn can_take(cells: &[u8], picks: &[u8], i: usize, required: u8) -> bool {
    let taken = picks
        .iter()
        .rev()
        .take_while(|&&p| usize::from(p) == i)
        .count();
    let room = cells[i..].iter().map(|&c| usize::from(c)).sum::<usize>() - taken;
    usize::from(cells[i]) > taken && room >= usize::from(required) - picks.len()
}

/// The position after the bonus `picks`, victim circuit indices.
fn finish(sown: &Sown, picks: &[u8]) -> Position {
    let mut next = picks.iter();
    sown.clone()
        .finish_with(|_| usize::from(*next.next().expect("a pick for each bonus stone")))
}

struct Search {
    budget: Budget,
    /// Hashes of the game's earlier positions, then of the line searched.
    path: Vec<u64>,
    /// The best line found from each ply: origins and bonus pits, as
    /// circuit indices.
    pv: Vec<Vec<u8>>,
}

impl Search {
    /// Readies the line of `ply` and the one below it; whether to stop.
    fn enter(&mut self, ply: usize) -> bool {
        if self.pv.len() < ply + 2 {
            self.pv.resize(ply + 2, Vec::new());
        }
        self.pv[ply].clear();
        self.budget.out_of_time()
    }

    /// The best line from `ply` is now `step`, then the best line below it.
    fn set_pv(&mut self, ply: usize, step: u8) {
        let (here, below) = self.pv.split_at_mut(ply + 1);
        here[ply].clear();
        here[ply].push(step);
        here[ply].extend_from_slice(&below[0]);
    }

    /// Takes in `score`, the value of `step` at `ply`; whether it cuts
    /// the node off.
    fn improve(
        &mut self,
        ply: usize,
        step: u8,
        score: i32,
        best: &mut i32,
        alpha: &mut i32,
        beta: i32,
    ) -> bool {
        *best = (*best).max(score);
        if score > *alpha {
            *alpha = score;
            self.set_pv(ply, step);
        }
        *alpha >= beta
    }

    /// A position with its side to move choosing a sowing.
    fn turn(&mut self, pos: &Position, depth: u32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if self.enter(ply) {
            return 0;
        }
        let hash = pos.hash();
        if self.path.contains(&hash) {
            return 0;
        }
        if let Some(Outcome::Win { .. }) = pos.outcome() {
            // The side to move has lost; sooner losses score lower.
            return -WIN + ply as i32;
        }
        if depth == 0 {
            return evaluate(pos);
        }
        self.path.push(hash);
        let mut best = -WIN;
        for (i, sown) in pos.sowings() {
            let score = self.sowing(&sown, depth, ply, alpha, beta);
            if self.budget.stopped || self.improve(ply, i as u8, score, &mut best, &mut alpha, beta)
            {
                break;
            }
        }
        self.path.pop();
        best
    }

    /// A sowing played at `ply`, from its mover's point of view: the turn
    /// passes, or the first bonus stone is the mover's next decision.
    fn sowing(&mut self, sown: &Sown, depth: u32, ply: usize, alpha: i32, beta: i32) -> i32 {
        if sown.required() == 0 {
            let next = finish(sown, &[]);
            -self.turn(&next, depth - 1, ply + 1, -beta, -alpha)
        } else {
            let mut picks = Vec::with_capacity(usize::from(sown.required()));
            self.bonus(sown, &mut picks, depth - 1, ply + 1, alpha, beta)
        }
    }

    /// The mover taking its next bonus stone after `picks`, from a pit no
    /// earlier than the last one's; scored from the mover's point of view.
    fn bonus(
        &mut self,
        sown: &Sown,
        picks: &mut Vec<u8>,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.enter(ply) {
            return 0;
        }
        if depth == 0 {
            return evaluate_with(sown.position(), sown.required());
        }
        let cells = sown.position().circuit(sown.victim());
        let from = picks.last().map_or(0, |&p| usize::from(p));
        let mut best = -WIN;
        for i in from..cells.len() {
            if !can_take(cells, picks, i, sown.required()) {
                continue;
            }
            picks.push(i as u8);
            let score = if picks.len() == usize::from(sown.required()) {
                let next = finish(sown, picks);
                -self.turn(&next, depth - 1, ply + 1, -beta, -alpha)
            } else {
                self.bonus(sown, picks, depth - 1, ply + 1, alpha, beta)
            };
            picks.pop();
            if self.budget.stopped {
                return 0;
            }
            if self.improve(ply, i as u8, score, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }
}

/// The rules' move for the sowing from circuit pit `origin` with the bonus
/// pits `picks`; the stones the line does not name (a search too shallow
/// to reach them) come from the victim's fullest pit.
fn spell(pos: &Position, origin: u8, picks: &[u8]) -> Move {
    let sown = pos.sow(usize::from(origin)).expect("a legal origin");
    let victim = sown.victim();
    let mut left = sown.position().circuit(victim).to_vec();
    let mut bonus = Bonus::none(victim);
    for n in 0..usize::from(sown.required()) {
        let pit = match picks.get(n) {
            Some(&p) => usize::from(p),
            None => (0..left.len())
                .max_by_key(|&i| (left[i], std::cmp::Reverse(i)))
                .expect("a victim pit"),
        };
        left[pit] -= 1;
        bonus.add(Pit::from_circuit(victim, pit, pos.size()), 1);
    }
    Move::new(sown.origin(), bonus)
}

/// The move after searching within `limits` (a time, a node count, or
/// both: the first reached stops it; a node count alone gives the same
/// move on any machine), or `None` if the game is over. `history` holds
/// the hashes of the game's earlier positions. A cut-short iteration is
/// thrown away, as such players do.
pub fn best_move(pos: &Position, history: &[u64], limits: &Limits) -> Option<Move> {
    if pos.outcome().is_some() {
        return None;
    }
    let mut root: Vec<(u8, i32)> = pos.sowings().map(|(i, _)| (i as u8, 0)).collect();
    let mut line = vec![root.first()?.0];
    let mut search = Search {
        budget: Budget::new(limits),
        path: history.to_vec(),
        pv: Vec::new(),
    };
    search.path.push(pos.hash());
    for depth in 1..=u32::from(u8::MAX) {
        let mut alpha = -WIN - 1;
        let mut best_line = Vec::new();
        for entry in root.iter_mut() {
            let sown = pos.sow(usize::from(entry.0)).expect("a legal origin");
            search.enter(0);
            entry.1 = search.sowing(&sown, depth, 0, alpha, WIN + 1);
            if search.budget.stopped {
                return Some(spell(pos, line[0], &line[1..]));
            }
            if entry.1 > alpha {
                alpha = entry.1;
                best_line = std::iter::once(entry.0)
                    .chain(search.pv[1].iter().copied())
                    .collect();
            }
        }
        // Stable: among equals the earlier-ordered move stays first.
        root.sort_by_key(|e| std::cmp::Reverse(e.1));
        line = best_line;
        if root[0].1.abs() >= WIN - 300 {
            break;
        }
    }
    Some(spell(pos, line[0], &line[1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchLimit;
    use std::time::Duration;

    fn position(s: &str) -> Position {
        s.parse().unwrap()
    }

    fn nodes(n: u64) -> Limits {
        Limits::new().with(SearchLimit::Nodes(n))
    }

    /// The value of the tree the search walks, by plain minimax: each
    /// sowing and each bonus stone a ply, stones taken in pit order.
    fn minimax(pos: &Position, depth: u32, ply: i32, path: &mut Vec<u64>) -> i32 {
        if path.contains(&pos.hash()) {
            return 0;
        }
        if pos.outcome().is_some() {
            return -WIN + ply;
        }
        if depth == 0 {
            return evaluate(pos);
        }
        path.push(pos.hash());
        let best = pos
            .sowings()
            .map(|(_, sown)| taking(&sown, &mut Vec::new(), depth - 1, ply + 1, path))
            .max()
            .expect("a position in play has a sowing");
        path.pop();
        best
    }

    fn taking(sown: &Sown, picks: &mut Vec<u8>, depth: u32, ply: i32, path: &mut Vec<u64>) -> i32 {
        if picks.len() == usize::from(sown.required()) {
            return -minimax(&finish(sown, picks), depth, ply, path);
        }
        if depth == 0 {
            return evaluate_with(sown.position(), sown.required());
        }
        let cells = sown.position().circuit(sown.victim());
        let from = picks.last().map_or(0, |&p| usize::from(p));
        let open: Vec<usize> = (from..cells.len())
            .filter(|&i| can_take(cells, picks, i, sown.required()))
            .collect();
        open.into_iter()
            .map(|i| {
                picks.push(i as u8);
                let score = taking(sown, picks, depth - 1, ply + 1, path);
                picks.pop();
                score
            })
            .max()
            .expect("a bonus stone is always there to take")
    }

    /// Positions along a game where each side plays its first legal move
    /// and then its last, by turns.
    fn walk(size: u8, plies: usize) -> Vec<Position> {
        let mut pos = Position::start(size).unwrap();
        let mut seen = Vec::new();
        for n in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            seen.push(pos.clone());
            let moves: Vec<Move> = pos.legal_moves().collect();
            let m = if n % 3 == 0 {
                moves[moves.len() / 2]
            } else {
                moves[n % moves.len()]
            };
            pos.play(&m).unwrap();
        }
        seen
    }

    #[test]
    fn material_outweighs_mobility_from_the_movers_side() {
        assert_eq!(evaluate(&Position::start(8).unwrap()), 0);
        let south = position("0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,2,0,0,0,0,0/0,0,0,0,0,0,0,0 s");
        assert!(evaluate(&south) > STONE / 2, "{}", evaluate(&south));
        let north = position("0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,2,0,0,0,0,0/0,0,0,0,0,0,0,0 n");
        assert_eq!(evaluate(&north), -evaluate(&south));
    }

    #[test]
    fn takes_the_capture_and_the_bonus_that_end_the_game() {
        // B3 sows B2 and B1, captures C1's two stones and takes D1's last
        // as its bonus: North has nothing left. A5 captures nothing.
        let pos = position("1,0,0,0,0,0,0,0/2,0,0,0,0,0,0,0/0,0,2,0,0,0,0,0/0,0,0,0,2,0,0,0 s");
        let m = best_move(&pos, &[], &nodes(10_000)).unwrap();
        assert_eq!(m.to_string(), "B3/D1:1");
    }

    #[test]
    fn alpha_beta_agrees_with_minimax_on_the_same_tree() {
        for pos in walk(8, 40).iter().step_by(3) {
            for depth in 1..=3 {
                let mut search = Search {
                    budget: Budget::new(&Limits::new()),
                    path: Vec::new(),
                    pv: Vec::new(),
                };
                let fast = search.turn(pos, depth, 0, -WIN - 1, WIN + 1);
                let slow = minimax(pos, depth, 0, &mut Vec::new());
                assert_eq!(fast, slow, "depth {depth} in {pos}");
            }
        }
    }

    #[test]
    fn every_answer_is_a_legal_move_even_cut_short() {
        for pos in walk(9, 60).iter().step_by(4) {
            for budget in [1, 300, 5_000] {
                let m = best_move(pos, &[], &nodes(budget)).expect("a move");
                let mut next = pos.clone();
                next.play(&m)
                    .unwrap_or_else(|e| panic!("{m} in {pos}: {e}"));
            }
        }
    }

    #[test]
    fn a_repeated_position_is_a_draw_it_avoids_when_ahead() {
        // South is four stones ahead, with two quiet sowings (A1 and A5).
        // Once the position its choice leads to has been seen in the game,
        // that choice draws, and it takes the other.
        let pos = position("0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,0,0,0,2,0,0,0 s");
        let free = best_move(&pos, &[], &nodes(20_000)).unwrap();
        let mut after = pos.clone();
        after.play(&free).unwrap();
        let seen = best_move(&pos, &[after.hash()], &nodes(20_000)).unwrap();
        assert_ne!(seen, free);
    }

    #[test]
    fn a_node_budget_gives_the_same_move_however_long_it_takes() {
        let pos = Position::start(8).unwrap();
        let first = best_move(&pos, &[], &nodes(50_000));
        assert!((0..3).all(|_| best_move(&pos, &[], &nodes(50_000)) == first));
        let timed = Limits::new().with(SearchLimit::MoveTime(Duration::from_millis(20)));
        assert!(best_move(&pos, &[], &timed).is_some());
    }

    #[test]
    fn has_no_move_in_a_finished_game() {
        let pos = position("0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,2,0,0,0,0,0/0,0,0,0,0,0,0,0 n");
        assert_eq!(best_move(&pos, &[], &nodes(1_000)), None);
    }
}
