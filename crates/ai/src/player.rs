//! The machine as a player: which move, which hint, whether to accept a draw.
//!
//! [`think`] is the one entry point: it applies the level's style within the
//! request's limits and speaks in the rules crate's moves.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use palabre_rules::{nsolo, yote};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::endgame;
use crate::level::{GameKind, Style};
use crate::nsolo::Nsolo;
use crate::search::{Info, SearchResult, Searcher};
use crate::smp;
use crate::tables::Tables;
use crate::time::Clock;
use crate::tt::Table;
use crate::yote::Yote;
use crate::{Level, Limits, Params, SearchGame, SearchLimit};

/// A position of either game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyPosition {
    Yote(yote::Position),
    Nsolo(nsolo::Position),
}

/// A move of either game, in the rules crate's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnyMove {
    Yote(yote::Move),
    Nsolo(nsolo::Move),
}

impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::Yote(m) => m.fmt(f),
            AnyMove::Nsolo(m) => m.fmt(f),
        }
    }
}

/// What to think about and how hard.
#[derive(Debug, Clone)]
pub struct Request {
    pub position: AnyPosition,
    /// Hashes of the game's earlier positions (Nsolo repetition).
    pub history: Vec<u64>,
    pub level: Level,
    /// Caps on top of the level's own.
    pub limits: Limits,
    pub seed: u64,
    /// Yoté endgame tables to answer from, without a search, where they
    /// cover the position; the caller decides who deserves them (Expert,
    /// hints).
    pub tables: Option<Arc<Tables>>,
    /// Whether this search thinks on the opponent's time, or follows one
    /// that did.
    pub ponder: Ponder,
}

/// Thinking on the opponent's time: while they choose, the machine searches
/// the position they are to move in, and its next search starts from the
/// transposition table that search filled instead of an empty one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Ponder {
    /// A move of its own, from an empty table.
    #[default]
    Off,
    /// The opponent's position, on their time: no level cap applies, so it
    /// runs until stopped or until its own limits.
    OnTheirTime,
    /// The move after a ponder: it reads the table the ponder left.
    After,
}

/// The answer: the move and how it was found.
#[derive(Debug, Clone)]
pub struct Thought {
    /// `None` only when the game is over.
    pub best: Option<AnyMove>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<AnyMove>,
}

/// Chooses a move for the side to move, reporting each finished iteration.
pub fn think(
    req: &Request,
    params: &Params,
    tt: &mut Table,
    stop: &AtomicBool,
    mut report: impl FnMut(&Info<AnyMove>),
) -> Thought {
    let kind = match req.position {
        AnyPosition::Yote(_) => GameKind::Yote,
        AnyPosition::Nsolo(_) => GameKind::Nsolo,
    };
    let style = req
        .level
        .style(kind, Duration::from_millis(params.expert_budget_ms));
    let limits = effective_limits(&style, req, params);
    let bounds = Bounds {
        clock: Clock::new(limits.movetime(), params),
        limits,
    };
    if req.ponder != Ponder::After {
        tt.clear();
    }
    match &req.position {
        AnyPosition::Yote(pos) => {
            let known = req
                .tables
                .as_deref()
                .and_then(|t| endgame::answer(t, pos, params.yote_table_swindle));
            if let Some(thought) = known {
                report(&Info {
                    depth: thought.depth,
                    score: thought.score,
                    nodes: 0,
                    elapsed: thought.elapsed,
                    pv: thought.pv.clone(),
                });
                return thought;
            }
            let game = Yote::with_tables(params.clone(), req.tables.clone());
            let thought = choose(&game, params, pos, req, &style, &bounds, tt, stop, |i| {
                report(&convert_info(i, |m| AnyMove::Yote(*m)))
            });
            map_thought(thought, |m| AnyMove::Yote(*m))
        }
        AnyPosition::Nsolo(pos) => {
            let game = nsolo_for(&style, params);
            let line = |ms: &[crate::nsolo::NsoloMove]| nsolo_line(&game, pos, ms);
            let thought = choose(&game, params, pos, req, &style, &bounds, tt, stop, |i| {
                report(&Info {
                    depth: i.depth,
                    score: i.score,
                    nodes: i.nodes,
                    elapsed: i.elapsed,
                    pv: line(&i.pv),
                })
            });
            Thought {
                best: thought
                    .best
                    .map(|m| AnyMove::Nsolo(game.to_rules_move(pos, m))),
                score: thought.score,
                depth: thought.depth,
                nodes: thought.nodes,
                elapsed: thought.elapsed,
                pv: line(&thought.pv),
            }
        }
    }
}

