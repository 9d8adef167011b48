//! A whole game: a start position and the moves played from it.
//!
//! The record is where the rules that need history live: Nsolo's draw by
//! repetition. It also replays a list of move strings and says which one
//! fails, at which ply and why.

use thiserror::Error;

use crate::{DrawReason, GamePosition, Illegal, IllegalMove, Outcome, ParseError, WinReason};

/// A start position, the moves played and every position reached.
#[derive(Debug, Clone)]
pub struct Record<P: GamePosition> {
    positions: Vec<P>,
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
        Record {
            positions: vec![start],
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
        if self.outcome().is_some() {
            return Err(IllegalMove::new(Illegal::GameOver, "the game is over"));
        }
        let mut next = self.position().clone();
        next.play(m)?;
        self.positions.push(next);
        self.moves.push(m.clone());
        Ok(())
    }

    /// Takes the last move back, returning it.
    pub fn undo(&mut self) -> Option<P::Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    pub fn position(&self) -> &P {
        self.positions
            .last()
            .expect("a record always holds its start")
    }

    /// The position after `ply` moves.
    pub fn position_at(&self, ply: usize) -> Option<&P> {
        self.positions.get(ply)
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
        let (current, earlier) = self.positions.split_last().expect("never empty");
        let hash = current.hash();
        earlier.iter().any(|p| p.hash() == hash && p == current)
    }
}
