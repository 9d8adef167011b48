//! The benchmark positions: fixed positions of both games searched to fixed
//! depths. The total node count is a checksum of the search's behaviour;
//! nodes per second measure its speed. `palabre bench` runs them natively
//! and the browser's engine runs the same ones, so the two compare.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use palabre_rules::{nsolo, yote};

use crate::nsolo::Nsolo;
use crate::search::Searcher;
use crate::time::{Clock, Instant};
use crate::tt::Table;
use crate::yote::Yote;
use crate::{Limits, Params, SearchGame, SearchLimit, SearchResult};

/// Yoté positions and depths: the start, placement fights, the step phase.
pub const YOTE: &[(&str, u32)] = &[
    ("5/5/5/5/5 12 12 r 0", 8),
    ("1b3/3b1/4b/3r1/rb1r1 7 8 r 4", 8),
    ("r1bb1/rr1bb/1br1r/3br/bbrr1 2 0 r 5", 8),
    ("1r3/1bbb1/1br1r/2b1r/r1b1r 0 0 r 1", 12),
    ("5/1b2b/rr3/5/r3r 0 0 r 2", 14),
];

/// Nsolo positions and depths: 4×8 start and middle game, 4×12, 4×36.
/// The start has the most bonuses to search (every one of its captures
/// has 105, all searched at the root and inside the tree): depth 5 is
/// some 3.5 million nodes, where depth 6 would take minutes.
pub const NSOLO: &[(&str, u32)] = &[
    (
        "2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/2,2,2,2,2,2,2,0/2,2,2,2,2,2,2,2 s",
        5,
    ),
    (
        "1,2,1,0,1,2,5,1/2,0,2,2,1,5,0,3/3,1,1,2,0,2,0,2/2,0,1,1,0,0,4,1 s",
        9,
    ),
    (
        "0,0,1,2,0,1,1,1,0,0,0,3/1,0,1,2,1,1,0,2,0,2,3,0/0,1,0,1,1,0,1,2,0,1,1,0/1,5,1,1,0,2,0,0,2,2,0,2 s",
        7,
    ),
    (START_36, 3),
];

/// The 4×36 start position.
const START_36: &str = "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2/\
    0,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2/\
    2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,0/\
    2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2 s";

/// One benchmark position's count and time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    pub nodes: u64,
    pub time: Duration,
}

/// Searches the position `fen` of `game` (`yote` or `nsolo`) to `depth`.
pub fn run_one(game: &str, fen: &str, depth: u32, params: &Params) -> Result<Count, String> {
    let (nodes, time) = match game {
        "yote" => {
            let pos: yote::Position = fen.parse().map_err(|e| format!("{e}"))?;
            search(&Yote::new(params.clone()), &pos, depth, params)
        }
        "nsolo" => {
            let pos: nsolo::Position = fen.parse().map_err(|e| format!("{e}"))?;
            search(&Nsolo::new(params.clone()), &pos, depth, params)
        }
        other => return Err(format!("no game {other}")),
    };
    Ok(Count { nodes, time })
}

/// Every benchmark position, game by game.
pub fn positions() -> impl Iterator<Item = (&'static str, &'static str, u32)> {
    let of = |name: &'static str, list: &'static [(&'static str, u32)]| {
        list.iter().map(move |(fen, depth)| (name, *fen, *depth))
    };
    of("yote", YOTE).chain(of("nsolo", NSOLO))
}

/// Searches one position to `depth` with a fresh table; returns nodes and time.
fn search<G: SearchGame>(
    game: &G,
    pos: &G::Position,
    depth: u32,
    params: &Params,
) -> (u64, Duration) {
    let started = Instant::now();
    let result = search_to_depth(game, pos, depth, params);
    (result.nodes, started.elapsed())
}

/// Searches one position to `depth`, one thread and a fresh table of
/// `params.tt_bits`, as the benchmark does (the fitting examples label
/// positions with it too).
pub fn search_to_depth<G: SearchGame>(
    game: &G,
    pos: &G::Position,
    depth: u32,
    params: &Params,
) -> SearchResult<G::Move> {
    let tt = Table::new(params.tt_bits);
    let stop = AtomicBool::new(false);
    let limits = Limits::new().with(SearchLimit::Depth(depth));
    let clock = Clock::new(None, params);
    let mut searcher = Searcher::new(game, params, &tt, &stop, &limits, clock, &[]);
    searcher.run(pos, Some(depth), |_| {})
}
