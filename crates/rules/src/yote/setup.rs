//! The Yoté position string, read into an unvalidated [`Setup`].
//!
//! `<rank5>/<rank4>/<rank3>/<rank2>/<rank1> <red reserve> <black reserve>
//! <side to move> <quiet plies>`; each rank lists holes `a` to `e` as `r`, `b`
//! or a digit counting empty holes. Start: `5/5/5/5/5 12 12 r 0`.

use std::fmt;
use std::str::FromStr;

use super::{Color, Square};
use crate::ParseError;

/// A board and counters as written, not yet checked against the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Balls on the board, indexed by [`Color`].
    pub balls: [u32; 2],
    /// Balls in reserve, indexed by [`Color`].
    pub reserve: [u8; 2],
    pub turn: Color,
    /// Plies since the last capture.
    pub quiet: u8,
}

impl Setup {
    pub const START: Setup = Setup {
        balls: [0, 0],
        reserve: [12, 12],
        turn: Color::Red,
        quiet: 0,
    };
}

fn parse_rank(text: &str, rank: u8, balls: &mut [u32; 2]) -> Result<(), ParseError> {
    let mut file = 0u8;
    for c in text.chars() {
        let width = match c {
            'r' | 'b' => {
                if let Some(sq) = Square::from_coords(file, rank) {
                    balls[usize::from(c == 'b')] |= sq.bit();
                }
                1
            }
            '1'..='9' => c as u8 - b'0',
            _ => {
                return Err(ParseError::new(format!(
                    "rank {}: unexpected {c:?}",
                    rank + 1
                )));
            }
        };
        file = file.saturating_add(width);
    }
    if file != 5 {
        return Err(ParseError::new(format!(
            "rank {} covers {file} holes, expected 5",
            rank + 1
        )));
    }
    Ok(())
}

fn parse_count(field: Option<&str>, name: &str) -> Result<u8, ParseError> {
    let text = field.ok_or_else(|| ParseError::new(format!("missing {name}")))?;
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::new(format!("{name} {text:?} is not a number")));
    }
    text.parse()
        .map_err(|_| ParseError::new(format!("{name} {text:?} is too large")))
}

impl FromStr for Setup {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Setup, ParseError> {
        let mut fields = s.split_whitespace();
        let board = fields
            .next()
            .ok_or_else(|| ParseError::new("empty position"))?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 5 {
            return Err(ParseError::new(format!(
                "{} ranks, expected 5",
                ranks.len()
            )));
        }
        let mut balls = [0u32; 2];
        for (i, text) in ranks.iter().enumerate() {
            parse_rank(text, 4 - i as u8, &mut balls)?;
        }
        let reserve = [
            parse_count(fields.next(), "red reserve")?,
            parse_count(fields.next(), "black reserve")?,
        ];
        let turn = match fields.next() {
            Some("r") => Color::Red,
            Some("b") => Color::Black,
            Some(other) => {
                return Err(ParseError::new(format!(
                    "side to move {other:?}, expected r or b"
                )));
            }
            None => return Err(ParseError::new("missing side to move")),
        };
        let quiet = parse_count(fields.next(), "quiet count")?;
        if let Some(extra) = fields.next() {
            return Err(ParseError::new(format!("unexpected field {extra:?}")));
        }
        Ok(Setup {
            balls,
            reserve,
            turn,
            quiet,
        })
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..5).rev() {
            let mut empty = 0;
            for file in 0..5 {
                let bit = Square::from_coords(file, rank).map_or(0, Square::bit);
                let ball = if self.balls[0] & bit != 0 {
                    Some('r')
                } else if self.balls[1] & bit != 0 {
                    Some('b')
                } else {
                    None
                };
                match ball {
                    Some(c) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{c}")?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let turn = match self.turn {
            Color::Red => 'r',
            Color::Black => 'b',
        };
        write!(
            f,
            " {} {} {turn} {}",
            self.reserve[0], self.reserve[1], self.quiet
        )
    }
}
