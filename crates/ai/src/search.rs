//! Iterative-deepening principal-variation search, generic over a game.
//!
//! Each iteration searches the root moves with the previous best first; a
//! capture-only quiescence search resolves the horizon (every move, for a
//! few plies, where the game says the side to move cannot wait). The
//! search checks its stop flag, deadline and node budget every few hundred
//! nodes and, when stopped, answers with the best move of the deepest
//! finished iteration.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::game::NOISY;
use crate::score::{INFINITY, WIN, from_tt, is_decisive, to_tt};
use crate::time::Clock;
use crate::tt::{Bound, Entry, Table};
use crate::{Limits, Params, SearchGame};

const MAX_PLY: usize = 96;
const MAX_DEPTH: u32 = 64;
const CHECK_EVERY: u64 = 255;
const KILLER: i32 = NOISY - 1000;
const TT_MOVE: i32 = i32::MAX;

/// Progress after each finished iteration.
#[derive(Debug, Clone)]
pub struct Info<M> {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<M>,
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct SearchResult<M> {
    /// `None` only when the side to move has no move.
    pub best: Option<M>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<M>,
}

/// A node's window and best move so far, as its moves are searched.
struct Node {
    alpha: i32,
    beta: i32,
    best_score: i32,
    best_key: Option<u32>,
}

/// One search: its game, tables and counters.
pub struct Searcher<'a, G: SearchGame> {
    game: &'a G,
    params: &'a Params,
    tt: &'a Table,
    stop: &'a AtomicBool,
    clock: Clock,
    node_limit: Option<u64>,
    nodes: u64,
    stopped: bool,
    killers: Vec<[Option<u32>; 2]>,
    history: Vec<i32>,
    buffers: Vec<Vec<(G::Move, i32)>>,
    /// Hashes of the game's earlier positions, then of the search path.
    path: Vec<u64>,
    /// Search quiescence at the horizon (off for the weakest level).
    pub quiescence: bool,
    /// The first iteration's depth: a Lazy SMP helper starts deeper than
    /// the main thread so the two search different trees.
    pub first_depth: u32,
}

impl<G: SearchGame> std::fmt::Debug for Searcher<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("nodes", &self.nodes)
            .field("stopped", &self.stopped)
            .finish()
    }
}

