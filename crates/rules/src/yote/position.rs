//! A validated Yoté position: play, legality, outcome and hash.

use std::fmt;
use std::str::FromStr;

use super::bitboard::FULL;
use super::{BALLS, Move, Second, Setup, Square};
use crate::mix::mix;
use crate::{
    DrawReason, GamePosition, Illegal, IllegalMove, Outcome, PositionError, SetupError, WinReason,
};

/// Plies without a capture after which the game is drawn.
pub const QUIET_LIMIT: u8 = 120;

/// A side: Red (« les Rouges ») moves first, then Black (« les Noires »).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Black => "black",
        })
    }
}

/// A legal Yoté position (12 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(super) balls: [u32; 2],
    pub(super) reserve: [u8; 2],
    pub(super) turn: Color,
    pub(super) quiet: u8,
}

impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}

impl TryFrom<Setup> for Position {
    type Error = PositionError;

    fn try_from(s: Setup) -> Result<Position, PositionError> {
        if s.balls[0] & s.balls[1] != 0 || (s.balls[0] | s.balls[1]) & !FULL != 0 {
            return Err(PositionError("balls overlap or leave the board".into()));
        }
        for color in [Color::Red, Color::Black] {
            let total = s.balls[color.index()].count_ones() + u32::from(s.reserve[color.index()]);
            if total > u32::from(BALLS) {
                return Err(PositionError(format!(
                    "{color} has {total} balls, at most 12"
                )));
            }
        }
        if s.quiet > QUIET_LIMIT {
            return Err(PositionError(format!(
                "quiet count {} outside 0-120",
                s.quiet
            )));
        }
        Ok(Position {
            balls: s.balls,
            reserve: s.reserve,
            turn: s.turn,
            quiet: s.quiet,
        })
    }
}

impl FromStr for Position {
    type Err = SetupError;

    fn from_str(s: &str) -> Result<Position, SetupError> {
        Ok(Position::try_from(s.parse::<Setup>()?)?)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.setup().fmt(f)
    }
}

impl Position {
    /// The empty board, twelve balls in each reserve, Red to move.
    pub const START: Position = Position {
        balls: [0, 0],
        reserve: [BALLS, BALLS],
        turn: Color::Red,
        quiet: 0,
    };

    pub fn setup(&self) -> Setup {
        Setup {
            balls: self.balls,
            reserve: self.reserve,
            turn: self.turn,
            quiet: self.quiet,
        }
    }

    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture.
    pub const fn quiet(&self) -> u8 {
        self.quiet
    }

    /// The holes holding `color`'s balls, as a bitboard.
    pub const fn balls(&self, color: Color) -> u32 {
        self.balls[color.index()]
    }

    pub const fn reserve(&self, color: Color) -> u8 {
        self.reserve[color.index()]
    }

    /// Balls `color` has lost: `12 − board − reserve`.
    pub const fn captured(&self, color: Color) -> u8 {
        BALLS - self.balls[color.index()].count_ones() as u8 - self.reserve[color.index()]
    }

    pub fn ball_at(&self, sq: Square) -> Option<Color> {
        [Color::Red, Color::Black]
            .into_iter()
            .find(|c| self.balls(*c) & sq.bit() != 0)
    }

    /// The empty holes, as a bitboard.
    pub const fn empty(&self) -> u32 {
        FULL & !(self.balls[0] | self.balls[1])
    }

    /// Balls a side has left, on the board and in reserve.
    pub const fn material(&self, color: Color) -> u32 {
        self.balls[color.index()].count_ones() + self.reserve[color.index()] as u32
    }

    /// The end decided by the position: all captured, then quiet moves, then
    /// Ndar-Kepp, in that order.
    pub fn outcome(&self) -> Option<Outcome<Color>> {
        let winner = self.turn.other();
        if self.material(self.turn) == 0 {
            Some(Outcome::Win {
                winner,
                reason: WinReason::AllCaptured,
            })
        } else if self.quiet >= QUIET_LIMIT {
            Some(Outcome::Draw {
                reason: DrawReason::QuietMoves,
            })
        } else if !self.has_action() {
            Some(Outcome::Win {
                winner,
                reason: WinReason::NdarKepp,
            })
        } else {
            None
        }
    }

    /// Whether the game is over by the position alone.
    pub(super) fn is_over_by_count(&self) -> bool {
        self.material(self.turn) == 0 || self.quiet >= QUIET_LIMIT
    }

    /// A hash for transposition tables: a bijective mix of the 59-bit key
    /// (boards, reserves, turn), so two positions that differ in more than
    /// the quiet count never collide.
    pub fn hash(&self) -> u64 {
        let key = u64::from(self.balls[0])
            | u64::from(self.balls[1]) << 25
            | u64::from(self.reserve[0]) << 50
            | u64::from(self.reserve[1]) << 54
            | (self.turn as u64) << 58;
        mix(key)
    }

    /// Plays `m` after checking it; an illegal move changes nothing.
    pub fn play(&mut self, m: &Move) -> Result<(), IllegalMove> {
        self.check(*m)?;
        self.play_unchecked(*m);
        Ok(())
    }

