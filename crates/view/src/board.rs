//! The board of each game as plain maps: place name to content.

use std::collections::BTreeMap;

use palabre_rules::nsolo::{self, Pit, Row};
use palabre_rules::yote::{self, Color, Square};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct YoteBoard {
    pub board: BTreeMap<String, String>,
    pub reserve: BTreeMap<String, u8>,
    pub captured: BTreeMap<String, u8>,
    pub quiet: u8,
    pub quiet_limit: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NsoloBoard {
    pub rows: BTreeMap<String, Vec<u8>>,
    pub stones: BTreeMap<String, u32>,
}

impl YoteBoard {
    pub fn of(pos: &yote::Position) -> YoteBoard {
        let colors = [Color::Red, Color::Black];
        YoteBoard {
            board: Square::all()
                .filter_map(|sq| pos.ball_at(sq).map(|c| (sq.to_string(), c.to_string())))
                .collect(),
            reserve: colors
                .iter()
                .map(|c| (c.to_string(), pos.reserve(*c)))
                .collect(),
            // Balls a side has taken are the ones its opponent lost.
            captured: colors
                .iter()
                .map(|c| (c.to_string(), pos.captured(c.other())))
                .collect(),
            quiet: pos.quiet(),
            quiet_limit: yote::QUIET_LIMIT,
        }
    }
}

impl NsoloBoard {
    pub fn of(pos: &nsolo::Position) -> NsoloBoard {
        let row = |r: Row| {
            (1..=pos.size())
                .map(|c| Pit::new(r, c).and_then(|p| pos.count(p)).unwrap_or(0))
                .collect()
        };
        NsoloBoard {
            rows: [("A", Row::A), ("B", Row::B), ("C", Row::C), ("D", Row::D)]
                .into_iter()
                .map(|(name, r)| (name.to_owned(), row(r)))
                .collect(),
            stones: [nsolo::Side::South, nsolo::Side::North]
                .iter()
                .map(|s| (s.to_string(), pos.stones(*s)))
                .collect(),
        }
    }
}
