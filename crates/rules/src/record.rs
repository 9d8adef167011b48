//! A whole game: a start position and the moves played from it.
//!
//! The record is where the rules that need history live: Nsolo's draw by
//! repetition. It also replays a list of move strings and says which one
//! fails, at which ply and why.

use std::collections::HashMap;

use thiserror::Error;

use crate::{DrawReason, GamePosition, Illegal, IllegalMove, Outcome, ParseError, WinReason};

/// A start position, the moves played and every position reached.
#[derive(Debug, Clone)]
pub struct Record<P: GamePosition> {
    /// Each position with its hash, and how many positions have each hash:
    /// the repetition check of every ply looks its hash up instead of
    /// hashing the whole history again, which took a third of the time of
    /// replaying a long 4×36 game.
    positions: Vec<(P, u64)>,
    seen: HashMap<u64, u32>,
    moves: Vec<P::Move>,
}

/// A move of a replayed list that failed; `ply` counts the moves before it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordError {
    #[error("ply {ply}: malformed move {text:?}: {error}")]
    Malformed {
        ply: usize,
        text: String,
        error: ParseError,
    },
    #[error("ply {ply}: illegal move {text}: {error}")]
    Illegal {
        ply: usize,
        text: String,
        error: IllegalMove,
    },
}

impl<P: GamePosition> Record<P> {
    pub fn new(start: P) -> Record<P> {
        let hash = start.hash();
        Record {
            positions: vec![(start, hash)],
            seen: HashMap::from([(hash, 1)]),
            moves: Vec::new(),
        }
    }

    /// Plays the move strings in order from `start`.
    pub fn replay<S: AsRef<str>>(start: P, moves: &[S]) -> Result<Record<P>, RecordError> {
        let mut record = Record::new(start);
        for text in moves {
            let text = text.as_ref();
            let ply = record.ply();
            let m = text
                .parse::<P::Move>()
                .map_err(|error| RecordError::Malformed {
                    ply,
                    text: text.to_owned(),
                    error,
                })?;
            record.play(&m).map_err(|error| RecordError::Illegal {
                ply,
                text: text.to_owned(),
                error,
            })?;
        }
        Ok(record)
    }

    /// Plays a move if the game is not over and the move is legal.
    pub fn play(&mut self, m: &P::Move) -> Result<(), IllegalMove> {
        let over = || IllegalMove::new(Illegal::GameOver, "the game is over");
        if P::REPETITION_DRAWS && self.is_repetition() {
            return Err(over());
        }
        // A position that is over by itself has no legal move, so its end
        // is only looked for once the move is refused: finding that an
        // Nsolo position still has a move costs as much as playing one.
        let mut next = self.position().clone();
        if let Err(illegal) = next.play(m) {
            return Err(match self.position().outcome() {
                Some(_) => over(),
                None => illegal,
            });
        }
        debug_assert!(self.position().outcome().is_none(), "a move after the end");
        let hash = next.hash();
        *self.seen.entry(hash).or_default() += 1;
        self.positions.push((next, hash));
        self.moves.push(m.clone());
        Ok(())
    }

    /// Takes the last move back, returning it.
    pub fn undo(&mut self) -> Option<P::Move> {
        let m = self.moves.pop()?;
        let (_, hash) = self.positions.pop().expect("the start stays");
        if let Some(count) = self.seen.get_mut(&hash) {
            *count -= 1;
        }
        Some(m)
    }

    pub fn start(&self) -> &P {
        &self.positions[0].0
    }

    pub fn position(&self) -> &P {
        &self
            .positions
            .last()
            .expect("a record always holds its start")
            .0
    }

    /// The position after `ply` moves.
    pub fn position_at(&self, ply: usize) -> Option<&P> {
        self.positions.get(ply).map(|(p, _)| p)
    }

    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// The number of moves played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The end of the game from the position and, for Nsolo, its history.
    ///
    /// Nsolo checks "no stones" before repetition and repetition before
    /// "no move", so a repeated position only draws when the side to move
    /// still has stones.
    pub fn outcome(&self) -> Option<Outcome<P::Side>> {
        let current = self.position().outcome();
        if let Some(Outcome::Win {
            reason: WinReason::NoStones,
            ..
        }) = current
        {
            return current;
        }
        if P::REPETITION_DRAWS && self.is_repetition() {
            return Some(Outcome::Draw {
                reason: DrawReason::Repetition,
            });
        }
        current
    }

