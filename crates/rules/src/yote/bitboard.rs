//! Sets of holes as 25-bit masks, and the four orthogonal shifts.
//!
//! Bit `rank * 5 + file` is the hole; the masks keep a shift from wrapping
//! from the `e` file to the `a` file of the next rank.

pub const FULL: u32 = (1 << 25) - 1;
const FILE_A: u32 = 0b00001_00001_00001_00001_00001;
const FILE_E: u32 = FILE_A << 4;

/// The four directions a ball steps or jumps in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    North,
    South,
    East,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];

    /// Moves every hole of `b` one step; holes that would leave the board vanish.
    #[inline(always)]
    pub const fn shift(self, b: u32) -> u32 {
        match self {
            Dir::North => (b << 5) & FULL,
            Dir::South => b >> 5,
            Dir::East => (b & !FILE_E) << 1,
            Dir::West => (b & !FILE_A) >> 1,
        }
    }

    /// Where the balls of `jumper` land when they jump this way over a
    /// ball of `over` into a hole of `empty`.
    #[inline(always)]
    pub const fn jump_landings(self, jumper: u32, over: u32, empty: u32) -> u32 {
        self.shift(self.shift(jumper) & over) & empty
    }

    /// The index offset of one step.
    #[inline(always)]
    pub const fn delta(self) -> i8 {
        match self {
            Dir::North => 5,
            Dir::South => -5,
            Dir::East => 1,
            Dir::West => -1,
        }
    }
}

/// Iterates the holes of a set, lowest first.
#[derive(Debug, Clone, Copy)]
pub struct Bits(pub u32);

impl Iterator for Bits {
    type Item = u8;

    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// One set of holes per direction, packed 32 bits apart in [`Dir::ALL`]
/// order, and iterated as `(hole, direction)` pairs: direction by direction,
/// lowest hole first, exactly as four [`Bits`] loops would.
///
/// Why: move lists are short (about 15 moves in a random game), so the four
/// loop exits of a per-direction walk, each a likely branch miss, cost more
/// than the moves; one loop over the packed sets has a single exit.
#[derive(Debug, Clone, Copy)]
pub struct DirBits(u128);

impl DirBits {
    /// Packs `set(dir)` for each direction.
    #[inline(always)]
    pub fn new(mut set: impl FnMut(Dir) -> u32) -> DirBits {
        let mut packed = 0;
        for (lane, dir) in Dir::ALL.into_iter().enumerate() {
            packed |= u128::from(set(dir)) << (32 * lane);
        }
        DirBits(packed)
    }
}

impl Iterator for DirBits {
    type Item = (u8, Dir);

    #[inline(always)]
    fn next(&mut self) -> Option<(u8, Dir)> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(((bit % 32) as u8, Dir::ALL[(bit / 32) as usize % 4]))
    }
}
