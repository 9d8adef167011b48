//! Game analysis: how much each move of a finished (or unfinished) game
//! gave away, in the engine's own score units, with no I/O so the command
//! line and, later, the browser can share it.
//!
//! For each ply the position before the move is searched by scoring every
//! root move with a full window at the same depth
//! ([`Searcher::score_root_moves`]), deepening while the limits allow; the
//! played move is found among the root moves by the position it leads to
//! (an Nsolo bonus the search's policies do not produce is searched on its
//! own at the same depth). The loss is the best score minus the played
//! move's, both from the mover's side, and [`Thresholds`] turn it into a
//! [`Mark`]. Forced wins and losses are reported on a bounded scale
//! ([`bounded`]) so that losses stay ordinary numbers.

use std::sync::atomic::AtomicBool;

use palabre_rules::{GamePosition, Record, nsolo, yote};

use crate::nsolo::Nsolo;
use crate::score::{WIN, from_tt, is_decisive};
use crate::search::Searcher;
use crate::time::Clock;
use crate::tt::Table;
use crate::yote::Yote;
use crate::{Limits, Params, SearchGame, SearchLimit};

/// A forced win reported after `n` plies is `EVAL_WIN - n` (a loss the
/// negation); every other evaluation stays below [`EVAL_WIN_BOUND`].
pub const EVAL_WIN: i32 = 100_000;
/// Evaluations beyond this (in absolute value) are forced wins or losses.
pub const EVAL_WIN_BOUND: i32 = 90_000;

/// Deepest iteration when the limits name no depth.
const MAX_DEPTH: u32 = 64;

/// The depth an analysis searches when told neither a depth nor a time:
/// Confirmé's, the level a hint plays.
pub fn default_depth(kind: crate::level::GameKind) -> u32 {
    crate::Level::Confirme
        .style(kind, std::time::Duration::ZERO)
        .depth
        .unwrap_or(4)
}

/// How bad a move was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The word the JSON output uses.
    pub const fn as_str(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// The smallest loss, in score units, that earns each mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thresholds {
    pub inaccuracy: i32,
    pub mistake: i32,
    pub blunder: i32,
}

impl Thresholds {
    /// Yoté, from the value of a ball: half a ball, one ball, two balls
    /// (what one capture takes).
    pub fn yote(params: &Params) -> Thresholds {
        let ball = params.yote_ball;
        Thresholds {
            inaccuracy: ball / 2,
            mistake: ball,
            blunder: 2 * ball,
        }
    }

    /// Nsolo, from the value of a stone: a capture takes at least two
    /// stones and usually four or more, and the evaluation moves by about a
    /// stone from one depth to the next, so one, two and four stones.
    pub fn nsolo(params: &Params) -> Thresholds {
        let stone = params.nsolo_stone;
        Thresholds {
            inaccuracy: stone,
            mistake: 2 * stone,
            blunder: 4 * stone,
        }
    }

    /// The mark a move that lost `loss` earns, if any.
    pub fn mark(&self, loss: i32) -> Option<Mark> {
        if loss >= self.blunder {
            Some(Mark::Blunder)
        } else if loss >= self.mistake {
            Some(Mark::Mistake)
        } else if loss >= self.inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The mark for a move scored `played` where the best scored `best`
    /// (both [`bounded`], from the mover's side). A forced win given away
    /// or a forced loss walked into is always a blunder; a slower forced
    /// win is no mistake.
    pub fn classify(&self, best: i32, played: i32) -> Option<Mark> {
        let won = |s: i32| s > EVAL_WIN_BOUND;
        let lost = |s: i32| s < -EVAL_WIN_BOUND;
        if (won(best) && !won(played)) || (lost(played) && !lost(best)) {
            return Some(Mark::Blunder);
        }
        if won(best) || lost(best) {
            return None;
        }
        self.mark(best - played)
    }
}

/// A search score on the reported scale: ordinary scores unchanged (capped
/// below [`EVAL_WIN_BOUND`]), a win in `n` plies `EVAL_WIN - n`, a loss in
/// `n` plies `-(EVAL_WIN - n)`.
pub fn bounded(score: i32) -> i32 {
    if is_decisive(score) {
        let plies = WIN - score.abs();
        score.signum() * (EVAL_WIN - plies.min(EVAL_WIN - EVAL_WIN_BOUND - 1))
    } else {
        score.clamp(-EVAL_WIN_BOUND, EVAL_WIN_BOUND)
    }
}

/// What the analysis says about one move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlyReport<M> {
    /// The move's number in the game, from 1 (the first move is ply 1).
    pub ply: usize,
    /// The move played.
    pub played: M,
    /// The engine's best move in the position before it.
    pub best: M,
    /// The best move's score from the mover's side ([`bounded`]).
    pub best_eval: i32,
    /// The played move's score from the mover's side ([`bounded`]): the
    /// evaluation of the position after it, `best_eval - loss`.
    pub eval: i32,
    /// `best_eval - eval`, never negative.
    pub loss: i32,
    pub mark: Option<Mark>,
    /// The deepest iteration completed for this ply.
    pub depth: u32,
}

