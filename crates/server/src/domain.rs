//! The server's vocabulary as types: which game, which side, who the
//! opponent is, where a game stands and why it ended. Everything the API and
//! the store spell as strings is parsed into these once, at the edge.

use std::fmt;
use std::str::FromStr;

use palabre_rules::{DrawReason, Outcome, WinReason, nsolo, yote};
use serde::{Deserialize, Serialize};

/// A word the server does not know for one of its types.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} {value:?} is not one of {}", expected.join(", "))]
pub struct UnknownWord {
    pub what: &'static str,
    pub value: String,
    pub expected: &'static [&'static str],
}

macro_rules! words {
    ($ty:ident, $what:literal, { $($variant:ident => $word:literal),+ $(,)? }) => {
        impl $ty {
            pub const fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $word),+ }
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl FromStr for $ty {
            type Err = UnknownWord;
            fn from_str(s: &str) -> Result<$ty, UnknownWord> {
                match s {
                    $($word => Ok($ty::$variant),)+
                    _ => Err(UnknownWord {
                        what: $what,
                        value: s.to_owned(),
                        expected: &[$($word),+],
                    }),
                }
            }
        }
    };
}

/// Which of the two games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Yote,
    Nsolo,
}

words!(GameKind, "game", { Yote => "yote", Nsolo => "nsolo" });

impl GameKind {
    /// The two sides, the first mover first.
    pub const fn sides(self) -> [Side; 2] {
        match self {
            GameKind::Yote => [Side::Red, Side::Black],
            GameKind::Nsolo => [Side::South, Side::North],
        }
    }

    /// `side` if it belongs to this game.
    pub fn side(self, side: Side) -> Option<Side> {
        (side.kind() == self).then_some(side)
    }
}

/// A side of either game.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Red,
    Black,
    South,
    North,
}

words!(Side, "side", { Red => "red", Black => "black", South => "south", North => "north" });

impl Side {
    pub const fn kind(self) -> GameKind {
        match self {
            Side::Red | Side::Black => GameKind::Yote,
            Side::South | Side::North => GameKind::Nsolo,
        }
    }

    /// 0 for the side that moves first.
    pub const fn index(self) -> usize {
        match self {
            Side::Red | Side::South => 0,
            Side::Black | Side::North => 1,
        }
    }

    pub const fn other(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }
}

impl From<yote::Color> for Side {
    fn from(c: yote::Color) -> Side {
        match c {
            yote::Color::Red => Side::Red,
            yote::Color::Black => Side::Black,
        }
    }
}

impl From<nsolo::Side> for Side {
    fn from(s: nsolo::Side) -> Side {
        match s {
            nsolo::Side::South => Side::South,
            nsolo::Side::North => Side::North,
        }
    }
}

/// Who plays against the game's creator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    /// The machine, at the game's level.
    Machine,
    /// Two people on one screen.
    Local,
    /// People online, one seat each.
    Online,
}

words!(Opponent, "opponent", { Machine => "machine", Local => "local", Online => "online" });

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Online, waiting for its players.
    Waiting,
    Playing,
    Finished,
    /// Its stored moves do not replay: kept aside, read-only.
    Damaged,
}

words!(Status, "status", {
    Waiting => "waiting", Playing => "playing", Finished => "finished", Damaged => "damaged",
});

/// Why a game ended, by the position or by the people (and the clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    AllCaptured,
    NdarKepp,
    NoStones,
    NoMove,
    QuietMoves,
    Repetition,
    Resignation,
    Agreement,
    Timeout,
    /// Abandoned before the first move: no winner, no result to rate.
    Aborted,
}

words!(EndReason, "end reason", {
    AllCaptured => "all-captured", NdarKepp => "ndar-kepp", NoStones => "no-stones",
    NoMove => "no-move", QuietMoves => "quiet-moves", Repetition => "repetition",
    Resignation => "resignation", Agreement => "agreement", Timeout => "timeout",
    Aborted => "aborted",
});

impl From<WinReason> for EndReason {
    fn from(r: WinReason) -> EndReason {
        match r {
            WinReason::AllCaptured => EndReason::AllCaptured,
            WinReason::NdarKepp => EndReason::NdarKepp,
            WinReason::NoStones => EndReason::NoStones,
            WinReason::NoMove => EndReason::NoMove,
            WinReason::Resignation => EndReason::Resignation,
            WinReason::Timeout => EndReason::Timeout,
        }
    }
}

impl From<DrawReason> for EndReason {
    fn from(r: DrawReason) -> EndReason {
        match r {
            DrawReason::QuietMoves => EndReason::QuietMoves,
            DrawReason::Repetition => EndReason::Repetition,
            DrawReason::Agreement => EndReason::Agreement,
        }
    }
}

/// The end of a game: the winner (none for a draw or an abort) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Ended {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

impl Ended {
    pub const fn win(winner: Side, reason: EndReason) -> Ended {
        Ended {
            winner: Some(winner),
            reason,
        }
    }

    pub const fn draw(reason: EndReason) -> Ended {
        Ended {
            winner: None,
            reason,
        }
    }
}

impl<S: Into<Side>> From<Outcome<S>> for Ended {
    fn from(o: Outcome<S>) -> Ended {
        match o {
            Outcome::Win { winner, reason } => Ended::win(winner.into(), reason.into()),
            Outcome::Draw { reason } => Ended::draw(reason.into()),
        }
    }
}

/// `red wins by resignation`, `draw by agreement`, as in records.
impl fmt::Display for Ended {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(w) => write!(f, "{w} wins by {}", self.reason),
            None => write!(f, "draw by {}", self.reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_unknown_words_are_named() {
        for side in [Side::Red, Side::Black, Side::South, Side::North] {
            assert_eq!(side.as_str().parse::<Side>(), Ok(side));
            assert_eq!(side.other().other(), side);
            assert_eq!(side.kind().sides()[side.index()], side);
        }
        let e = "green".parse::<Side>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "side \"green\" is not one of red, black, south, north"
        );
        assert_eq!(EndReason::NdarKepp.to_string(), "ndar-kepp");
        assert_eq!(
            serde_json::to_string(&EndReason::QuietMoves).unwrap(),
            "\"quiet-moves\""
        );
    }
}
