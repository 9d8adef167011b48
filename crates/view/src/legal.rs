//! Legal moves in the compact form a board needs to take a move by taps,
//! and the reasons the other places of the side to move refuse a tap.

use std::collections::{BTreeMap, HashSet};

use palabre_rules::nsolo::{self, Pit, Row};
use palabre_rules::yote::{self, Second, Square};
use serde::Serialize;

/// A legal move in the compact form of each game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Legal {
    Yote {
        #[serde(rename = "move")]
        notation: String,
        kind: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        from: Option<String>,
        to: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        jumped: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        second: Option<Option<String>>,
    },
    Nsolo {
        pit: String,
        bonus: u8,
        capture: Option<String>,
    },
}

impl Legal {
    /// The place a move starts from: a ball's hole, a hole to place in, a pit.
    pub fn origin(&self) -> &str {
        match self {
            Legal::Yote { from, to, .. } => from.as_deref().unwrap_or(to),
            Legal::Nsolo { pit, .. } => pit,
        }
    }
}

/// A Yoté move's kind, origin, target and second removal (`Some(None)`: a
/// capture with nothing left to remove).
pub(crate) fn yote_parts(
    m: yote::Move,
) -> (&'static str, Option<Square>, Square, Option<Option<String>>) {
    match m {
        yote::Move::Place { to } => ("place", None, to, None),
        yote::Move::Step { from, to } => ("step", Some(from), to, None),
        yote::Move::Capture { from, to, second } => {
            let second = match second {
                Some(Second::Board(sq)) => Some(sq.to_string()),
                Some(Second::Reserve) => Some("reserve".to_owned()),
                None => None,
            };
            ("capture", Some(from), to, Some(second))
        }
    }
}

pub(crate) fn yote_legal(pos: &yote::Position) -> Vec<Legal> {
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let (kind, from, to, second) = yote_parts(m);
            Legal::Yote {
                notation: m.to_string(),
                kind,
                from: from.map(|s| s.to_string()),
                to: to.to_string(),
                jumped: m.jumped().map(|s| s.to_string()),
                second,
            }
        })
        .collect()
}

pub(crate) fn nsolo_legal(pos: &nsolo::Position) -> Vec<Legal> {
    pos.legal_origins()
        .iter()
        .map(|o| {
            let sown = pos.sow_pit(o.pit).expect("a legal origin sows");
            let capture = (sown.captured() > 0).then(|| {
                let end = sown.end();
                let opposite = if end.row() == Row::B { Row::C } else { Row::B };
                Pit::new(opposite, end.col()).map_or_else(String::new, |p| p.to_string())
            });
            Legal::Nsolo {
                pit: o.pit.to_string(),
                bonus: o.bonus,
                capture,
            }
        })
        .collect()
}

/// The origins of `legal`: their answer is known, and asking the rules
/// again would sow every Nsolo candidate a second time.
fn origins(legal: &[Legal]) -> HashSet<&str> {
    legal.iter().map(Legal::origin).collect()
}

/// Why the side to move's balls (and, once its reserve is empty, the empty
/// holes) start no move; a board needs no word for the opponent's balls.
pub(crate) fn yote_refusals(
    pos: &yote::Position,
    legal: &[Legal],
) -> BTreeMap<String, &'static str> {
    let known = origins(legal);
    let mine = pos.balls(pos.turn())
        | if pos.reserve(pos.turn()) == 0 {
            pos.empty()
        } else {
            0
        };
    Square::all()
        .filter(|sq| mine & sq.bit() != 0)
        .map(|sq| (sq, sq.to_string()))
        .filter(|(_, name)| !known.contains(name.as_str()))
        .filter_map(|(sq, name)| pos.refusal(sq).map(|why| (name, why.code())))
        .collect()
}

/// Why the side to move's pits start no sowing.
pub(crate) fn nsolo_refusals(
    pos: &nsolo::Position,
    legal: &[Legal],
) -> BTreeMap<String, &'static str> {
    let known = origins(legal);
    let rows = match pos.turn() {
        nsolo::Side::South => [Row::A, Row::B],
        nsolo::Side::North => [Row::C, Row::D],
    };
    rows.into_iter()
        .flat_map(|row| (1..=pos.size()).filter_map(move |col| Pit::new(row, col)))
        .map(|pit| (pit, pit.to_string()))
        .filter(|(_, name)| !known.contains(name.as_str()))
        .filter_map(|(pit, name)| pos.refusal(pit).map(|why| (name, why.code())))
        .collect()
}
