//! Perfect indexing: each position of a material gets a unique number in
//! `0..size`, with no holes.
//!
//! A position is (the mover's holes M, the other side's holes O), both
//! reserves empty. M is ranked among all `m`-subsets of the 25 holes in the
//! combinatorial number system (colexicographic order); O is first
//! *compressed* to the `25 − m` holes M leaves free, then ranked among their
//! `o`-subsets. The index is `rank(M) · C(25 − m, o) + rank(O')`, so the
//! positions sharing one M are contiguous.

use std::fmt;

use palabre_rules::yote::bitboard::{Bits, FULL};

/// Holes on the board.
pub const HOLES: u32 = 25;

const fn binomials() -> [[u64; 26]; 26] {
    let mut t = [[0u64; 26]; 26];
    let mut n = 0;
    while n < 26 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

static BINOMIALS: [[u64; 26]; 26] = binomials();

/// `C(n, k)`, 0 when `k > n`.
#[inline(always)]
pub fn binomial(n: u32, k: u32) -> u64 {
    BINOMIALS[n as usize][k as usize]
}

/// Balls on the board, seen from the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Balls of the side to move.
    pub mover: u8,
    /// Balls of the side that just moved.
    pub other: u8,
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.mover, self.other)
    }
}

impl Material {
    /// A material the tables can hold: each side 1 to 12 balls.
    pub fn new(mover: u8, other: u8) -> Option<Material> {
        ((1..=12).contains(&mover) && (1..=12).contains(&other))
            .then_some(Material { mover, other })
    }

    /// The material of a board, from the side to move's holes and the other's.
    pub fn of(mover: u32, other: u32) -> Option<Material> {
        Material::new(mover.count_ones() as u8, other.count_ones() as u8)
    }

    pub fn total(self) -> u8 {
        self.mover + self.other
    }

    /// Whether a game from the start can reach this material: each side
    /// starts with 12 balls and every capture takes two of the victim's
    /// (the only exception takes its last ball and ends the game), so a
    /// side that still plays always holds an even number.
    pub fn reachable(self) -> bool {
        self.mover.is_multiple_of(2) && self.other.is_multiple_of(2)
    }

    /// The same balls after a quiet move: the other side is to move.
    pub fn swapped(self) -> Material {
        Material {
            mover: self.other,
            other: self.mover,
        }
    }

    /// The material after the mover captures (two balls taken), or `None`
    /// when the capture takes the other side's last ball (the game is won).
    pub fn after_capture(self) -> Option<Material> {
        Material::new(self.other.checked_sub(2)?, self.mover)
    }

    /// Positions of this material.
    pub fn size(self) -> u64 {
        binomial(HOLES, self.mover.into()) * self.block()
    }

    /// Positions sharing one set of mover holes.
    pub fn block(self) -> u64 {
        binomial(HOLES - u32::from(self.mover), self.other.into())
    }

    /// Every material with at most `max` balls, by increasing total.
    pub fn up_to(max: u8) -> Vec<Material> {
        (2..=max)
            .flat_map(|total| (1..total).filter_map(move |m| Material::new(m, total - m)))
            .collect()
    }

    /// The index of a position (mover's holes, other's holes) of this material.
    #[inline]
    pub fn index(self, mover: u32, other: u32) -> u64 {
        rank(mover) * self.block() + rank(compress(other, mover))
    }

    /// The position (mover's holes, other's holes) with index `index`.
    pub fn unindex(self, index: u64) -> (u32, u32) {
        let block = self.block();
        let mover = unrank(index / block, self.mover.into());
        (
            mover,
            expand(unrank(index % block, self.other.into()), mover),
        )
    }
}

/// The colex rank of a set of holes among the sets of its size.
#[inline]
pub fn rank(set: u32) -> u64 {
    Bits(set)
        .enumerate()
        .map(|(i, p)| binomial(p.into(), i as u32 + 1))
        .sum()
}

/// The set of `k` holes with colex rank `r`.
pub fn unrank(mut r: u64, k: u32) -> u32 {
    let mut set = 0;
    for i in (1..=k).rev() {
        let mut p = i - 1;
        while binomial(p + 1, i) <= r {
            p += 1;
        }
        r -= binomial(p, i);
        set |= 1 << p;
    }
    set
}

/// Renumbers the holes of `set` as if the holes of `removed` did not exist.
#[inline]
pub fn compress(set: u32, removed: u32) -> u32 {
    Bits(set).fold(0, |acc, p| {
        acc | 1 << (u32::from(p) - (removed & ((1 << p) - 1)).count_ones())
    })
}

/// The inverse of [`compress`]: places `set`'s bits on the holes outside `removed`.
pub fn expand(set: u32, removed: u32) -> u32 {
    let mut free = FULL & !removed;
    let mut out = 0;
    let mut rest = set;
    let mut i = 0;
    while rest != 0 {
        let low = free & free.wrapping_neg();
        if rest & (1 << i) != 0 {
            out |= low;
            rest &= !(1 << i);
        }
        free &= free - 1;
        i += 1;
    }
    out
}

/// The holes a set leaves free, in order, for fast [`expand`]s.
#[derive(Debug, Clone, Copy)]
pub struct FreeHoles([u8; HOLES as usize]);

impl FreeHoles {
    pub fn new(removed: u32) -> FreeHoles {
        let mut holes = [0; HOLES as usize];
        for (slot, hole) in holes.iter_mut().zip(Bits(FULL & !removed)) {
            *slot = hole;
        }
        FreeHoles(holes)
    }

    /// `expand(set, removed)` for the `removed` this was made from.
    #[inline]
    pub fn expand(&self, set: u32) -> u32 {
        Bits(set).fold(0, |acc, j| acc | 1 << self.0[usize::from(j)])
    }
}

/// The next set of the same size in colex order (Gosper's hack).
#[inline]
pub fn next_subset(x: u32) -> u32 {
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) / c) | r
}

/// Calls `f(index, mover, other)` for every position of `material` whose
/// mover set has a rank in `ranks`, in index order.
pub fn for_each(material: Material, ranks: std::ops::Range<u64>, mut f: impl FnMut(u64, u32, u32)) {
    let (m, o) = (u32::from(material.mover), u32::from(material.other));
    let block = material.block();
    let free_holes = HOLES - m;
    let mut mover = unrank(ranks.start, m);
    for r in ranks {
        let free = FreeHoles::new(mover);
        let mut compressed = (1u32 << o) - 1;
        let mut index = r * block;
        while compressed < 1 << free_holes {
            f(index, mover, free.expand(compressed));
            index += 1;
            compressed = next_subset(compressed);
        }
        mover = next_subset(mover);
    }
}
