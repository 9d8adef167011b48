//! Greedy bonus policies: each removes the required stones one at a time
//! from the victim pit it ranks first.

use palabre_rules::nsolo::{Position, Sown};

/// How a policy ranks a victim pit holding `count` stones; `inner` tells
/// whether it is in the victim's inner row.
pub type Policy = fn(count: u8, inner: bool) -> i32;

/// Take from the fullest pits: they feed the longest relays.
fn shrink(count: u8, inner: bool) -> i32 {
    4 * i32::from(count) + i32::from(!inner)
}

/// Turn pairs into single stones, which cannot move while any pit holds two:
/// the victim runs out of moves.
fn immobilise(count: u8, inner: bool) -> i32 {
    let rank = match count {
        2 => 1000,
        c if c >= 3 => 500 - i32::from(c),
        _ => 0,
    };
    2 * rank + i32::from(!inner)
}

/// Empty the victim's front row, fullest pits first: those are the stones
/// its next captures start from.
fn disarm(count: u8, inner: bool) -> i32 {
    1000 * i32::from(inner) + i32::from(count)
}

/// Take single stones first, front row first: each one taken leaves an empty
/// pit, where the victim's relays stop.
fn scatter(count: u8, inner: bool) -> i32 {
    let rank = if count == 1 {
        1000
    } else {
        100 - i32::from(count)
    };
    2 * rank + i32::from(inner)
}

/// The policies in the order the search tries them: the first two
/// everywhere, all of them where the search is deep (`Params`).
pub const POLICIES: [Policy; 4] = [shrink, immobilise, disarm, scatter];

/// Removes the bonus chosen by policy `index` and passes the turn.
pub fn finish(sown: Sown, index: u8) -> Position {
    let rank = POLICIES[usize::from(index) % POLICIES.len()];
    let half = sown.position().circuit_len() / 2;
    sown.finish_with(|cells| {
        (0..cells.len())
            .filter(|&i| cells[i] > 0)
            .max_by_key(|&i| (rank(cells[i], i >= half), std::cmp::Reverse(i)))
            .expect("a bonus never exceeds the victim's stones")
    })
}
