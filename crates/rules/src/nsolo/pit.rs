//! Pit names (`A1`…`D36`) and their place on each side's circuit.
//!
//! South's circuit runs `A1 → AN → BN → B1`, North's `DN → D1 → C1 → CN`; a
//! circuit index counts pits along it from 0.

use std::fmt;
use std::str::FromStr;

use super::{MAX_SIZE, Side};
use crate::ParseError;

/// A row, from South's seat near to far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Row {
    A,
    B,
    C,
    D,
}

impl Row {
    pub const ALL: [Row; 4] = [Row::A, Row::B, Row::C, Row::D];

    pub const fn owner(self) -> Side {
        match self {
            Row::A | Row::B => Side::South,
            Row::C | Row::D => Side::North,
        }
    }

    /// Whether this is its owner's inner row (B or C).
    pub const fn is_inner(self) -> bool {
        matches!(self, Row::B | Row::C)
    }

    const fn letter(self) -> char {
        match self {
            Row::A => 'A',
            Row::B => 'B',
            Row::C => 'C',
            Row::D => 'D',
        }
    }
}

/// A pit, named by row and column (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pit {
    row: Row,
    col: u8,
}

impl Pit {
    /// The pit at `row`, column `col` (1 to 36).
    pub const fn new(row: Row, col: u8) -> Option<Pit> {
        if col >= 1 && col <= MAX_SIZE {
            Some(Pit { row, col })
        } else {
            None
        }
    }

    pub const fn row(self) -> Row {
        self.row
    }

    pub const fn col(self) -> u8 {
        self.col
    }

    pub const fn owner(self) -> Side {
        self.row.owner()
    }

    /// This pit's index on its owner's circuit of a `size`-column board, or
    /// `None` if the board has no such column.
    pub const fn circuit_index(self, size: u8) -> Option<usize> {
        if self.col > size {
            return None;
        }
        let (n, c) = (size as usize, self.col as usize);
        Some(match self.row {
            Row::A => c - 1,
            Row::B => 2 * n - c,
            Row::C => n + c - 1,
            Row::D => n - c,
        })
    }

    /// The pit at circuit index `i` (below `2 * size`) of `side`.
    pub const fn from_circuit(side: Side, i: usize, size: u8) -> Pit {
        let n = size as usize;
        let (row, col) = match (side, i < n) {
            (Side::South, true) => (Row::A, i + 1),
            (Side::South, false) => (Row::B, 2 * n - i),
            (Side::North, true) => (Row::D, n - i),
            (Side::North, false) => (Row::C, i - n + 1),
        };
        Pit {
            row,
            col: col as u8,
        }
    }

    /// Position in canonical order within its owner's two rows: the lower
    /// letter first, then the column (0..72).
    pub(crate) const fn side_slot(self) -> usize {
        let r = match self.row {
            Row::A | Row::C => 0,
            Row::B | Row::D => 1,
        };
        r * MAX_SIZE as usize + self.col as usize - 1
    }

    pub(crate) const fn from_side_slot(side: Side, slot: usize) -> Pit {
        let lower = slot < MAX_SIZE as usize;
        let row = match (side, lower) {
            (Side::South, true) => Row::A,
            (Side::South, false) => Row::B,
            (Side::North, true) => Row::C,
            (Side::North, false) => Row::D,
        };
        Pit {
            row,
            col: (slot % MAX_SIZE as usize) as u8 + 1,
        }
    }
}

impl fmt::Display for Pit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row.letter(), self.col)
    }
}

impl FromStr for Pit {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Pit, ParseError> {
        let bad = || ParseError::new(format!("bad pit {s:?} (expected A1 to D36)"));
        let mut chars = s.chars();
        let row = match chars.next() {
            Some('A') => Row::A,
            Some('B') => Row::B,
            Some('C') => Row::C,
            Some('D') => Row::D,
            _ => return Err(bad()),
        };
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || digits.starts_with('0') {
            return Err(bad());
        }
        let col: u8 = digits.parse().map_err(|_| bad())?;
        Pit::new(row, col).ok_or_else(bad)
    }
}
