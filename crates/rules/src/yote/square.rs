//! Holes of the 5×5 board, named `a1`…`e5` from Red's seat.

use std::fmt;
use std::str::FromStr;

use crate::ParseError;

/// A hole: `rank * 5 + file`, with file `a` = 0 and rank `1` = 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 25;

    /// The hole at `index` (0..25).
    pub const fn new(index: u8) -> Option<Square> {
        if index < 25 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The hole at `index`, which the caller knows is below 25: the move
    /// generator's bitboard arithmetic only yields board holes, and skipping
    /// [`Square::new`]'s check there saves a compare and a panic branch per
    /// listed move. Still checked in debug builds.
    #[inline(always)]
    pub(crate) const fn new_unchecked(index: u8) -> Square {
        debug_assert!(index < 25, "hole index off the board");
        Square(index)
    }

    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 5 && rank < 5 {
            Some(Square(rank * 5 + file))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn file(self) -> u8 {
        self.0 % 5
    }

    pub const fn rank(self) -> u8 {
        self.0 / 5
    }

    pub const fn bit(self) -> u32 {
        1 << self.0
    }

    /// Every hole, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..25).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl FromStr for Square {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Square, ParseError> {
        match s.as_bytes() {
            [file @ b'a'..=b'e', rank @ b'1'..=b'5'] => {
                Ok(Square((rank - b'1') * 5 + (file - b'a')))
            }
            _ => Err(ParseError::new(format!(
                "bad hole {s:?} (expected a1 to e5)"
            ))),
        }
    }
}
