//! Nsolo speed: perft(2), move counting and random playouts (random legal
//! origin, random bonus) on 4×8 and 4×36.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use palabre_rules::nsolo::{Position, Sown, perft};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const PLIES: u64 = 20_000;
/// Playouts give up on a game this long (repetition is not tracked).
const MAX_GAME: u32 = 2_000;

fn nth_bit(mut mask: u128, n: u32) -> usize {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as usize
}

/// A random legal sowing, or `None` when the side to move has none.
fn random_sowing(pos: &Position, rng: &mut SmallRng) -> Option<Sown> {
    let mut mask = pos.candidate_mask();
    while mask != 0 {
        let i = nth_bit(mask, rng.gen_range(0..mask.count_ones()));
        match pos.sow(i) {
            Some(sown) => return Some(sown),
            None => mask &= !(1 << i),
        }
    }
    None
}

fn playouts(size: u8, rng: &mut SmallRng) -> Position {
    let start = Position::start(size).unwrap();
    let mut pos = start.clone();
    let (mut length, mut plies) = (0, 0);
    while plies < PLIES {
        let sown = if length < MAX_GAME {
            random_sowing(&pos, rng)
        } else {
            None
        };
        match sown {
            Some(sown) => {
                pos = sown.finish_with(|cells| {
                    let full = cells.iter().filter(|&&c| c > 0).count();
                    let k = rng.gen_range(0..full);
                    cells
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| **c > 0)
                        .nth(k)
                        .unwrap()
                        .0
                });
                length += 1;
                plies += 1;
            }
            None => {
                pos = start.clone();
                length = 0;
            }
        }
    }
    pos
}

fn benches(c: &mut Criterion) {
    println!(
        "size_of::<nsolo::Position>() = {} bytes",
        std::mem::size_of::<Position>()
    );
    let mut group = c.benchmark_group("nsolo");
    group.sample_size(20);
    let start8 = Position::start(8).unwrap();
    group.bench_function("perft2_4x8", |b| {
        b.iter(|| assert_eq!(perft(&start8, 2), 659_143))
    });
    let start36 = Position::start(36).unwrap();
    group.bench_function("count_moves_4x36", |b| {
        b.iter(|| assert_eq!(start36.count_moves(), 114_335))
    });
    group.throughput(Throughput::Elements(PLIES));
    let mut rng = SmallRng::seed_from_u64(1);
    for size in [8u8, 36] {
        group.bench_function(format!("random_playout_plies_4x{size}"), |b| {
            b.iter(|| playouts(size, &mut rng))
        });
    }
    group.finish();
}

criterion_group!(nsolo, benches);
criterion_main!(nsolo);
