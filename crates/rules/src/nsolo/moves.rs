//! Nsolo moves and their notation: `A3`, `B5/C2:1,D7:2`.
//!
//! Parsing checks the grammar and that the bonus names pits of one side in
//! canonical order (A, B, C, D, then by column), each once; whether the
//! position allows the move is [`Position::play`]'s business.

use std::fmt;
use std::str::FromStr;

use super::{Bonus, Pit};
use crate::ParseError;

/// An origin pit and the bonus removed after its capture (empty if none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    origin: Pit,
    bonus: Bonus,
}

impl Move {
    pub const fn new(origin: Pit, bonus: Bonus) -> Move {
        Move { origin, bonus }
    }

    /// A move with no bonus.
    pub const fn sowing(origin: Pit) -> Move {
        Move {
            origin,
            bonus: Bonus::none(origin.owner().other()),
        }
    }

    pub const fn origin(&self) -> Pit {
        self.origin
    }

    pub const fn bonus(&self) -> &Bonus {
        &self.bonus
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.origin)?;
        if !self.bonus.is_empty() {
            write!(f, "/{}", self.bonus)?;
        }
        Ok(())
    }
}

fn parse_item(item: &str) -> Result<(Pit, u8), ParseError> {
    let (pit, count) = item
        .split_once(':')
        .ok_or_else(|| ParseError::new(format!("bonus item {item:?} is not PIT:COUNT")))?;
    let bad_count = || ParseError::new(format!("bonus count {count:?} must be 1 to 255"));
    if count.starts_with('0') || !count.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad_count());
    }
    Ok((pit.parse()?, count.parse().map_err(|_| bad_count())?))
}

impl FromStr for Move {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Move, ParseError> {
        let (origin, items) = match s.split_once('/') {
            Some((origin, items)) => (origin, Some(items)),
            None => (s, None),
        };
        let origin: Pit = origin.parse()?;
        let Some(items) = items else {
            return Ok(Move::sowing(origin));
        };
        let mut bonus: Option<Bonus> = None;
        let mut last: Option<Pit> = None;
        for item in items.split(',') {
            let (pit, n) = parse_item(item)?;
            let b = bonus.get_or_insert(Bonus::none(pit.owner()));
            if pit.owner() != b.victim() {
                return Err(ParseError::new("bonus mixes both sides' pits"));
            }
            match last {
                Some(prev) if prev == pit => {
                    return Err(ParseError::new(format!("bonus names {pit} twice")));
                }
                Some(prev) if prev.side_slot() > pit.side_slot() => {
                    return Err(ParseError::new(format!("bonus lists {pit} after {prev}")));
                }
                _ => {}
            }
            last = Some(pit);
            b.add(pit, n);
        }
        Ok(Move {
            origin,
            bonus: bonus.expect("split yields at least one item"),
        })
    }
}
