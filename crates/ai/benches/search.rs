//! Search speed: fixed positions searched to fixed depths. With one thread
//! each iteration visits the same nodes, so the throughput is nodes per
//! second; with two (Lazy SMP) the node count varies from run to run, so the
//! measure is the time to reach the same depths, and the nodes of one run are
//! printed for a nodes-per-second figure.

use std::sync::atomic::AtomicBool;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use palabre_ai::nsolo::Nsolo;
use palabre_ai::smp::{self, Job};
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

/// Searches every position with a fresh table on `threads` threads; returns
/// the nodes visited.
fn search_all<G>(game: &G, positions: &[(G::Position, u32)], tt: &mut Table, threads: usize) -> u64
where
    G: SearchGame + Sync,
    G::Position: Sync,
{
    let params = Params::default();
    let stop = AtomicBool::new(false);
    positions
        .iter()
        .map(|(pos, depth)| {
            tt.clear();
            let limits = Limits::new().with(SearchLimit::Depth(*depth));
            let job = Job {
                game,
                params: &params,
                tt,
                stop: &stop,
                limits: &limits,
                clock: Clock::new(None, &params),
                history: &[],
                quiescence: true,
            };
            smp::search(&job, pos, threads, |_| {}).nodes
        })
        .sum()
}

fn bench_game<G>(c: &mut Criterion, name: &str, game: G, positions: Vec<(G::Position, u32)>)
where
    G: SearchGame + Sync,
    G::Position: Sync,
{
    let mut tt = Table::new(Params::default().tt_bits);
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let nodes = search_all(&game, &positions, &mut tt, 1);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(format!("{name}_nodes"), |b| {
        b.iter(|| search_all(&game, &positions, &mut tt, 1))
    });
    group.throughput(Throughput::Elements(1));
    let two: Vec<u64> = (0..3)
        .map(|_| search_all(&game, &positions, &mut tt, 2))
        .collect();
    println!("{name} with 2 threads: nodes of three runs {two:?} (1 thread: {nodes})");
    group.bench_function(format!("{name}_time_to_depth_2_threads"), |b| {
        b.iter(|| search_all(&game, &positions, &mut tt, 2))
    });
    group.bench_function(format!("{name}_time_to_depth_1_thread"), |b| {
        b.iter(|| search_all(&game, &positions, &mut tt, 1))
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let yote = YOTE.iter().map(|(f, d)| (f.parse().unwrap(), *d)).collect();
    bench_game(c, "yote", Yote::new(Params::default()), yote);
    let nsolo = NSOLO8
        .iter()
        .map(|(f, d)| (f.parse().unwrap(), *d))
        .collect();
    bench_game(c, "nsolo_4x8", Nsolo::new(Params::default()), nsolo);
}

criterion_group!(search, benches);
criterion_main!(search);