/// Nsolo as `style` searches it. Every bonus is for the level that spends
/// its whole budget: a fixed depth would search them all and answer far
/// later than its level does.
fn nsolo_for(style: &Style, params: &Params) -> Nsolo {
    let (root, inner) = if style.depth.is_none() {
        (params.nsolo_root_bonuses, params.nsolo_inner_bonuses)
    } else {
        (0, 0)
    };
    Nsolo::new(Params {
        nsolo_root_bonuses: root,
        nsolo_inner_bonuses: inner,
        ..params.clone()
    })
}

/// Turns a line of search moves into rules moves, position by position.
fn nsolo_line(
    game: &Nsolo,
    start: &nsolo::Position,
    line: &[crate::nsolo::NsoloMove],
) -> Vec<AnyMove> {
    let mut pos = start.clone();
    line.iter()
        .map(|&m| {
            let rules_move = game.to_rules_move(&pos, m);
            pos = game.play(&pos, m);
            AnyMove::Nsolo(rules_move)
        })
        .collect()
}

fn convert_info<M>(info: &Info<M>, f: impl Fn(&M) -> AnyMove) -> Info<AnyMove> {
    Info {
        depth: info.depth,
        score: info.score,
        nodes: info.nodes,
        elapsed: info.elapsed,
        pv: info.pv.iter().map(f).collect(),
    }
}

fn map_thought<M>(r: SearchResult<M>, f: impl Fn(&M) -> AnyMove) -> Thought {
    Thought {
        best: r.best.as_ref().map(&f),
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
        elapsed: r.elapsed,
        pv: r.pv.iter().map(f).collect(),
    }
}

/// What bounds one search: its limits, and the deadlines they set from
/// the moment the request was taken up.
struct Bounds {
    limits: Limits,
    clock: Clock,
}

/// The level's limits capped by the request's. A game clock becomes this
/// move's share of it; Expert's own budget a move is for play without a
/// clock, so under one only the clock bounds Expert, and a ponder only its
/// own limits (the opponent's time ends it).
fn effective_limits(style: &Style, req: &Request, params: &Params) -> Limits {
    let mut limits = crate::game_clock::with_budget(req.limits.clone(), &req.position, params);
    let uncapped = req.level == Level::Expert
        && (limits.clock().is_some() || req.ponder == Ponder::OnTheirTime);
    if !uncapped {
        limits = limits.with(SearchLimit::MoveTime(style.movetime));
    }
    if let Some(d) = style.depth {
        limits = limits.with(SearchLimit::Depth(d));
    }
    limits
}

#[allow(clippy::too_many_arguments)]
fn choose<G>(
    game: &G,
    params: &Params,
    pos: &G::Position,
    req: &Request,
    style: &Style,
    bounds: &Bounds,
    tt: &mut Table,
    stop: &AtomicBool,
    report: impl FnMut(&Info<G::Move>),
) -> SearchResult<G::Move>
where
    G: SearchGame + Sync,
    G::Position: Sync,
{
    if style.temperature == 0 {
        let job = smp::Job {
            game,
            params,
            tt,
            stop,
            limits: &bounds.limits,
            clock: bounds.clock,
            history: &req.history,
            quiescence: style.quiescence,
        };
        // Only the level that uses its whole budget gets more threads: a
        // fixed depth would reach the same answer, later and less
        // reproducibly.
        let threads = if style.depth.is_none() {
            params.threads
        } else {
            1
        };
        return smp::search(&job, pos, threads, report);
    }
    let mut searcher = Searcher::new(
        game,
        params,
        tt,
        stop,
        &bounds.limits,
        bounds.clock,
        &req.history,
    );
    searcher.quiescence = style.quiescence;
    let depth = bounds.limits.depth().unwrap_or(1);
    let scored = searcher.score_root_moves(pos, depth);
    let mut rng = SmallRng::seed_from_u64(req.seed ^ game.hash(pos));
    let best = pick_like_a_person(game, &scored, style, &mut rng);
    let score = scored
        .iter()
        .find(|(m, _)| Some(*m) == best)
        .map_or(0, |s| s.1);
    SearchResult {
        best,
        score,
        depth,
        nodes: searcher.nodes(),
        elapsed: Duration::ZERO,
        pv: best.into_iter().collect(),
    }
}