    fn is_repetition(&self) -> bool {
        let ((current, hash), earlier) = self.positions.split_last().expect("never empty");
        // Only a hash seen before sends the check through the history.
        self.seen[hash] > 1 && earlier.iter().any(|(p, h)| h == hash && p == current)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::fmt;
    use std::str::FromStr;

    use super::*;
    use crate::SetupError;
    use crate::yote::Color;

    thread_local! {
        static HASHED: Cell<usize> = const { Cell::new(0) };
    }

    /// A walk along a line that counts how often it is hashed: the side to
    /// move and where the walker stands.
    #[derive(Debug, Clone, PartialEq, Eq)]
    struct Walk(Color, i32);

    /// A step of the walk, `+1` or `-1`.
    #[derive(Debug, Clone, PartialEq, Eq)]
    struct Step(i32);

    impl FromStr for Step {
        type Err = ParseError;
        fn from_str(s: &str) -> Result<Step, ParseError> {
            s.parse().map(Step).map_err(|_| ParseError::new("a step"))
        }
    }

    impl fmt::Display for Step {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{:+}", self.0)
        }
    }

    impl fmt::Display for Walk {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{} {}", self.1, self.0)
        }
    }

    impl GamePosition for Walk {
        type Side = Color;
        type Move = Step;
        const NAME: &'static str = "walk";
        const REPETITION_DRAWS: bool = true;

        fn from_position_string(_: &str) -> Result<Walk, SetupError> {
            Ok(Walk(Color::Red, 0))
        }
        fn turn(&self) -> Color {
            self.0
        }
        fn play(&mut self, m: &Step) -> Result<(), IllegalMove> {
            *self = Walk(self.0.other(), self.1 + m.0);
            Ok(())
        }
        fn outcome(&self) -> Option<Outcome<Color>> {
            None
        }
        fn hash(&self) -> u64 {
            HASHED.with(|n| n.set(n.get() + 1));
            u64::from(self.0 == Color::Red) | (self.1 as u64) << 1
        }
    }

    #[test]
    fn a_long_replay_hashes_each_position_once() {
        let steps = vec!["+1"; 2_000];
        HASHED.with(|n| n.set(0));
        let record = Record::replay(Walk(Color::Red, 0), &steps).unwrap();
        assert_eq!(record.ply(), 2_000);
        // Hashing every earlier position again at each ply took two million.
        assert_eq!(HASHED.with(Cell::get), 2_001);
    }

    #[test]
    fn a_position_repeated_with_the_same_side_to_move_draws() {
        let start = Walk(Color::Red, 0);
        let mut record = Record::replay(start.clone(), &["+1", "-1"]).unwrap();
        let drawn = Some(Outcome::Draw {
            reason: DrawReason::Repetition,
        });
        assert_eq!(record.outcome(), drawn);
        let err = Record::replay(start.clone(), &["+1", "-1", "+1"]).unwrap_err();
        assert!(matches!(err, RecordError::Illegal { ply: 2, .. }), "{err}");
        record.undo();
        assert_eq!(record.outcome(), None);
        // Back at 0, but with Black to move: not the start position.
        let other_side = Record::replay(start, &["+1", "+1", "-2"]).unwrap();
        assert_eq!(other_side.position(), &Walk(Color::Black, 0));
        assert_eq!(other_side.outcome(), None);
    }

    #[test]
    fn a_game_over_by_its_position_refuses_moves_as_over() {
        // Red is walled in (Ndar-Kepp): the step is refused because the
        // game is over, not because a2 is taken.
        for (fen, text) in [
            ("5/5/b4/b4/rbb2 0 0 r 0", "a1-a2"),
            ("5/5/5/5/r3b 3 3 r 120", "c3"),
        ] {
            let start: crate::yote::Position = fen.parse().unwrap();
            assert!(start.outcome().is_some(), "{fen}");
            let mut record = Record::new(start);
            let err = record.play(&text.parse().unwrap()).unwrap_err();
            assert_eq!(err.kind(), Illegal::GameOver, "{fen}: {err}");
            assert_eq!(record.ply(), 0);
        }
    }
}
