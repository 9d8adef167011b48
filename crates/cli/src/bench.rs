//! `palabre bench`: fixed positions of both games searched to fixed depths.
//! The total node count is a checksum of the search's behaviour; nodes per
//! second measure its speed.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use palabre_ai::nsolo::Nsolo;
use palabre_ai::search::Searcher;
use palabre_ai::time::Clock;
use palabre_ai::tt::Table;
use palabre_ai::yote::Yote;
use palabre_ai::{Limits, Params, SearchGame, SearchLimit};
use palabre_rules::{nsolo, yote};

/// Yoté positions and depths: the start, placement fights, the step phase.
const YOTE: &[(&str, u32)] = &[
    ("5/5/5/5/5 12 12 r 0", 8),
    ("1b3/3b1/4b/3r1/rb1r1 7 8 r 4", 8),
    ("r1bb1/rr1bb/1br1r/3br/bbrr1 2 0 r 5", 8),
    ("1r3/1bbb1/1br1r/2b1r/r1b1r 0 0 r 1", 12),
    ("5/1b2b/rr3/5/r3r 0 0 r 2", 14),
];

/// Nsolo positions and depths: 4×8 start and middle game, 4×12, 4×36.
const NSOLO: &[(&str, u32)] = &[
    (
        "2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/2,2,2,2,2,2,2,0/2,2,2,2,2,2,2,2 s",
        9,
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

/// Searches one position to `depth` with a fresh table; returns nodes and time.
fn search<G: SearchGame>(
    game: &G,
    pos: &G::Position,
    depth: u32,
    params: &Params,
) -> (u64, Duration) {
    let tt = Table::new(params.tt_bits);
    let stop = AtomicBool::new(false);
    let limits = Limits::new().with(SearchLimit::Depth(depth));
    let started = Instant::now();
    let clock = Clock::new(None, params);
    let mut searcher = Searcher::new(game, params, &tt, &stop, &limits, clock, &[]);
    let result = searcher.run(pos, Some(depth), |_| {});
    (result.nodes, started.elapsed())
}

fn line(name: &str, nodes: u64, time: Duration) {
    let nps = nodes as f64 / time.as_secs_f64().max(1e-9);
    println!(
        "{name:<12} nodes {nodes:>10} time {:>8.1} ms nps {nps:>10.0}",
        time.as_secs_f64() * 1e3
    );
}

pub fn run(params: Params) -> anyhow::Result<()> {
    let mut total = (0u64, Duration::ZERO);
    for (game_name, positions) in [("yote", YOTE), ("nsolo", NSOLO)] {
        let mut sub = (0u64, Duration::ZERO);
        for (fen, depth) in positions {
            let (nodes, time) = match game_name {
                "yote" => {
                    let pos: yote::Position = fen.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
                    search(&Yote::new(params.clone()), &pos, *depth, &params)
                }
                _ => {
                    let pos: nsolo::Position = fen.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
                    search(&Nsolo::new(params.clone()), &pos, *depth, &params)
                }
            };
            sub = (sub.0 + nodes, sub.1 + time);
        }
        line(game_name, sub.0, sub.1);
        total = (total.0 + sub.0, total.1 + sub.1);
    }
    line("total", total.0, total.1);
    println!(
        "{} nodes {:.0} nps",
        total.0,
        total.0 as f64 / total.1.as_secs_f64().max(1e-9)
    );
    Ok(())
}