/// Sometimes overlooks the captures, then prefers good moves with noise.
fn pick_like_a_person<G: SearchGame>(
    game: &G,
    scored: &[(G::Move, i32)],
    style: &Style,
    rng: &mut SmallRng,
) -> Option<G::Move> {
    let has_quiet = scored.iter().any(|(m, _)| !game.is_noisy(*m));
    let overlook = has_quiet && rng.gen_bool(style.miss_capture);
    let candidates: Vec<&(G::Move, i32)> = scored
        .iter()
        .filter(|(m, _)| !(overlook && game.is_noisy(*m)))
        .collect();
    let top = candidates.iter().map(|s| s.1).max()?;
    let t = f64::from(style.temperature);
    let weights: Vec<f64> = candidates
        .iter()
        .map(|s| (f64::from((s.1 - top).max(-20 * style.temperature)) / t).exp())
        .collect();
    let mut ticket = rng.gen_range(0.0..weights.iter().sum::<f64>());
    for (c, w) in candidates.iter().zip(&weights) {
        if ticket < *w {
            return Some(c.0);
        }
        ticket -= w;
    }
    candidates.last().map(|c| c.0)
}

/// The search that decides a draw offer: a fixed-depth look.
pub fn draw_request(position: &AnyPosition, history: &[u64]) -> Request {
    Request {
        position: position.clone(),
        history: history.to_vec(),
        level: Level::Confirme,
        limits: Limits::new(),
        seed: 0,
        tables: None,
        ponder: Default::default(),
    }
}

/// Who is asked for a draw, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawOffer {
    /// Whether the machine is the side to move in the searched position
    /// (an offer made on the human's own turn searches the human's move).
    pub machine_to_move: bool,
    /// The game's ply.
    pub ply: usize,
}

/// Whether the answer to [`draw_request`] accepts the draw. The machine
/// judges from its own side: it accepts only when it is worse by the
/// margin, and never in the opening.
pub fn accepts(thought: &Thought, params: &Params, offer: DrawOffer) -> bool {
    if offer.ply < params.draw_min_ply || thought.best.is_none() {
        return false;
    }
    let own = if offer.machine_to_move {
        thought.score
    } else {
        -thought.score
    };
    own <= -params.draw_accept_margin
}