/// A game the analysis can speak about in the rules' own moves.
pub trait Analysable<P: GamePosition>: SearchGame<Position = P> {
    /// The rules' move for a search move played in `pos`.
    fn rules_move(&self, pos: &P, m: Self::Move) -> P::Move;
    /// How large a loss earns each mark in this game.
    fn thresholds(&self) -> Thresholds;
}

impl Analysable<yote::Position> for Yote {
    fn rules_move(&self, _pos: &yote::Position, m: yote::Move) -> yote::Move {
        m
    }

    fn thresholds(&self) -> Thresholds {
        Thresholds::yote(&self.params)
    }
}

impl Analysable<nsolo::Position> for Nsolo {
    fn rules_move(&self, pos: &nsolo::Position, m: crate::nsolo::NsoloMove) -> nsolo::Move {
        self.to_rules_move(pos, m)
    }

    fn thresholds(&self) -> Thresholds {
        Thresholds::nsolo(&self.params)
    }
}

/// Analyses every move of `record`, in order.
pub fn analyse<P: GamePosition, G: Analysable<P>>(
    game: &G,
    record: &Record<P>,
    limits: &Limits,
    params: &Params,
) -> Vec<PlyReport<P::Move>> {
    let mut reports = Vec::with_capacity(record.ply());
    analyse_each(game, record, limits, params, |r| reports.push(r));
    reports
}

/// Analyses every move of `record`, handing each report over as soon as
/// it is ready. Each ply starts from an empty table, so its report does
/// not depend on the plies before it.
pub fn analyse_each<P: GamePosition, G: Analysable<P>>(
    game: &G,
    record: &Record<P>,
    limits: &Limits,
    params: &Params,
    mut report: impl FnMut(PlyReport<P::Move>),
) {
    let mut tt = Table::new(params.tt_bits);
    let mut history = Vec::with_capacity(record.ply());
    for (ply, played) in record.moves().iter().enumerate() {
        let (Some(before), Some(after)) = (record.position_at(ply), record.position_at(ply + 1))
        else {
            break;
        };
        tt.clear();
        let found = search_ply(game, params, &mut tt, limits, before, after, &history);
        report(ply_report(game, ply + 1, before, played, found));
        history.push(before.hash());
    }
}

/// What the deepest complete iteration found for one ply.
struct Found<M> {
    best: Option<(M, i32)>,
    /// The played move's score.
    played: i32,
    played_is_best: bool,
    depth: u32,
}

/// The line for one ply; with nothing found (a node budget spent before
/// depth 1 completed) the played move stands as the best at 0.
fn ply_report<P: GamePosition, G: Analysable<P>>(
    game: &G,
    ply: usize,
    before: &P,
    played: &P::Move,
    found: Option<Found<G::Move>>,
) -> PlyReport<P::Move> {
    let unsearched = PlyReport {
        ply,
        played: played.clone(),
        best: played.clone(),
        best_eval: 0,
        eval: 0,
        loss: 0,
        mark: None,
        depth: 0,
    };
    let Some(found) = found else {
        return unsearched;
    };
    let played_eval = bounded(found.played);
    let (best, best_eval) = match found.best {
        Some((m, score)) if !found.played_is_best && score > found.played => {
            (game.rules_move(before, m), bounded(score))
        }
        _ => (played.clone(), played_eval),
    };
    let loss = best_eval - played_eval;
    PlyReport {
        best,
        best_eval,
        eval: played_eval,
        loss,
        mark: game.thresholds().classify(best_eval, played_eval),
        depth: found.depth,
        ..unsearched
    }
}

