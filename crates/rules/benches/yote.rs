//! Yoté speed: perft with bulk counting and random playouts.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use palabre_rules::yote::{Position, perft};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const PLIES: u64 = 100_000;

/// Plays `PLIES` random legal plies, starting a new game whenever one ends.
fn playouts(rng: &mut SmallRng) -> Position {
    let (mut pos, mut plies) = (Position::START, 0);
    while plies < PLIES {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos = Position::START;
            continue;
        }
        pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        plies += 1;
    }
    pos
}

fn benches(c: &mut Criterion) {
    println!(
        "size_of::<yote::Position>() = {} bytes",
        std::mem::size_of::<Position>()
    );
    let mut group = c.benchmark_group("yote");
    group.sample_size(10);
    group.bench_function("perft6_start", |b| {
        b.iter(|| assert_eq!(perft(&Position::START, 6), 146_092_272))
    });
    group.throughput(Throughput::Elements(PLIES));
    let mut rng = SmallRng::seed_from_u64(1);
    group.bench_function("random_playout_plies", |b| b.iter(|| playouts(&mut rng)));
    group.finish();
}

criterion_group!(yote, benches);
criterion_main!(yote);