/// Whether the machine accepts a draw, searched on the caller's thread.
pub fn accepts_draw(
    position: &AnyPosition,
    history: &[u64],
    params: &Params,
    offer: DrawOffer,
) -> bool {
    let mut tt = Table::new(16);
    let req = draw_request(position, history);
    let thought = think(&req, params, &mut tt, &AtomicBool::new(false), |_| {});
    accepts(&thought, params, offer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(level: Level, limits: Limits) -> Request {
        Request {
            position: AnyPosition::Yote(yote::Position::START),
            history: Vec::new(),
            level,
            limits,
            seed: 0,
            tables: None,
            ponder: Default::default(),
        }
    }

    #[test]
    fn only_the_level_that_spends_its_budget_searches_every_bonus() {
        let pos: nsolo::Position =
            "2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/2,2,2,2,2,2,2,0/2,2,2,2,2,2,2,2 s"
                .parse()
                .unwrap();
        let params = Params::default();
        for level in Level::ALL {
            let style = level.style(GameKind::Nsolo, Duration::from_secs(2));
            let game = nsolo_for(&style, &params);
            for depth in [u32::MAX, params.nsolo_inner_depth] {
                let mut moves = Vec::new();
                game.generate_at(&pos, depth, &mut moves);
                let every = moves
                    .iter()
                    .any(|(m, _)| usize::from(m.policy) >= crate::nsolo::POLICY_COUNT);
                assert_eq!(every, style.depth.is_none(), "{level:?} at depth {depth}");
            }
        }
    }

    #[test]
    fn a_clock_bounds_expert_alone_and_caps_the_other_levels() {
        let params = Params::default();
        let clock = Limits::new().with(SearchLimit::Clock {
            left: Duration::from_secs(600),
            increment: Duration::from_secs(5),
        });
        let share = crate::game_clock::budget(
            Duration::from_secs(600),
            Duration::from_secs(5),
            &AnyPosition::Yote(yote::Position::START),
            &params,
        );
        let style = |level: Level| level.style(GameKind::Yote, Duration::from_secs(2));
        // A long clock lets Expert think past its 2 s a move.
        let expert = effective_limits(
            &style(Level::Expert),
            &request(Level::Expert, clock.clone()),
            &params,
        );
        assert_eq!(expert.movetime(), Some(share));
        assert!(share > Duration::from_secs(2));
        // The other levels keep their own cap; a short clock caps them too.
        let confirme = effective_limits(
            &style(Level::Confirme),
            &request(Level::Confirme, clock),
            &params,
        );
        assert_eq!(confirme.movetime(), Some(style(Level::Confirme).movetime));
        let short = Limits::new().with(SearchLimit::Clock {
            left: Duration::from_millis(400),
            increment: Duration::ZERO,
        });
        let confirme = effective_limits(
            &style(Level::Confirme),
            &request(Level::Confirme, short),
            &params,
        );
        assert!(confirme.movetime() < Some(style(Level::Confirme).movetime));
        // Without a clock Expert keeps its own budget.
        let untimed = effective_limits(
            &style(Level::Expert),
            &request(Level::Expert, Limits::new()),
            &params,
        );
        assert_eq!(untimed.movetime(), Some(Duration::from_secs(2)));
    }

    #[test]
    fn a_ponder_lifts_expert_s_budget_alone() {
        let params = Params::default();
        let style = |level: Level| level.style(GameKind::Yote, Duration::from_secs(2));
        let pondering = |level: Level, limits: Limits| Request {
            ponder: Ponder::OnTheirTime,
            ..request(level, limits)
        };
        // Expert ponders until stopped, or within the limits it is given.
        let expert = effective_limits(
            &style(Level::Expert),
            &pondering(Level::Expert, Limits::new()),
            &params,
        );
        assert!(expert.is_infinite(), "{expert:?}");
        let budget = Limits::new().with(SearchLimit::Nodes(5000));
        let within = effective_limits(
            &style(Level::Expert),
            &pondering(Level::Expert, budget.clone()),
            &params,
        );
        assert_eq!((within.nodes(), within.movetime()), (Some(5000), None));
        // The other levels keep their cap: they never think past it.
        let confirme = effective_limits(
            &style(Level::Confirme),
            &pondering(Level::Confirme, Limits::new()),
            &params,
        );
        assert_eq!(confirme.movetime(), Some(style(Level::Confirme).movetime));
    }

    /// Expert's nodes to reach `depth` on `moves` from the start, after
    /// pondering first, a ply deeper, on the position before, or not.
    fn nodes_after(pondered: bool, moves: &[&str], depth: u32) -> u64 {
        // No time bound, so that a busy machine changes no count.
        let params = Params {
            expert_budget_ms: 600_000,
            ..Params::default()
        };
        let mut tt = Table::new(params.tt_bits);
        let stop = AtomicBool::new(false);
        let at = |n: usize| {
            let record = palabre_rules::Record::replay(yote::Position::START, &moves[..n]).unwrap();
            AnyPosition::Yote(*record.position())
        };
        let limits = |d: u32| Limits::new().with(SearchLimit::Depth(d));
        if pondered {
            let before = Request {
                position: at(moves.len() - 1),
                ponder: Ponder::OnTheirTime,
                ..request(Level::Expert, limits(depth + 1))
            };
            think(&before, &params, &mut tt, &stop, |_| {});
        }
        let req = Request {
            position: at(moves.len()),
            ponder: if pondered { Ponder::After } else { Ponder::Off },
            ..request(Level::Expert, limits(depth))
        };
        think(&req, &params, &mut tt, &stop, |_| {}).nodes
    }

    #[test]
    fn the_move_after_a_ponder_starts_from_its_table() {
        // Red has just played b2; Black's best reply is the capture.
        let line = ["c3", "c4", "b2", "c4xc2/b2"];
        let fresh = nodes_after(false, &line, 8);
        let warm = nodes_after(true, &line, 8);
        assert!(
            warm * 4 < fresh * 3,
            "after a ponder {warm} nodes, fresh {fresh}"
        );
    }
}
