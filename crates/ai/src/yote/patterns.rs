//! Patterns learnt from game results, for the placement phase: each row,
//! column and 2×2 block of the board looks its state (each hole empty, the
//! mover's or the other side's) up in a table of weights, one set of tables
//! for each of four phases of the placement, and the weights of the 27
//! states are summed. The hand-made terms of [`super::eval`] judge a
//! placement by counts; the patterns add what shapes of balls went on to
//! win, which the counts miss (docs/strength.md, "Placement patterns learnt
//! from 10,000 games").
//!
//! The weights, in hundredths of a ball, are `patterns.bin` beside this
//! file: 14,908 little-endian `i16`, fitted by `examples/patterns.rs` to
//! Expert's self-play on top of today's evaluation.

use palabre_rules::yote::Position;

/// Phases of the placement, each with tables of its own.
pub const BUCKETS: usize = 4;
const LINE_STATES: usize = 243;
const BLOCK_STATES: usize = 81;
const LINES: usize = 10;
const BLOCKS: usize = 16;
/// One phase's weights: ten lines, sixteen blocks and a constant.
pub const PER_BUCKET: usize = LINES * LINE_STATES + BLOCKS * BLOCK_STATES + 1;
/// Every weight.
pub const WEIGHTS: usize = BUCKETS * PER_BUCKET;
/// The weights a position reads: its lines, its blocks, its phase's constant.
pub const ACTIVE: usize = LINES + BLOCKS + 1;

static FITTED: &[u8; 2 * WEIGHTS] = include_bytes!("patterns.bin");

