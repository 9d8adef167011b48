//! A second Yoté yardstick, in the manner of a general game system's
//! default player (Ludii's is UCT): Monte-Carlo tree search that knows the
//! rules and nothing else. Each iteration walks down the tree by UCB1,
//! adds one new child, plays uniformly random moves to the end of the game
//! and counts a win as 1, a draw as ½; the move played is the root child
//! visited most.
//!
//! The [`reference`](crate::reference) player stands in for an outside
//! alpha-beta; this one stands in for the outside players that search by
//! sampling. It plays very differently (no horizon, no evaluation, no
//! material until the playouts find it), which is what an outside check
//! with an unknown opponent may bring.

use palabre_rules::Outcome;
use palabre_rules::yote::{Color, Move, Position};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::Limits;
use crate::time::Instant;

/// UCB1's exploration constant, the textbook √2 (Ludii's UCT uses it too).
const EXPLORATION: f64 = std::f64::consts::SQRT_2;
/// The tree grows by one node an iteration; past this many it stops
/// growing and the iterations go on below its leaves (about 64 MiB).
const MAX_NODES: usize = 1 << 21;

struct Node {
    /// The move that led here; `None` at the root.
    mv: Option<Move>,
    /// Where the children start in the arena, once expanded.
    first: u32,
    /// How many children; 0 until expanded (a position still in play
    /// always has a move, so an expanded node has children).
    len: u16,
    visits: u32,
    /// The total reward for the side that played `mv`.
    reward: f64,
}

impl Node {
    fn new(mv: Option<Move>) -> Node {
        Node {
            mv,
            first: 0,
            len: 0,
            visits: 0,
            reward: 0.0,
        }
    }

    fn children(&self) -> std::ops::Range<usize> {
        self.first as usize..self.first as usize + self.len as usize
    }
}

struct Tree {
    nodes: Vec<Node>,
    max_nodes: usize,
    rng: SmallRng,
    /// The nodes an iteration walked through and who moved into each,
    /// kept between iterations so the walk allocates nothing.
    path: Vec<(usize, Color)>,
}

impl Tree {
    /// Adds `pos`'s moves, shuffled, as the children of `at` (if they fit).
    fn expand(&mut self, at: usize, pos: &Position) {
        let mut moves = pos.legal_moves();
        if self.nodes.len() + moves.len() > self.max_nodes {
            return;
        }
        moves.shuffle(&mut self.rng);
        let first = self.nodes.len();
        self.nodes.extend(moves.iter().map(|&m| Node::new(Some(m))));
        let node = &mut self.nodes[at];
        node.first = first as u32;
        node.len = moves.len() as u16;
    }

    /// The child to visit: the first never visited (they are shuffled),
    /// else the best by UCB1.
    fn select(&self, at: usize) -> usize {
        let node = &self.nodes[at];
        let log_n = f64::from(node.visits.max(1)).ln();
        let ucb = |i: usize| {
            let c = &self.nodes[i];
            if c.visits == 0 {
                return f64::INFINITY;
            }
            let n = f64::from(c.visits);
            c.reward / n + EXPLORATION * (log_n / n).sqrt()
        };
        node.children()
            .max_by(|&a, &b| ucb(a).total_cmp(&ucb(b)).then(b.cmp(&a)))
            .expect("an expanded node with moves has children")
    }