    /// Plays a move known to be legal (from the move generator).
    pub fn play_unchecked(&mut self, m: Move) {
        let me = self.turn.index();
        let them = 1 - me;
        match m {
            Move::Place { to } => {
                self.balls[me] |= to.bit();
                self.reserve[me] -= 1;
                self.quiet += 1;
            }
            Move::Step { from, to } => {
                self.balls[me] ^= from.bit() | to.bit();
                self.quiet += 1;
            }
            Move::Capture { from, to, second } => {
                let over = (from.index() + to.index()) / 2;
                self.balls[me] ^= from.bit() | to.bit();
                self.balls[them] &= !(1 << over);
                match second {
                    Some(Second::Board(sq)) => self.balls[them] &= !sq.bit(),
                    Some(Second::Reserve) => self.reserve[them] -= 1,
                    None => {}
                }
                self.quiet = 0;
            }
        }
        self.turn = self.turn.other();
    }

    fn check(&self, m: Move) -> Result<(), IllegalMove> {
        if self.is_over_by_count() {
            return Err(IllegalMove::new(Illegal::GameOver, "the game is over"));
        }
        let me = self.turn;
        let own = self.balls(me);
        let has_reserve = self.reserve(me) > 0;
        let occupied = |sq: Square| {
            if self.empty() & sq.bit() == 0 {
                Err(
                    IllegalMove::new(Illegal::Occupied, format!("{sq} is occupied"))
                        .with("hole", sq),
                )
            } else {
                Ok(())
            }
        };
        let owned = |sq: Square| {
            if own & sq.bit() == 0 {
                Err(
                    IllegalMove::new(Illegal::NotYourBall, format!("no {me} ball on {sq}"))
                        .with("hole", sq),
                )
            } else {
                Ok(())
            }
        };
        match m {
            Move::Place { to } => {
                if !has_reserve {
                    return Err(IllegalMove::new(
                        Illegal::NoReserve,
                        format!("{me} has no ball in reserve"),
                    ));
                }
                occupied(to)
            }
            Move::Step { from, to } => {
                if has_reserve {
                    return Err(IllegalMove::new(
                        Illegal::ReserveNotEmpty,
                        format!("{me} must place while balls remain in reserve"),
                    ));
                }
                owned(from)?;
                if distance(from, to) != Some(1) {
                    return Err(IllegalMove::new(
                        Illegal::NotAdjacent,
                        format!("{to} is not next to {from}"),
                    )
                    .with("from", from)
                    .with("to", to));
                }
                occupied(to)
            }
            Move::Capture { from, to, second } => {
                owned(from)?;
                if distance(from, to) != Some(2) {
                    return Err(IllegalMove::new(
                        Illegal::NotAJump,
                        format!("{from}x{to} is not a jump over one hole"),
                    )
                    .with("from", from)
                    .with("to", to));
                }
                let over = Square::new((from.index() + to.index()) as u8 / 2).expect("on board");
                let them = me.other();
                if self.balls(them) & over.bit() == 0 {
                    return Err(IllegalMove::new(
                        Illegal::NothingToJump,
                        format!("no {them} ball on {over} to jump"),
                    )
                    .with("hole", over));
                }
                occupied(to)?;
                self.check_second(them, self.balls(them) & !over.bit(), second)
            }
        }
    }

    fn check_second(
        &self,
        them: Color,
        left: u32,
        second: Option<Second>,
    ) -> Result<(), IllegalMove> {
        let anything_left = left != 0 || self.reserve(them) > 0;
        match second {
            None if anything_left => Err(IllegalMove::new(
                Illegal::SecondRequired,
                "a second ball must be taken",
            )),
            None => Ok(()),
            Some(Second::Reserve) if self.reserve(them) == 0 => Err(IllegalMove::new(
                Illegal::NoSecondInReserve,
                format!("{them} has no ball in reserve"),
            )),
            Some(Second::Board(sq)) if left & sq.bit() == 0 => Err(IllegalMove::new(
                Illegal::NoSecondBall,
                format!("no {them} ball on {sq} to take"),
            )
            .with("hole", sq)),
            Some(_) => Ok(()),
        }
    }
}

/// The orthogonal distance from `a` to `b`, if they share a rank or a file.
fn distance(a: Square, b: Square) -> Option<u8> {
    match (a.file() == b.file(), a.rank() == b.rank()) {
        (true, false) => Some(a.rank().abs_diff(b.rank())),
        (false, true) => Some(a.file().abs_diff(b.file())),
        _ => None,
    }
}

impl GamePosition for Position {
    type Side = Color;
    type Move = Move;
    const NAME: &'static str = "yote";
    const REPETITION_DRAWS: bool = false;

    fn from_position_string(s: &str) -> Result<Position, SetupError> {
        s.parse()
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn play(&mut self, m: &Move) -> Result<(), IllegalMove> {
        Position::play(self, m)
    }

    fn outcome(&self) -> Option<Outcome<Color>> {
        Position::outcome(self)
    }

    fn hash(&self) -> u64 {
        Position::hash(self)
    }
}