impl<'a, G: SearchGame> Searcher<'a, G> {
    pub fn new(
        game: &'a G,
        params: &'a Params,
        tt: &'a Table,
        stop: &'a AtomicBool,
        limits: &Limits,
        clock: Clock,
        history: &[u64],
    ) -> Searcher<'a, G> {
        Searcher {
            game,
            params,
            tt,
            stop,
            clock,
            node_limit: limits.nodes(),
            nodes: 0,
            stopped: false,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; G::HISTORY_SLOTS],
            buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            path: history.to_vec(),
            quiescence: true,
            first_depth: 1,
        }
    }

    /// Deepens until a limit is reached, reporting each finished iteration.
    pub fn run(
        &mut self,
        root: &G::Position,
        max_depth: Option<u32>,
        mut report: impl FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut moves = Vec::new();
        self.game.generate_at(root, u32::MAX, &mut moves);
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        let mut result = SearchResult {
            best: moves.first().map(|m| m.0),
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        if moves.is_empty() {
            return result;
        }
        let root_hash = self.game.hash(root);
        for depth in self.first_depth..=max_depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH) {
            let (score, completed) = self.search_root(root, root_hash, depth, &mut moves);
            if completed == 0 {
                break;
            }
            result.best = Some(moves[0].0);
            result.score = score;
            result.depth = depth;
            result.pv = self.principal_variation(root, moves[0].0, depth);
            result.nodes = self.nodes;
            result.elapsed = self.clock.elapsed();
            if self.stopped {
                break;
            }
            report(&Info {
                depth,
                score,
                nodes: self.nodes,
                elapsed: result.elapsed,
                pv: result.pv.clone(),
            });
            let forced = is_decisive(score) && WIN - score.abs() <= depth as i32;
            if forced || moves.len() == 1 || self.clock.soft_expired() {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.clock.elapsed();
        result
    }

    /// Searches every root move at `depth`, moving the best to the front.
    /// Returns the best score and how many moves were searched completely.
    fn search_root(
        &mut self,
        root: &G::Position,
        root_hash: u64,
        depth: u32,
        moves: &mut [(G::Move, i32)],
    ) -> (i32, usize) {
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut completed = 0;
        self.path.push(root_hash);
        for i in 0..moves.len() {
            // A root move can cost far more than the nodes between two
            // checks (an Nsolo bonus looked ahead on a wide board): the
            // clock is read before each one too.
            if i > 0 && self.told_to_stop() {
                self.stopped = true;
                break;
            }
            let child = self.game.play(root, moves[i].0);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && !self.stopped {
                    -self.negamax(&child, depth - 1, -beta, -alpha, 1)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            completed += 1;
            if score > alpha {
                alpha = score;
                moves[..=i].rotate_right(1);
            }
        }
        self.path.pop();
        if completed > 0 {
            let key = self.game.key(moves[0].0);
            let score = to_tt(alpha, 0);
            self.tt.store(Entry {
                key: root_hash,
                best: Some(key),
                score,
                depth: depth as u8,
                bound: Bound::Exact,
            });
        }
        (alpha, completed)
    }

    /// Scores every root move with a full window at `depth` (for the weaker
    /// levels, which choose among them).
    pub fn score_root_moves(&mut self, root: &G::Position, depth: u32) -> Vec<(G::Move, i32)> {
        let mut moves = Vec::new();
        // Its depth, not the root's mark: every move here gets a full
        // window, so the root's widest choice (every Nsolo bonus) would
        // multiply the work.
        self.game.generate_at(root, depth, &mut moves);
        let root_hash = self.game.hash(root);
        self.path.push(root_hash);
        let scored = moves
            .iter()
            .map(|&(m, _)| {
                let child = self.game.play(root, m);
                (
                    m,
                    -self.negamax(&child, depth.saturating_sub(1), -INFINITY, INFINITY, 1),
                )
            })
            .collect();
        self.path.pop();
        scored
    }

    /// Whether the stop flag is up or the hard deadline has passed.
    fn told_to_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.clock.hard_expired()
    }

    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & CHECK_EVERY == 0
            && (self.told_to_stop() || self.node_limit.is_some_and(|n| self.nodes >= n))
        {
            self.stopped = true;
        }
    }

    fn negamax(&mut self, pos: &G::Position, depth: u32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.tick();
        if self.stopped {
            return 0;
        }
        if let Some(o) = self.game.quick_outcome(pos) {
            return if o == 0 { 0 } else { -(WIN - ply as i32) };
        }
        if let Some(v) = self.game.known(pos) {
            return at_ply(v, ply);
        }
        let hash = self.game.hash(pos);
        if G::REPETITION_DRAWS && self.path.contains(&hash) {
            return 0;
        }
        if depth == 0 || ply >= MAX_PLY {
            return if self.quiescence {
                self.quiesce(pos, alpha, beta, ply, 0)
            } else {
                self.game.evaluate(pos)
            };
        }
        let entry = self.tt.probe(hash);
        if let Some(e) = entry.filter(|e| u32::from(e.depth) >= depth) {
            let score = from_tt(e.score, ply as u32);
            let usable = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }
        let tt_key = entry.and_then(|e| e.best);
        let original_alpha = alpha;
        let mut node = Node {
            alpha,
            beta,
            best_score: -INFINITY,
            best_key: None,
        };
        self.path.push(hash);
        // The table's move first, before the others are generated: where it
        // cuts, as it mostly does, the generation is saved.
        let first = tt_key.and_then(|k| self.game.move_for_key(pos, depth, k));
        let cut = first.is_some_and(|m| self.visit(&mut node, pos, m, depth, ply, 0));
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        if !cut {
            self.game.generate_at(pos, depth, &mut moves);
            if moves.is_empty() {
                self.path.pop();
                self.buffers[ply] = moves;
                return -(WIN - ply as i32);
            }
            self.score_moves(&mut moves, tt_key, ply);
            let start = match first {
                // Where the loop would have picked it: the rest keep their order.
                Some(m) => {
                    let j = moves.iter().position(|&(g, _)| g == m);
                    moves.swap(0, j.expect("the table's move is generated"));
                    1
                }
                None => 0,
            };
            for i in start..moves.len() {
                pick_next(&mut moves, i);
                if self.visit(&mut node, pos, moves[i].0, depth, ply, i) {
                    break;
                }
            }
        }
        let Node {
            best_score,
            best_key,
            ..
        } = node;
        self.path.pop();
        self.buffers[ply] = moves;
        if !self.stopped {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let score = to_tt(best_score, ply as u32);
            self.tt.store(Entry {
                key: hash,
                best: best_key,
                score,
                depth: depth as u8,
                bound,
            });
        }
        best_score
    }

    /// Searches move `m`, the `index`th at its node, and keeps it in `node`
    /// if it is the best yet; true when the node is done (a cut, or a stop).
    fn visit(
        &mut self,
        node: &mut Node,
        pos: &G::Position,
        m: G::Move,
        depth: u32,
        ply: usize,
        index: usize,
    ) -> bool {
        let child = self.game.play(pos, m);
        let noisy = self.game.is_noisy(m);
        let score = self.search_child(&child, depth, node.alpha, node.beta, ply, index, noisy);
        if self.stopped {
            return true;
        }
        if score > node.best_score {
            (node.best_score, node.best_key) = (score, Some(self.game.key(m)));
            if score > node.alpha {
                node.alpha = score;
                if node.alpha >= node.beta {
                    self.reward(m, depth, ply);
                    return true;
                }
            }
        }
        false
    }

    /// The first move gets a full window; later ones a null window, reduced
    /// when late and quiet, and are searched again if they surprise.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        child: &G::Position,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        index: usize,
        noisy: bool,
    ) -> i32 {
        if index == 0 {
            return -self.negamax(child, depth - 1, -beta, -alpha, ply + 1);
        }
        let reduce = depth >= self.params.lmr_depth && index >= self.params.lmr_index && !noisy;
        let r = u32::from(reduce);
        let mut score = -self.negamax(child, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
        if score > alpha && (r > 0 || score < beta) && !self.stopped {
            score = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1);
        }
        score
    }

    fn quiesce(
        &mut self,
        pos: &G::Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
        self.tick();
        if self.stopped {
            return 0;
        }
        if let Some(o) = self.game.quick_outcome(pos) {
            return if o == 0 { 0 } else { -(WIN - ply as i32) };
        }
        if let Some(v) = self.game.known(pos) {
            return at_ply(v, ply);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        let (mut best, width) = if ply < MAX_PLY && self.game.cannot_wait(pos, qply) {
            // The side to move cannot wait here: no standing pat.
            self.game.generate(pos, &mut moves);
            (-(WIN - ply as i32), usize::MAX)
        } else {
            let stand = self.game.evaluate(pos);
            let (max_plies, width) = self.game.quiescence_limits();
            if stand >= beta || qply >= max_plies || ply >= MAX_PLY {
                self.buffers[ply] = moves;
                return stand;
            }
            alpha = alpha.max(stand);
            self.game.generate_noisy(pos, &mut moves);
            (stand, width)
        };
        for i in 0..moves.len().min(width) {
            pick_next(&mut moves, i);
            let child = self.game.play(pos, moves[i].0);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                break;
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.buffers[ply] = moves;
        best
    }

    fn score_moves(&self, moves: &mut [(G::Move, i32)], tt_move: Option<u32>, ply: usize) {
        let killers = self.killers[ply];
        for (m, score) in moves.iter_mut() {
            let key = self.game.key(*m);
            if Some(key) == tt_move {
                *score = TT_MOVE;
            } else if *score < NOISY {
                *score = if killers.contains(&Some(key)) {
                    KILLER
                } else {
                    self.history[self.game.history_slot(*m)].min(KILLER - 1)
                };
            }
        }
    }

    fn reward(&mut self, m: G::Move, depth: u32, ply: usize) {
        if self.game.is_noisy(m) {
            return;
        }
        let key = Some(self.game.key(m));
        let k = &mut self.killers[ply];
        if k[0] != key {
            k[1] = k[0];
            k[0] = key;
        }
        let slot = &mut self.history[self.game.history_slot(m)];
        *slot = (*slot + (depth * depth) as i32).min(KILLER - 1);
    }

    /// The best line, read from the transposition table.
    fn principal_variation(&self, root: &G::Position, first: G::Move, depth: u32) -> Vec<G::Move> {
        let mut pv = vec![first];
        let mut pos = self.game.play(root, first);
        let mut seen = vec![self.game.hash(root)];
        let mut moves = Vec::new();
        while pv.len() < depth as usize {
            let hash = self.game.hash(&pos);
            if seen.contains(&hash) || self.game.quick_outcome(&pos).is_some() {
                break;
            }
            seen.push(hash);
            let Some(key) = self.tt.probe(hash).and_then(|e| e.best) else {
                break;
            };
            moves.clear();
            self.game.generate_at(&pos, u32::MAX, &mut moves);
            let Some(&(m, _)) = moves.iter().find(|(m, _)| self.game.key(*m) == key) else {
                break;
            };
            pv.push(m);
            pos = self.game.play(&pos, m);
        }
        pv
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// A known value scored as at the root, seen `ply` plies deep: a nearer win
/// is worth more, a nearer loss less.
fn at_ply(value: i32, ply: usize) -> i32 {
    match value.signum() {
        1 => value - ply as i32,
        -1 => value + ply as i32,
        _ => 0,
    }
}

/// Brings the best-scored remaining move to index `i` (selection sort, so a
/// cut-off early does not pay for sorting the rest).
fn pick_next<M: Copy>(moves: &mut [(M, i32)], i: usize) {
    let best = (i..moves.len()).max_by_key(|&j| moves[j].1).unwrap_or(i);
    moves.swap(i, best);
}
