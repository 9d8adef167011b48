//! Yoté moves and their notation: `c3`, `c3-c4`, `c3xc5/e1`, `c3xc5/r`, `c3xc5`.
//!
//! Parsing checks the grammar only; whether the geometry and the position
//! allow the move is [`Position::play`](super::Position::play)'s business.

use std::fmt;
use std::str::FromStr;

use super::Square;
use crate::ParseError;

/// The second ball a capture removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Second {
    /// An opponent ball still on the board.
    Board(Square),
    /// One ball from the opponent's reserve.
    Reserve,
}

/// One action: place, step or capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    Place {
        to: Square,
    },
    Step {
        from: Square,
        to: Square,
    },
    /// A jump from `from` over the adjacent opponent ball to `to`, then the
    /// second ball; `None` only when the opponent has nothing left to take.
    Capture {
        from: Square,
        to: Square,
        second: Option<Second>,
    },
}

impl Move {
    pub const fn is_capture(self) -> bool {
        matches!(self, Move::Capture { .. })
    }

    /// The hole whose ball a capture jumps over.
    pub fn jumped(self) -> Option<Square> {
        match self {
            Move::Capture { from, to, .. } => Square::new((from.index() + to.index()) as u8 / 2),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Place { to } => write!(f, "{to}"),
            Move::Step { from, to } => write!(f, "{from}-{to}"),
            Move::Capture { from, to, second } => {
                write!(f, "{from}x{to}")?;
                match second {
                    Some(Second::Board(sq)) => write!(f, "/{sq}"),
                    Some(Second::Reserve) => f.write_str("/r"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl FromStr for Move {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Move, ParseError> {
        let bad = || ParseError::new(format!("bad Yoté move {s:?}"));
        if !s.is_ascii() {
            return Err(bad());
        }
        match s.len() {
            2 => Ok(Move::Place { to: s.parse()? }),
            5 if &s[2..3] == "-" => Ok(Move::Step {
                from: s[..2].parse()?,
                to: s[3..].parse()?,
            }),
            5 | 7 | 8 if &s[2..3] == "x" => {
                let (from, to) = (s[..2].parse()?, s[3..5].parse()?);
                let second = match &s[5..] {
                    "" => None,
                    "/r" => Some(Second::Reserve),
                    rest if rest.len() == 3 && rest.starts_with('/') => {
                        Some(Second::Board(rest[1..].parse()?))
                    }
                    _ => return Err(bad()),
                };
                Ok(Move::Capture { from, to, second })
            }
            _ => Err(bad()),
        }
    }
}