    /// One iteration from the root at `root`.
    fn iterate(&mut self, root: &Position) {
        let mut pos = *root;
        self.path.clear();
        self.path.push((0, root.turn()));
        let mut at = 0;
        loop {
            if pos.outcome().is_some() {
                break;
            }
            if self.nodes[at].len == 0 {
                self.expand(at, &pos);
                if self.nodes[at].len == 0 {
                    break;
                }
            }
            let mover = pos.turn();
            at = self.select(at);
            let fresh = self.nodes[at].visits == 0;
            pos.play_unchecked(self.nodes[at].mv.expect("a child has a move"));
            self.path.push((at, mover));
            if fresh {
                break;
            }
        }
        let winner = playout(pos, &mut self.rng);
        for &(i, mover) in &self.path {
            let node = &mut self.nodes[i];
            node.visits += 1;
            node.reward += match winner {
                Some(w) if w == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
    }
}

/// Plays uniformly random moves to the end; the winner, or `None` for a
/// draw.
fn playout(mut pos: Position, rng: &mut SmallRng) -> Option<Color> {
    loop {
        match pos.outcome() {
            Some(Outcome::Win { winner, .. }) => return Some(winner),
            Some(Outcome::Draw { .. }) => return None,
            None => {}
        }
        let moves = pos.legal_moves();
        pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
    }
}

/// The move after searching within `limits` (a time, a number of
/// iterations given as `nodes`, or both: the first reached stops it),
/// or `None` if the game is over. The same seed and iteration budget give
/// the same move on any machine.
pub fn best_move(pos: &Position, limits: &Limits, seed: u64) -> Option<Move> {
    search(pos, limits, seed, MAX_NODES).0
}

/// The move and the number of iterations run.
fn search(pos: &Position, limits: &Limits, seed: u64, max_nodes: usize) -> (Option<Move>, u64) {
    if pos.outcome().is_some() {
        return (None, 0);
    }
    let deadline = limits.movetime().map(|t| Instant::now() + t.mul_f64(0.95));
    let iterations = limits.nodes().unwrap_or(u64::MAX).max(1);
    let mut tree = Tree {
        nodes: vec![Node::new(None)],
        max_nodes,
        rng: SmallRng::seed_from_u64(seed),
        path: Vec::new(),
    };
    let mut done = 0;
    while done < iterations && deadline.is_none_or(|d| Instant::now() < d) {
        tree.iterate(pos);
        done += 1;
    }
    let root = &tree.nodes[0];
    let most_visited = root
        .children()
        .max_by_key(|&i| tree.nodes[i].visits)
        .map(|i| tree.nodes[i].mv.expect("a child has a move"));
    // A root never expanded (no time for one iteration): any legal move.
    let best = most_visited.or_else(|| pos.legal_moves().first().copied());
    (best, done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchLimit;
    use std::time::Duration;

    fn position(s: &str) -> Position {
        s.parse().unwrap()
    }

    fn iterations(n: u64) -> Limits {
        Limits::new().with(SearchLimit::Nodes(n))
    }

    #[test]
    fn takes_a_capture_that_wins_the_game() {
        let pos = position("5/5/1rb2/5/5 0 0 r 0");
        let m = best_move(&pos, &iterations(2_000), 1).unwrap();
        assert_eq!(m.to_string(), "b3xd3");
    }

    #[test]
    fn has_no_move_in_a_finished_game() {
        let pos = position("5/5/1r3/5/5 0 0 b 0");
        assert_eq!(best_move(&pos, &iterations(100), 1), None);
    }

    #[test]
    fn an_iteration_budget_and_a_seed_give_the_same_move_every_time() {
        let pos = position("5/1rb2/2r2/1b3/5 10 10 r 4");
        let first = best_move(&pos, &iterations(3_000), 7);
        assert!(first.is_some());
        assert!((0..3).all(|_| best_move(&pos, &iterations(3_000), 7) == first));
    }

    #[test]
    fn a_full_tree_still_answers_with_a_legal_move() {
        // Room for the root and nothing else: no expansion fits, so every
        // iteration is a playout from the root and the answer falls back
        // to a legal move.
        let pos = Position::START;
        let m = search(&pos, &iterations(50), 1, 1).0.unwrap();
        assert!(pos.legal_moves().contains(&m));
        // Room for the root's children only: they are visited, never
        // expanded further, and the most visited is played.
        let m = search(&pos, &iterations(200), 1, 26).0.unwrap();
        assert!(pos.legal_moves().contains(&m));
    }

    #[test]
    fn a_time_limit_ends_the_search_before_the_iteration_budget() {
        // No time at all: not one iteration, whatever the budget allows,
        // and the answer falls back to a legal move.
        let limits = Limits::new()
            .with(SearchLimit::MoveTime(Duration::ZERO))
            .with(SearchLimit::Nodes(1_000));
        let (m, iterations) = search(&Position::START, &limits, 1, MAX_NODES);
        assert_eq!(iterations, 0);
        assert_eq!(m, Position::START.legal_moves().first().copied());
    }
}