/// The ternary value of a 5-bit mask, bit `i` worth `3^i`.
const TERN: [u16; 32] = {
    let mut t = [0u16; 32];
    let mut m = 0;
    while m < 32 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < 5 {
            if m & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// Each rank's share of the five files' ternary states, a 10-bit lane a
/// file: a ball of rank `k` on file `c` adds `3^k` to lane `c`, so a
/// file's state is summed rank by rank instead of gathered bit by bit.
const FILES: [[u64; 32]; 5] = {
    let mut t = [[0u64; 32]; 5];
    let (mut k, mut p) = (0, 1u64);
    while k < 5 {
        let mut m = 0;
        while m < 32 {
            let mut c = 0;
            while c < 5 {
                if m & (1 << c) != 0 {
                    t[k][m] += p << (10 * c);
                }
                c += 1;
            }
            m += 1;
        }
        p *= 3;
        k += 1;
    }
    t
};

/// The two digits at files `c` and `c + 1` of a rank's ternary state: a
/// 2×2 block's state is two of these, one rank above the other.
const PAIRS: [[u8; 4]; LINE_STATES] = {
    let mut t = [[0u8; 4]; LINE_STATES];
    let mut s = 0;
    while s < LINE_STATES {
        let (mut c, mut d) = (0, s);
        while c < 4 {
            t[s][c] = (d % 9) as u8;
            d /= 3;
            c += 1;
        }
        s += 1;
    }
    t
};

/// The phase of the placement: both sides place (more than eight holes
/// free, or at most eight), only the mover places, only the other side
/// does; `None` once both reserves are empty.
pub fn bucket(mover_reserve: u8, other_reserve: u8, empty_holes: u32) -> Option<usize> {
    match (mover_reserve > 0, other_reserve > 0) {
        (false, false) => None,
        (true, true) if empty_holes > 8 => Some(0),
        (true, true) => Some(1),
        (true, false) => Some(2),
        (false, true) => Some(3),
    }
}

/// The weights read by the board `mine` / `theirs` in phase `bucket`:
/// two disjoint masks of the 25 holes (a hole held by both would read
/// past its table) and a phase below [`BUCKETS`].
pub fn indices(mine: u32, theirs: u32, bucket: usize) -> [u32; ACTIVE] {
    debug_assert!(mine & theirs == 0 && (mine | theirs) >> 25 == 0 && bucket < BUCKETS);
    let mut out = [0u32; ACTIVE];
    let base = bucket * PER_BUCKET;
    let mut ranks = [0usize; 5];
    let mut files = 0u64;
    for r in 0..5 {
        let m = ((mine >> (5 * r)) & 31) as usize;
        let t = ((theirs >> (5 * r)) & 31) as usize;
        ranks[r] = usize::from(TERN[m]) + 2 * usize::from(TERN[t]);
        files += FILES[r][m] + 2 * FILES[r][t];
        out[r] = (base + r * LINE_STATES + ranks[r]) as u32;
    }
    for c in 0..5 {
        let state = ((files >> (10 * c)) & 1023) as usize;
        out[5 + c] = (base + (5 + c) * LINE_STATES + state) as u32;
    }
    let blocks = base + LINES * LINE_STATES;
    for (r, pair) in ranks.windows(2).enumerate() {
        let (low, high) = (&PAIRS[pair[0]], &PAIRS[pair[1]]);
        for (c, (&lo, &hi)) in low.iter().zip(high).enumerate() {
            let i = r * 4 + c;
            let state = usize::from(lo) + 9 * usize::from(hi);
            out[LINES + i] = (blocks + i * BLOCK_STATES + state) as u32;
        }
    }
    out[ACTIVE - 1] = (base + PER_BUCKET - 1) as u32;
    out
}

/// The phase of `pos`'s placement ([`bucket`]), from the side to move's
/// point of view.
pub fn phase(pos: &Position) -> Option<usize> {
    let me = pos.turn();
    bucket(
        pos.reserve(me),
        pos.reserve(me.other()),
        pos.empty().count_ones(),
    )
}

/// The weights `pos` reads, from the side to move's point of view.
pub fn of(pos: &Position) -> Option<[u32; ACTIVE]> {
    let me = pos.turn();
    let b = phase(pos)?;
    Some(indices(pos.balls(me), pos.balls(me.other()), b))
}

fn weight(i: u32) -> i32 {
    let i = 2 * i as usize;
    i32::from(i16::from_le_bytes([FITTED[i], FITTED[i + 1]]))
}

/// The patterns' score of `pos` in hundredths of a ball, for the side to
/// move; 0 once both reserves are empty.
pub fn score(pos: &Position) -> i32 {
    of(pos).map_or(0, |idx| idx.into_iter().map(weight).sum())
}

/// `mask` under the `sym`-th of the square's eight symmetries (0 is the
/// identity): the fit sees every position in all eight.
pub fn symmetric(mask: u32, sym: usize) -> u32 {
    let mut out = 0;
    for sq in 0..25u32 {
        if mask & (1 << sq) == 0 {
            continue;
        }
        let (f, r) = (sq % 5, sq / 5);
        let (f, r) = if sym & 4 != 0 { (r, f) } else { (f, r) };
        let f = if sym & 1 != 0 { 4 - f } else { f };
        let r = if sym & 2 != 0 { 4 - r } else { r };
        out |= 1 << (r * 5 + f);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hole's digit: 0 empty, 1 the mover's, 2 the other side's.
    fn digit(mine: u32, theirs: u32, sq: u32) -> usize {
        usize::from(mine >> sq & 1 == 1) + 2 * usize::from(theirs >> sq & 1 == 1)
    }

    /// The state of the holes `squares`, the first worth 1, the next 3…
    fn state(mine: u32, theirs: u32, squares: impl Iterator<Item = u32>) -> usize {
        squares
            .zip([1, 3, 9, 27, 81])
            .map(|(sq, p)| p * digit(mine, theirs, sq))
            .sum()
    }

    #[test]
    fn each_line_and_block_reads_the_state_of_its_holes() {
        let mut x = 0x1234_5678u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mine = (x as u32) & 0x1ff_ffff;
            let theirs = ((x >> 32) as u32) & 0x1ff_ffff & !mine;
            let b = (x >> 60) as usize % BUCKETS;
            let idx = indices(mine, theirs, b);
            let base = b * PER_BUCKET;
            for r in 0..5 {
                let s = state(mine, theirs, (0..5).map(|f| 5 * r + f));
                assert_eq!(
                    idx[r as usize] as usize,
                    base + r as usize * LINE_STATES + s
                );
            }
            for f in 0..5 {
                let s = state(mine, theirs, (0..5).map(|r| 5 * r + f));
                assert_eq!(
                    idx[5 + f as usize] as usize,
                    base + (5 + f as usize) * LINE_STATES + s
                );
            }
            for i in 0..16 {
                let sq = 5 * (i / 4) + i % 4;
                let s = state(mine, theirs, [sq, sq + 1, sq + 5, sq + 6].into_iter());
                let blocks = base + LINES * LINE_STATES;
                assert_eq!(
                    idx[LINES + i as usize] as usize,
                    blocks + i as usize * BLOCK_STATES + s
                );
            }
            assert!(idx.iter().all(|&i| (i as usize) < WEIGHTS));
        }
    }

    #[test]
    fn the_patterns_speak_only_while_a_side_places() {
        let placing: Position = "5/5/2r2/5/5 11 12 b 1".parse().unwrap();
        assert!(of(&placing).is_some());
        assert_ne!(score(&placing), 0, "the fitted weights are read");
        let placed: Position = "rr3/5/5/5/bbbb1 0 0 r 0".parse().unwrap();
        assert_eq!(of(&placed), None);
        assert_eq!(score(&placed), 0);
        assert_eq!(bucket(3, 0, 20), Some(2));
        assert_eq!(bucket(0, 3, 20), Some(3));
        assert_eq!(bucket(3, 3, 9), Some(0));
        assert_eq!(bucket(3, 3, 8), Some(1));
    }

    #[test]
    fn the_symmetries_are_the_square_s_eight() {
        let a1 = 1;
        let images: std::collections::BTreeSet<u32> = (0..8).map(|s| symmetric(a1, s)).collect();
        let corners = [0, 4, 20, 24].map(|sq| 1u32 << sq);
        assert_eq!(images, corners.into_iter().collect());
        // b1 goes to the eight holes next to a corner along an edge.
        let b1 = 1 << 1;
        let images: std::collections::BTreeSet<u32> = (0..8).map(|s| symmetric(b1, s)).collect();
        assert_eq!(images.len(), 8);
        assert_eq!(symmetric(0x1ff_ffff, 5), 0x1ff_ffff);
        assert_eq!(symmetric(0x123_4567, 0), 0x123_4567);
    }
}
