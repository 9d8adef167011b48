//! Search speed in nodes per second (one thread): fixed positions searched to
//! fixed depths, so each iteration visits the same nodes.

use std::sync::atomic::AtomicBool;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use palabre_ai::nsolo::Nsolo;
use palabre_ai::search::Searcher;
use palabre_ai::time::Clock;
use palabre_ai::tt::Table;
use palabre_ai::yote::Yote;
use palabre_ai::{Limits, Params, SearchGame, SearchLimit};

const YOTE: &[(&str, u32)] = &[
    ("5/5/5/5/5 12 12 r 0", 7),
    ("r1bb1/rr1bb/1br1r/3br/bbrr1 2 0 r 5", 7),
    ("1r3/1bbb1/1br1r/2b1r/r1b1r 0 0 r 1", 10),
];

const NSOLO8: &[(&str, u32)] = &[
    (
        "2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/2,2,2,2,2,2,2,0/2,2,2,2,2,2,2,2 s",
        8,
    ),
    (
        "1,2,1,0,1,2,5,1/2,0,2,2,1,5,0,3/3,1,1,2,0,2,0,2/2,0,1,1,0,0,4,1 s",
        8,
    ),
];

/// Searches every position with a fresh table; returns the nodes visited.
fn search_all<G: SearchGame>(game: &G, positions: &[(G::Position, u32)], tt: &mut Table) -> u64
where
    G::Position: Clone,
{
    let params = Params::default();
    let stop = AtomicBool::new(false);
    positions
        .iter()
        .map(|(pos, depth)| {
            tt.clear();
            let limits = Limits::new().with(SearchLimit::Depth(*depth));
            let clock = Clock::new(None, &params);
            let mut searcher = Searcher::new(game, &params, tt, &stop, &limits, clock, &[]);
            searcher.run(pos, Some(*depth), |_| {}).nodes
        })
        .sum()
}

fn bench_game<G: SearchGame>(
    c: &mut Criterion,
    name: &str,
    game: G,
    positions: Vec<(G::Position, u32)>,
) where
    G::Position: Clone,
{
    let mut tt = Table::new(Params::default().tt_bits);
    let nodes = search_all(&game, &positions, &mut tt);
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(name, |b| b.iter(|| search_all(&game, &positions, &mut tt)));
    group.finish();
}

fn benches(c: &mut Criterion) {
    let yote = YOTE.iter().map(|(f, d)| (f.parse().unwrap(), *d)).collect();
    bench_game(c, "yote_nodes", Yote::new(Params::default()), yote);
    let nsolo = NSOLO8
        .iter()
        .map(|(f, d)| (f.parse().unwrap(), *d))
        .collect();
    bench_game(c, "nsolo_4x8_nodes", Nsolo::new(Params::default()), nsolo);
}

criterion_group!(search, benches);
criterion_main!(search);
