//! A local game's record of either game, replayed from its start position
//! and moves, with the few operations the browser needs written once.

use palabre_ai::player::AnyPosition;
use palabre_rules::{GamePosition, Record, nsolo, yote};

use crate::local::{Kind, LocalError};

#[derive(Debug, Clone)]
pub(crate) enum AnyRecord {
    Yote(Record<yote::Position>),
    Nsolo(Record<nsolo::Position>),
}

/// Runs `$e` with `$r` bound to the record, whichever game it is.
macro_rules! both {
    ($self:expr, $r:ident => $e:expr) => {
        match $self {
            AnyRecord::Yote($r) => $e,
            AnyRecord::Nsolo($r) => $e,
        }
    };
}
pub(crate) use both;

fn replay<P: GamePosition>(start: &str, moves: &[String]) -> Result<Record<P>, LocalError> {
    let start = P::from_position_string(start)
        .map_err(|e| LocalError::new("bad_request", format!("start position: {e}")))?;
    Record::replay(start, moves).map_err(|e| LocalError::new("damaged", e.to_string()))
}

fn play_on<P: GamePosition>(record: &mut Record<P>, text: &str) -> Result<(), LocalError> {
    let m: P::Move = text
        .parse()
        .map_err(|e| LocalError::new("malformed_move", format!("{e}")))?;
    record
        .play(&m)
        .map_err(|e| LocalError::new("illegal_move", e.to_string()))
}

fn history<P: GamePosition>(record: &Record<P>) -> Vec<u64> {
    (0..record.ply())
        .filter_map(|i| record.position_at(i))
        .map(P::hash)
        .collect()
}

impl AnyRecord {
    pub(crate) fn replay(
        kind: Kind,
        start: &str,
        moves: &[String],
    ) -> Result<AnyRecord, LocalError> {
        Ok(match kind {
            Kind::Yote => AnyRecord::Yote(replay(start, moves)?),
            Kind::Nsolo => AnyRecord::Nsolo(replay(start, moves)?),
        })
    }

    pub(crate) fn play(&mut self, text: &str) -> Result<(), LocalError> {
        both!(self, r => play_on(r, text))
    }

    pub(crate) fn ply(&self) -> usize {
        both!(self, r => r.ply())
    }

    pub(crate) fn turn(&self) -> String {
        both!(self, r => r.position().turn().to_string())
    }

    /// The end the position and its history show: winner (if any) and why.
    pub(crate) fn outcome(&self) -> Option<(Option<String>, String)> {
        both!(self, r => r.outcome().map(|o| match o {
            palabre_rules::Outcome::Win { winner, reason } => (Some(winner.to_string()), reason.to_string()),
            palabre_rules::Outcome::Draw { reason } => (None, reason.to_string()),
        }))
    }

    /// The position and history the AI needs.
    pub(crate) fn for_ai(&self) -> (AnyPosition, Vec<u64>) {
        match self {
            AnyRecord::Yote(r) => (AnyPosition::Yote(*r.position()), history(r)),
            AnyRecord::Nsolo(r) => (AnyPosition::Nsolo(r.position().clone()), history(r)),
        }
    }
}
