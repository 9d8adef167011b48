//! The Nsolo position string, read into an unvalidated [`Setup`].
//!
//! `<row D>/<row C>/<row B>/<row A> <side to move>`, each row the pit counts
//! from column 1 to N joined by `,`; the side is `s` or `n`.

use std::fmt;
use std::str::FromStr;

use super::{MAX_SIZE, MIN_SIZE, Pit, Row, Side};
use crate::ParseError;

/// Pit counts as written, not yet checked against the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Columns (N).
    pub size: u8,
    /// `pits[row][col - 1]`, rows in [`Row`] order A to D.
    pub pits: [[u16; MAX_SIZE as usize]; 4],
    pub turn: Side,
}

impl Setup {
    /// Two stones everywhere but `BN` and `C1`. Sizes outside 8–36 are kept
    /// as given and refused when the setup becomes a position.
    pub fn start(size: u8) -> Setup {
        let mut pits = [[0; MAX_SIZE as usize]; 4];
        let n = usize::from(size.min(MAX_SIZE));
        for row in &mut pits {
            row[..n].fill(2);
        }
        if n > 0 {
            pits[Row::B as usize][n - 1] = 0;
            pits[Row::C as usize][0] = 0;
        }
        Setup {
            size,
            pits,
            turn: Side::South,
        }
    }

    pub fn count(&self, pit: Pit) -> u16 {
        self.pits[pit.row() as usize][pit.col() as usize - 1]
    }
}

fn parse_row(text: &str, row: Row) -> Result<Vec<u16>, ParseError> {
    text.split(',')
        .enumerate()
        .map(|(i, count)| {
            if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseError::new(format!(
                    "row {row:?} column {}: {count:?} is not a count",
                    i + 1
                )));
            }
            count
                .parse()
                .map_err(|_| ParseError::new(format!("count {count:?} is too large")))
        })
        .collect()
}

impl FromStr for Setup {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Setup, ParseError> {
        let mut fields = s.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| ParseError::new("empty position"))?;
        let texts: Vec<&str> = board.split('/').collect();
        if texts.len() != 4 {
            return Err(ParseError::new(format!("{} rows, expected 4", texts.len())));
        }
        let order = [Row::D, Row::C, Row::B, Row::A];
        let rows = texts
            .iter()
            .zip(order)
            .map(|(text, row)| parse_row(text, row))
            .collect::<Result<Vec<_>, _>>()?;
        let size = rows[0].len();
        if let Some((row, len)) = rows
            .iter()
            .zip(order)
            .map(|(r, row)| (row, r.len()))
            .find(|(_, l)| *l != size)
        {
            return Err(ParseError::new(format!(
                "row {row:?} has {len} pits, row D has {size}"
            )));
        }
        if !(usize::from(MIN_SIZE)..=usize::from(MAX_SIZE)).contains(&size) {
            return Err(ParseError::new(format!(
                "{size} pits a row, expected 8 to 36"
            )));
        }
        let mut setup = Setup {
            size: size as u8,
            pits: [[0; MAX_SIZE as usize]; 4],
            turn: Side::South,
        };
        for (counts, row) in rows.iter().zip(order) {
            setup.pits[row as usize][..size].copy_from_slice(counts);
        }
        setup.turn = match fields.next() {
            Some("s") => Side::South,
            Some("n") => Side::North,
            Some(other) => {
                return Err(ParseError::new(format!(
                    "side to move {other:?}, expected s or n"
                )));
            }
            None => return Err(ParseError::new("missing side to move")),
        };
        if let Some(extra) = fields.next() {
            return Err(ParseError::new(format!("unexpected field {extra:?}")));
        }
        Ok(setup)
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = usize::from(self.size.min(MAX_SIZE));
        for (k, row) in [Row::D, Row::C, Row::B, Row::A].into_iter().enumerate() {
            if k > 0 {
                f.write_str("/")?;
            }
            for (i, count) in self.pits[row as usize][..n].iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{count}")?;
            }
        }
        let turn = match self.turn {
            Side::South => 's',
            Side::North => 'n',
        };
        write!(f, " {turn}")
    }
}