/// Deepens on the position before the move until a limit is reached; an
/// iteration cut short by time or nodes is dropped.
fn search_ply<P: GamePosition, G: Analysable<P>>(
    game: &G,
    params: &Params,
    tt: &mut Table,
    limits: &Limits,
    before: &P,
    after: &P,
    history: &[u64],
) -> Option<Found<G::Move>> {
    let mut budget = Budget {
        clock: Clock::new(limits.movetime(), params),
        untimed: Clock::new(None, params),
        timed: false,
        nodes_left: limits.nodes(),
        cut: false,
    };
    let mut found = None;
    for depth in 1..=limits.depth().unwrap_or(MAX_DEPTH).min(MAX_DEPTH) {
        // The first iteration always completes: every ply gets an answer.
        budget.timed = depth > 1;
        let result = iterate(game, params, tt, &mut budget, before, after, history, depth);
        if budget.cut {
            break;
        }
        found = Some(result);
        if budget.clock.soft_expired() {
            break;
        }
    }
    found
}

/// What is left of a ply's limits, and whether a search ran out.
struct Budget {
    clock: Clock,
    /// The clock of a search the time does not stop.
    untimed: Clock,
    timed: bool,
    nodes_left: Option<u64>,
    cut: bool,
}

impl Budget {
    /// Scores the root moves of `pos` at `depth` with `history` before it,
    /// noting whether the search was cut short.
    fn score<G: SearchGame>(
        &mut self,
        game: &G,
        params: &Params,
        tt: &mut Table,
        history: &[u64],
        pos: &G::Position,
        depth: u32,
    ) -> Vec<(G::Move, i32)> {
        let limits = self
            .nodes_left
            .map_or_else(Limits::new, |n| Limits::new().with(SearchLimit::Nodes(n)));
        let stop = AtomicBool::new(false);
        let clock = if self.timed { self.clock } else { self.untimed };
        let mut searcher = Searcher::new(game, params, tt, &stop, &limits, clock, history);
        let scored = searcher.score_root_moves(pos, depth);
        let nodes = searcher.nodes();
        let out_of_nodes = self.nodes_left.is_some_and(|n| nodes >= n);
        self.nodes_left = self.nodes_left.map(|n| n.saturating_sub(nodes));
        self.cut |= out_of_nodes || (self.timed && self.clock.hard_expired());
        scored
    }
}

/// One iteration: every root move scored at `depth`, and the played move.
#[allow(clippy::too_many_arguments)]
fn iterate<P: GamePosition, G: Analysable<P>>(
    game: &G,
    params: &Params,
    tt: &mut Table,
    budget: &mut Budget,
    before: &P,
    after: &P,
    history: &[u64],
    depth: u32,
) -> Found<G::Move> {
    let scored = budget.score(game, params, tt, history, before, depth);
    let played = scored.iter().find(|(m, _)| game.play(before, *m) == *after);
    let best = best_of(&scored, played.map(|p| p.0));
    let played_is_best = played.is_some_and(|p| best.is_some_and(|b| b.0 == p.0));
    let played = match played {
        Some(&(_, score)) => score,
        None if budget.cut => 0,
        None => {
            let mut path = history.to_vec();
            path.push(before.hash());
            score_child(game, params, tt, budget, &path, after, depth)
        }
    };
    Found {
        best,
        played,
        played_is_best,
        depth,
    }
}

/// The highest-scored move, the played one winning a tie.
fn best_of<M: Copy + PartialEq>(scored: &[(M, i32)], played: Option<M>) -> Option<(M, i32)> {
    let top = scored.iter().map(|s| s.1).max()?;
    scored
        .iter()
        .filter(|s| s.1 == top)
        .find(|s| Some(s.0) == played)
        .or_else(|| scored.iter().find(|s| s.1 == top))
        .copied()
}

