//! Random keys for the position hash, made at compile time.
//!
//! The hash is additive: each stone in pit `i` of side `s` adds
//! `PIT[s * 72 + i]`, so sowing updates it with one addition a stone.

use super::MAX_CIRCUIT;

const fn splitmix(state: u64) -> u64 {
    crate::mix::mix(state.wrapping_add(0x9e37_79b9_7f4a_7c15))
}

const fn keys() -> [u64; 2 * MAX_CIRCUIT] {
    let mut out = [0u64; 2 * MAX_CIRCUIT];
    let mut i = 0;
    while i < out.len() {
        out[i] = splitmix(0x5a17_0000 + i as u64) | 1;
        i += 1;
    }
    out
}

/// One key per pit slot of the two circuits.
pub(super) const PIT: [u64; 2 * MAX_CIRCUIT] = keys();
/// Added when North is to move.
pub(super) const NORTH_TO_MOVE: u64 = splitmix(0x0707);
/// Multiplied by the board size, so boards of different sizes differ.
pub(super) const SIZE: u64 = splitmix(0x0036);
