//! The bonus sweep: which opponent stones a capture removes, and all the ways
//! to choose them, enumerated lazily or counted.

use std::fmt;

use arrayvec::ArrayVec;

use super::{MAX_CIRCUIT, Pit, Position, Side};

/// Stones removed from the victim's pits, in canonical pit order.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bonus {
    victim: Side,
    /// Indexed by [`Pit::side_slot`]: the lower row (A or C) then the upper.
    counts: [u8; MAX_CIRCUIT],
}

impl Bonus {
    /// No stone taken from `victim`.
    pub const fn none(victim: Side) -> Bonus {
        Bonus {
            victim,
            counts: [0; MAX_CIRCUIT],
        }
    }

    pub const fn victim(&self) -> Side {
        self.victim
    }

    /// Adds `n` stones taken from `pit`, which must belong to the victim.
    pub fn add(&mut self, pit: Pit, n: u8) {
        assert_eq!(pit.owner(), self.victim, "a bonus takes from one side");
        let slot = &mut self.counts[pit.side_slot()];
        *slot = slot.saturating_add(n);
    }

    /// Stones taken from `pit`.
    pub fn get(&self, pit: Pit) -> u8 {
        if pit.owner() == self.victim {
            self.counts[pit.side_slot()]
        } else {
            0
        }
    }

    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| u32::from(c)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// `(pit, stones)` for each pit touched, in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (Pit, u8)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(slot, &c)| (Pit::from_side_slot(self.victim, slot), c))
    }
}

/// `C2:1,D7:2`; empty for no bonus.
impl fmt::Display for Bonus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, (pit, n)) in self.iter().enumerate() {
            if k > 0 {
                f.write_str(",")?;
            }
            write!(f, "{pit}:{n}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Bonus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bonus({self})")
    }
}

/// The number of ways to take `stones` from pits holding `caps`: the
/// coefficient of `z^stones` in the product of `1 + z + … + z^cap`.
///
/// It fits a `u128`: each distribution is at least one choice of `b` of the
/// victim's `R` stones, so there are at most C(R, b), with b = min(k, R) and
/// R ≤ 142 − k (k the front capture); the largest such C(142 − k, k) is
/// below 2^97.
pub fn count_distributions(caps: &[u8], stones: u8) -> u128 {
    let b = usize::from(stones);
    let mut ways = [0u128; 256];
    ways[0] = 1;
    let mut reach = 0usize;
    for &cap in caps.iter().filter(|&&c| c > 0) {
        let cap = usize::from(cap);
        reach = (reach + cap).min(b);
        // In place, from high to low: ways[t] = sum of ways[t - cap ..= t].
        let mut window: u128 = ways[reach.saturating_sub(cap)..=reach].iter().sum();
        for t in (0..=reach).rev() {
            let below = ways[t];
            let next_window = window - below + if t > cap { ways[t - cap - 1] } else { 0 };
            ways[t] = window;
            window = next_window;
        }
    }
    ways[b]
}

/// Every bonus of `stones` stones from the victim's pits, one at a time,
/// from the one that empties the earliest pits first (decreasing
/// lexicographic order over canonical pit order).
#[derive(Debug, Clone)]
pub struct Distributions {
    victim: Side,
    /// `(slot, capacity)` of each non-empty victim pit, canonical order.
    pits: ArrayVec<(u8, u8), MAX_CIRCUIT>,
    take: ArrayVec<u8, MAX_CIRCUIT>,
    done: bool,
}

/// `(slot, capacity)` of each non-empty pit of `victim`, in canonical order.
fn victim_pits(pos: &Position, victim: Side) -> ArrayVec<(u8, u8), MAX_CIRCUIT> {
    let mut pits: ArrayVec<(u8, u8), MAX_CIRCUIT> = pos
        .circuit(victim)
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(i, &c)| {
            (
                Pit::from_circuit(victim, i, pos.size()).side_slot() as u8,
                c,
            )
        })
        .collect();
    pits.sort_unstable();
    pits
}

/// The bonus of `stones` stones that [`Distributions`] yields at `rank`
/// (counted from 0), found without walking the ones before it; `None` past
/// the last.
pub(super) fn nth_distribution(
    pos: &Position,
    victim: Side,
    stones: u8,
    mut rank: u128,
) -> Option<Bonus> {
    let pits = victim_pits(pos, victim);
    let b = usize::from(stones);
    // ways[i * (b + 1) + t]: the ways to take t stones from pits[i..].
    let mut ways = vec![0u128; (pits.len() + 1) * (b + 1)];
    ways[pits.len() * (b + 1)] = 1;
    for i in (0..pits.len()).rev() {
        for t in 0..=b {
            let cap = usize::from(pits[i].1).min(t);
            ways[i * (b + 1) + t] = (0..=cap).map(|x| ways[(i + 1) * (b + 1) + t - x]).sum();
        }
    }
    if rank >= ways[b] {
        return None;
    }
    let mut bonus = Bonus::none(victim);
    let mut left = b;
    for (i, &(slot, cap)) in pits.iter().enumerate() {
        // The earliest pits take the most first.
        for x in (0..=usize::from(cap).min(left)).rev() {
            let n = ways[(i + 1) * (b + 1) + left - x];
            if rank < n {
                bonus.counts[usize::from(slot)] = x as u8;
                left -= x;
                break;
            }
            rank -= n;
        }
    }
    Some(bonus)
}

impl Distributions {
    pub(super) fn new(pos: &Position, victim: Side, stones: u8) -> Distributions {
        let pits = victim_pits(pos, victim);
        let mut take: ArrayVec<u8, MAX_CIRCUIT> = pits.iter().map(|_| 0).collect();
        fill(&pits, &mut take, 0, stones);
        let available: u32 = pits.iter().map(|p| u32::from(p.1)).sum();
        Distributions {
            victim,
            pits,
            take,
            done: available < u32::from(stones),
        }
    }

    fn current(&self) -> Bonus {
        let mut bonus = Bonus::none(self.victim);
        for (&(slot, _), &n) in self.pits.iter().zip(&self.take) {
            bonus.counts[usize::from(slot)] = n;
        }
        bonus
    }

    /// Moves one stone from the rightmost movable pit to later pits.
    fn advance(&mut self) {
        let m = self.take.len();
        let (mut suffix_take, mut suffix_room) = (0u32, 0u32);
        for i in (0..m).rev() {
            if self.take[i] > 0 && suffix_room > suffix_take {
                self.take[i] -= 1;
                self.take[i + 1..].fill(0);
                fill(&self.pits, &mut self.take, i + 1, (suffix_take + 1) as u8);
                return;
            }
            suffix_take += u32::from(self.take[i]);
            suffix_room += u32::from(self.pits[i].1);
        }
        self.done = true;
    }
}

/// Puts `stones` into `take[from..]`, as early as capacities allow.
fn fill(pits: &[(u8, u8)], take: &mut [u8], from: usize, mut stones: u8) {
    for (t, &(_, cap)) in take[from..].iter_mut().zip(&pits[from..]) {
        *t = cap.min(stones);
        stones -= *t;
    }
}

impl Iterator for Distributions {
    type Item = Bonus;

    fn next(&mut self) -> Option<Bonus> {
        if self.done {
            return None;
        }
        let bonus = self.current();
        self.advance();
        Some(bonus)
    }
}