/// The score, from the mover's side, of a position reached by a move the
/// search does not generate (an Nsolo bonus no policy chooses): the best
/// reply one ply shallower, seen from the other side.
fn score_child<P: GamePosition, G: Analysable<P>>(
    game: &G,
    params: &Params,
    tt: &mut Table,
    budget: &mut Budget,
    path: &[u64],
    after: &P,
    depth: u32,
) -> i32 {
    if let Some(outcome) = game.quick_outcome(after) {
        return if outcome == 0 { 0 } else { WIN - 1 };
    }
    let replies = budget.score(
        game,
        params,
        tt,
        path,
        after,
        depth.saturating_sub(1).max(1),
    );
    match replies.iter().map(|s| s.1).max() {
        Some(best_reply) => -from_tt(best_reply, 1),
        None => WIN - 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yote_thresholds_follow_the_ball() {
        let t = Thresholds::yote(&Params::default());
        assert_eq!((t.inaccuracy, t.mistake, t.blunder), (50, 100, 200));
        assert_eq!(t.mark(0), None);
        assert_eq!(t.mark(49), None);
        assert_eq!(t.mark(50), Some(Mark::Inaccuracy));
        assert_eq!(t.mark(99), Some(Mark::Inaccuracy));
        assert_eq!(t.mark(100), Some(Mark::Mistake));
        assert_eq!(t.mark(199), Some(Mark::Mistake));
        assert_eq!(t.mark(200), Some(Mark::Blunder));
    }

    #[test]
    fn nsolo_thresholds_are_wider() {
        let t = Thresholds::nsolo(&Params::default());
        assert_eq!(t.classify(300, 250), None);
        assert_eq!(t.classify(300, 150), Some(Mark::Inaccuracy));
        assert_eq!(t.classify(300, 0), Some(Mark::Mistake));
        assert_eq!(t.classify(300, -100), Some(Mark::Blunder));
    }

    #[test]
    fn forced_results_are_bounded_and_classified() {
        let t = Thresholds::yote(&Params::default());
        let win_in_3 = bounded(WIN - 3);
        let win_in_5 = bounded(WIN - 5);
        let loss_in_2 = bounded(-(WIN - 2));
        assert_eq!((win_in_3, win_in_5, loss_in_2), (99_997, 99_995, -99_998));
        assert_eq!(bounded(1234), 1234);
        // A slower win is no mistake; a win given away is a blunder even
        // when the position stays good.
        assert_eq!(t.classify(win_in_3, win_in_5), None);
        assert_eq!(t.classify(win_in_3, 150), Some(Mark::Blunder));
        // Walking into a forced loss from an ordinary position, too.
        assert_eq!(t.classify(-20, loss_in_2), Some(Mark::Blunder));
        // Already lost: a quicker loss is no mark.
        assert_eq!(t.classify(bounded(-(WIN - 9)), loss_in_2), None);
    }

    #[test]
    fn a_capture_thrown_away_is_a_blunder() {
        // Red c3, Black c4 beside it: Red can jump c3xc5 now; a quiet a1
        // lets Black jump c4xc2 instead.
        let record = Record::replay(yote::Position::START, &["c3", "c4", "a1"]).unwrap();
        let params = Params::default();
        let limits = Limits::new().with(SearchLimit::Depth(2));
        let reports = analyse(&Yote::new(params.clone()), &record, &limits, &params);
        assert_eq!(reports.len(), 3);
        let third = &reports[2];
        assert_eq!(third.ply, 3);
        assert_eq!(third.mark, Some(Mark::Blunder), "{third:?}");
        assert!(third.best.is_capture(), "{third:?}");
        assert_eq!(third.loss, third.best_eval - third.eval);
        assert_eq!(third.depth, 2);
    }

    #[test]
    fn a_move_the_search_does_not_generate_scores_like_one_it_does() {
        // The fallback for an Nsolo bonus no policy picks searches the
        // position after the move; on a generated move it must agree with
        // the root scoring at the same depth.
        let params = Params::default();
        let game = Yote::new(params.clone());
        let record = Record::replay(yote::Position::START, &["c3", "c4"]).unwrap();
        let before = record.position();
        let mut after = *before;
        after.play(&"a1".parse().unwrap()).unwrap();
        let mut tt = Table::new(12);
        let mut budget = Budget {
            clock: Clock::new(None, &params),
            untimed: Clock::new(None, &params),
            timed: true,
            nodes_left: None,
            cut: false,
        };
        let scored = budget.score(&game, &params, &mut tt, &[], before, 2);
        let direct = scored
            .iter()
            .find(|(m, _)| m.to_string() == "a1")
            .unwrap()
            .1;
        tt.clear();
        let path = [before.hash()];
        let fallback = score_child(&game, &params, &mut tt, &mut budget, &path, &after, 2);
        assert_eq!(fallback, direct);
        assert!(!budget.cut);
    }
}
