//! A live game in memory: its stored facts, its record replayed from the
//! store, and what is happening around it (a draw offer, the machine
//! thinking). Every change is stored before it is applied here.

use std::sync::Arc;

use palabre_ai::player::AnyPosition;
use palabre_rules::{GamePosition, Outcome, ParseError, Record, nsolo, yote};
use tokio::sync::broadcast;

use crate::store::GameRow;

/// A game's record, for either game.
#[derive(Debug, Clone)]
pub enum Play {
    Yote(Record<yote::Position>),
    Nsolo(Record<nsolo::Position>),
}

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    Malformed(String),
    Illegal(String),
}

/// An end decided by the players rather than the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    pub winner: Option<String>,
    pub reason: String,
}

/// Parses `text` and checks it against the record without changing it.
fn check_on<P: GamePosition>(record: &Record<P>, text: &str) -> Result<P::Move, MoveError> {
    let m = text
        .parse::<P::Move>()
        .map_err(|e: ParseError| MoveError::Malformed(e.to_string()))?;
    if record.outcome().is_some() {
        return Err(MoveError::Illegal("the game is over".into()));
    }
    record
        .position()
        .clone()
        .play(&m)
        .map_err(|e| MoveError::Illegal(e.to_string()))?;
    Ok(m)
}

fn play_on<P: GamePosition>(record: &mut Record<P>, text: &str) -> Result<(), MoveError> {
    let m = text
        .parse::<P::Move>()
        .map_err(|e: ParseError| MoveError::Malformed(e.to_string()))?;
    record
        .play(&m)
        .map_err(|e| MoveError::Illegal(e.to_string()))
}

fn outcome_of<P: GamePosition>(record: &Record<P>) -> Option<Ended> {
    record.outcome().map(|o| match o {
        Outcome::Win { winner, reason } => Ended {
            winner: Some(winner.to_string()),
            reason: reason.to_string(),
        },
        Outcome::Draw { reason } => Ended {
            winner: None,
            reason: reason.to_string(),
        },
    })
}

fn history<P: GamePosition>(record: &Record<P>) -> Vec<u64> {
    (0..record.ply())
        .filter_map(|i| record.position_at(i))
        .map(P::hash)
        .collect()
}

impl Play {
    pub fn start(game: &str, fen: &str) -> anyhow::Result<Play> {
        Ok(match game {
            "yote" => Play::Yote(Record::new(
                fen.parse().map_err(|e| anyhow::anyhow!("{e}"))?,
            )),
            "nsolo" => Play::Nsolo(Record::new(
                fen.parse().map_err(|e| anyhow::anyhow!("{e}"))?,
            )),
            other => anyhow::bail!("unknown game {other}"),
        })
    }

    pub fn ply(&self) -> usize {
        match self {
            Play::Yote(r) => r.ply(),
            Play::Nsolo(r) => r.ply(),
        }
    }

    /// The side to move, as the API names it.
    pub fn turn(&self) -> String {
        match self {
            Play::Yote(r) => r.position().turn().to_string(),
            Play::Nsolo(r) => r.position().turn().to_string(),
        }
    }

    pub fn fen(&self) -> String {
        match self {
            Play::Yote(r) => r.position().to_string(),
            Play::Nsolo(r) => r.position().to_string(),
        }
    }

    pub fn moves(&self) -> Vec<String> {
        match self {
            Play::Yote(r) => r.moves().iter().map(ToString::to_string).collect(),
            Play::Nsolo(r) => r.moves().iter().map(ToString::to_string).collect(),
        }
    }

    /// The end shown by the position and its history.
    pub fn outcome(&self) -> Option<Ended> {
        match self {
            Play::Yote(r) => outcome_of(r),
            Play::Nsolo(r) => outcome_of(r),
        }
    }

    /// Checks a move without playing it.
    pub fn check(&self, text: &str) -> Result<(), MoveError> {
        match self {
            Play::Yote(r) => check_on(r, text).map(drop),
            Play::Nsolo(r) => check_on(r, text).map(drop),
        }
    }

    /// Plays a move; a refused move changes nothing.
    pub fn play(&mut self, text: &str) -> Result<(), MoveError> {
        match self {
            Play::Yote(r) => play_on(r, text),
            Play::Nsolo(r) => play_on(r, text),
        }
    }

    pub fn undo(&mut self) {
        match self {
            Play::Yote(r) => drop(r.undo()),
            Play::Nsolo(r) => drop(r.undo()),
        }
    }

    /// The position and history the AI needs.
    pub fn for_ai(&self) -> (AnyPosition, Vec<u64>) {
        match self {
            Play::Yote(r) => (AnyPosition::Yote(*r.position()), history(r)),
            Play::Nsolo(r) => (AnyPosition::Nsolo(r.position().clone()), history(r)),
        }
    }
}

/// A live game.
#[derive(Debug)]
pub struct Session {
    pub row: GameRow,
    pub play: Play,
    pub ended: Option<Ended>,
    /// The side that offered a draw (on one screen), until answered.
    pub draw_offer: Option<String>,
    /// The machine declined the last offer.
    pub draw_declined: bool,
    pub thinking: bool,
    /// Stops the machine's current search.
    pub stop: Option<Arc<std::sync::atomic::AtomicBool>>,
    pub events: broadcast::Sender<Arc<str>>,
}

impl Session {
    /// Rebuilds a game from its stored facts and moves.
    pub fn replay(row: GameRow, moves: &[String]) -> anyhow::Result<Session> {
        let mut play = Play::start(&row.game, &row.start_fen)?;
        for (ply, m) in moves.iter().enumerate() {
            play.play(m)
                .map_err(|e| anyhow::anyhow!("stored move {m} at ply {ply}: {e:?}"))?;
        }
        let ended = row.ended_reason.clone().map(|reason| Ended {
            winner: row.ended_winner.clone(),
            reason,
        });
        Ok(Session {
            row,
            play,
            ended,
            draw_offer: None,
            draw_declined: false,
            thinking: false,
            stop: None,
            events: broadcast::channel(64).0,
        })
    }

    /// The end of the game, whether decided by the players or the position.
    pub fn result(&self) -> Option<Ended> {
        self.ended.clone().or_else(|| self.play.outcome())
    }

    /// The machine's side, if it plays in this game.
    pub fn machine_side(&self) -> Option<String> {
        let human = self.row.human.as_deref()?;
        Some(
            match human {
                "red" => "black",
                "black" => "red",
                "south" => "north",
                _ => "south",
            }
            .to_owned(),
        )
    }

    /// Whether the machine should move now.
    pub fn machine_to_move(&self) -> bool {
        self.result().is_none() && self.machine_side().is_some_and(|s| s == self.play.turn())
    }
}
