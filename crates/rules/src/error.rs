//! Error types shared by both games.
//!
//! A string that cannot be read is a [`ParseError`]; a position that reads
//! but cannot exist is a [`PositionError`]; a move that reads but may not be
//! played is an [`IllegalMove`], which also names the rule it breaks with a
//! stable code. The messages are terse and say where.

use thiserror::Error;

/// Text that does not follow the notation or the position-string grammar.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct ParseError(pub(crate) String);

impl ParseError {
    pub(crate) fn new(message: impl Into<String>) -> ParseError {
        ParseError(message.into())
    }
}

/// A well-formed position string describing an impossible position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct PositionError(pub(crate) String);

/// Either failure of reading a position string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    #[error("malformed position: {0}")]
    Parse(#[from] ParseError),
    #[error("invalid position: {0}")]
    Position(#[from] PositionError),
}

/// A well-formed move that the position does not allow: which rule it
/// breaks ([`Illegal`]), a terse message, and the places the message names.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct IllegalMove {
    kind: Illegal,
    message: String,
    args: Vec<(&'static str, String)>,
}

impl IllegalMove {
    pub(crate) fn new(kind: Illegal, message: impl Into<String>) -> IllegalMove {
        IllegalMove {
            kind,
            message: message.into(),
            args: Vec::new(),
        }
    }

    /// Names a place or a number the message mentions (`from`, `to`, `pit`…).
    pub(crate) fn with(mut self, name: &'static str, value: impl ToString) -> IllegalMove {
        self.args.push((name, value.to_string()));
        self
    }

    pub fn kind(&self) -> Illegal {
        self.kind
    }

    /// The places and numbers the message names, for words in another
    /// language: `[("from", "c5"), ("to", "e5")]`.
    pub fn args(&self) -> &[(&'static str, String)] {
        &self.args
    }
}

/// The rule a move breaks. Each has a stable snake_case [`code`](Illegal::code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// Yoté: the hole to place or land on is taken (`hole`).
    Occupied,
    /// Yoté: a placement with no ball in reserve.
    NoReserve,
    /// Yoté: a step while balls remain in reserve.
    ReserveNotEmpty,
    /// Yoté: no ball of the mover on `hole`.
    NotYourBall,
    /// Yoté: a step from `from` to a hole `to` that is not next to it.
    NotAdjacent,
    /// Yoté: a capture from `from` to `to` that is not a jump over one hole.
    NotAJump,
    /// Yoté: no opponent ball on `hole` between the two.
    NothingToJump,
    /// Yoté: a capture without the second ball while one is left.
    SecondRequired,
    /// Yoté: the second ball taken from an empty reserve.
    NoSecondInReserve,
    /// Yoté: the second ball taken from `hole`, which holds no opponent ball.
    NoSecondBall,
    /// Nsolo: `pit` is the opponent's.
    NotYourPit,
    /// Nsolo: the board has no `pit` (`size` columns).
    NoSuchPit,
    /// Nsolo: `pit` is empty.
    EmptyPit,
    /// Nsolo: a single stone in `pit` while a pit holds two or more.
    SingleStone,
    /// Nsolo: a single stone in `pit` whose next pit is not empty.
    NextOccupied,
    /// Nsolo: the sowing from `pit` never ends.
    Endless,
    /// Nsolo: bonus stones taken from the mover's own pits.
    BonusSide,
    /// Nsolo: the bonus takes `count` from `pit`, which holds `have`.
    BonusExceedsPit,
    /// Nsolo: the bonus removes `count` stones, `required` are due.
    BonusCount,
}

impl Illegal {
    pub const fn code(self) -> &'static str {
        match self {
            Illegal::GameOver => "game_over",
            Illegal::Occupied => "occupied",
            Illegal::NoReserve => "no_reserve",
            Illegal::ReserveNotEmpty => "reserve_not_empty",
            Illegal::NotYourBall => "not_your_ball",
            Illegal::NotAdjacent => "not_adjacent",
            Illegal::NotAJump => "not_a_jump",
            Illegal::NothingToJump => "nothing_to_jump",
            Illegal::SecondRequired => "second_required",
            Illegal::NoSecondInReserve => "no_second_in_reserve",
            Illegal::NoSecondBall => "no_second_ball",
            Illegal::NotYourPit => "not_your_pit",
            Illegal::NoSuchPit => "no_such_pit",
            Illegal::EmptyPit => "empty_pit",
            Illegal::SingleStone => "single_stone",
            Illegal::NextOccupied => "next_occupied",
            Illegal::Endless => "endless",
            Illegal::BonusSide => "bonus_side",
            Illegal::BonusExceedsPit => "bonus_exceeds_pit",
            Illegal::BonusCount => "bonus_count",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{nsolo, yote};

    fn yote_error(fen: &str, m: &str) -> IllegalMove {
        let mut pos: yote::Position = fen.parse().unwrap();
        pos.play(&m.parse().unwrap()).unwrap_err()
    }

    #[test]
    fn an_illegal_move_names_its_rule_and_places() {
        let start = "5/5/5/5/5 12 12 r 0";
        let e = yote_error("5/5/5/5/2r2 0 12 r 0", "c1-e1");
        assert_eq!(
            (e.kind().code(), e.to_string()),
            ("not_adjacent", "e1 is not next to c1".to_owned())
        );
        assert_eq!(
            e.args(),
            &[("from", "c1".to_owned()), ("to", "e1".to_owned())]
        );
        let kind = |fen, m| yote_error(fen, m).kind();
        assert_eq!(kind(start, "c3-c4"), Illegal::ReserveNotEmpty);
        assert_eq!(kind("5/5/5/5/2r2 11 12 r 1", "c1"), Illegal::Occupied);
        assert_eq!(kind("5/5/5/5/2r2 0 12 r 0", "c3"), Illegal::NoReserve);
        assert_eq!(kind("5/5/5/5/2r2 0 12 r 0", "a1-a2"), Illegal::NotYourBall);
        assert_eq!(
            kind("5/5/5/5/2r2 0 12 r 0", "c1xc3/r"),
            Illegal::NothingToJump
        );
        assert_eq!(
            kind("5/5/5/2b2/2r2 0 11 r 0", "c1xc3"),
            Illegal::SecondRequired
        );

        let mut pos = nsolo::Position::start(8).unwrap();
        let e = pos.play(&"B8".parse().unwrap()).unwrap_err();
        assert_eq!(
            (e.kind(), e.args()),
            (Illegal::EmptyPit, &[("pit", "B8".to_owned())][..])
        );
        let e = pos.play(&"C3".parse().unwrap()).unwrap_err();
        assert_eq!(e.kind().code(), "not_your_pit");
    }
}
