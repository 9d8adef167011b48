//! A game's record for either game: the start position, the moves and the
//! rules that need the history. Moves come in and go out as notation; a
//! refused move changes nothing.

use palabre_ai::player::AnyPosition;
use palabre_rules::{GamePosition, ParseError, Record, nsolo, yote};

use crate::domain::{Ended, GameKind, Side};

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("{0}")]
    Malformed(String),
    #[error("{0}")]
    Illegal(String),
}

/// A game's record.
#[derive(Debug, Clone)]
pub enum Play {
    Yote(Record<yote::Position>),
    Nsolo(Record<nsolo::Position>),
}

fn parse<P: GamePosition>(text: &str) -> Result<P::Move, MoveError> {
    text.parse::<P::Move>()
        .map_err(|e: ParseError| MoveError::Malformed(e.to_string()))
}

fn play_on<P: GamePosition>(record: &mut Record<P>, text: &str) -> Result<(), MoveError> {
    let m = parse::<P>(text)?;
    if record.outcome().is_some() {
        return Err(MoveError::Illegal("the game is over".into()));
    }
    record
        .play(&m)
        .map_err(|e| MoveError::Illegal(e.to_string()))
}

fn check_on<P: GamePosition>(record: &Record<P>, text: &str) -> Result<(), MoveError> {
    let m = parse::<P>(text)?;
    if record.outcome().is_some() {
        return Err(MoveError::Illegal("the game is over".into()));
    }
    record
        .position()
        .clone()
        .play(&m)
        .map_err(|e| MoveError::Illegal(e.to_string()))
}

fn history<P: GamePosition>(record: &Record<P>) -> Vec<u64> {
    (0..record.ply())
        .filter_map(|i| record.position_at(i))
        .map(P::hash)
        .collect()
}

macro_rules! both {
    ($self:expr, $r:ident => $e:expr) => {
        match $self {
            Play::Yote($r) => $e,
            Play::Nsolo($r) => $e,
        }
    };
}

impl Play {
    /// A new record from a position string.
    pub fn start(kind: GameKind, fen: &str) -> Result<Play, String> {
        Ok(match kind {
            GameKind::Yote => Play::Yote(Record::new(fen.parse().map_err(|e| format!("{e}"))?)),
            GameKind::Nsolo => Play::Nsolo(Record::new(fen.parse().map_err(|e| format!("{e}"))?)),
        })
    }

    pub fn ply(&self) -> usize {
        both!(self, r => r.ply())
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        both!(self, r => r.position().turn().into())
    }

    pub fn fen(&self) -> String {
        both!(self, r => r.position().to_string())
    }

    pub fn moves(&self) -> Vec<String> {
        both!(self, r => r.moves().iter().map(ToString::to_string).collect())
    }

    pub fn last_move(&self) -> Option<String> {
        both!(self, r => r.moves().last().map(ToString::to_string))
    }

    /// The end shown by the position and its history.
    pub fn outcome(&self) -> Option<Ended> {
        both!(self, r => r.outcome().map(Ended::from))
    }

    /// Plays a move; a refused move changes nothing.
    pub fn play(&mut self, text: &str) -> Result<(), MoveError> {
        both!(self, r => play_on(r, text))
    }

    /// Checks a move without playing it.
    pub fn check(&self, text: &str) -> Result<(), MoveError> {
        both!(self, r => check_on(r, text))
    }

    pub fn undo(&mut self) {
        both!(self, r => drop(r.undo()))
    }

    /// The position and history the AI needs.
    pub fn for_ai(&self) -> (AnyPosition, Vec<u64>) {
        match self {
            Play::Yote(r) => (AnyPosition::Yote(*r.position()), history(r)),
            Play::Nsolo(r) => (AnyPosition::Nsolo(r.position().clone()), history(r)),
        }
    }

    /// A hash of the current position and ply: what a search was asked about.
    pub fn fingerprint(&self) -> (usize, u64) {
        both!(self, r => (r.ply(), r.position().hash()))
    }

    /// Replays `moves` from `fen`; on the first bad move, the record of the
    /// moves before it (boxed: it is large) and why it failed.
    pub fn replay<S: AsRef<str>>(
        kind: GameKind,
        fen: &str,
        moves: &[S],
    ) -> Result<Play, (Option<Box<Play>>, String)> {
        let mut play = Play::start(kind, fen).map_err(|e| (None, e))?;
        for (ply, m) in moves.iter().enumerate() {
            let m = m.as_ref();
            if let Err(e) = play.play(m) {
                return Err((
                    Some(Box::new(play)),
                    format!("stored move {m} at ply {ply}: {e}"),
                ));
            }
        }
        Ok(play)
    }
}
