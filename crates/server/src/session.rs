//! A live game in memory: its stored facts, its record replayed from the
//! store, and what is happening around it (a draw offer, the machine
//! thinking). Every change is stored before it is applied here.

use std::sync::Arc;

use palabre_ai::player::AnyPosition;
use palabre_rules::{GamePosition, Outcome, ParseError, Record, nsolo, yote};
use tokio::sync::broadcast;

use crate::clock::{Clocks, TimeControl};
use crate::store::{GameRow, Member, StoredMove};

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
    /// Online games: the members of each side, in the order they joined.
    pub members: Vec<Member>,
    /// Open live connections per member (`side`, `position`).
    pub presence: std::collections::HashMap<(String, u8), usize>,
    pub clocks: Option<Clocks>,
    /// The timer that ends the game when the running clock reaches zero.
    pub flag_timer: Option<tokio::task::AbortHandle>,
}

/// The two sides of a game, the first mover first.
pub fn sides(game: &str) -> [&'static str; 2] {
    if game == "yote" {
        ["red", "black"]
    } else {
        ["south", "north"]
    }
}

/// Rebuilds the clocks from the start time and the stored moves.
fn restore_clocks(row: &GameRow, moves: &[StoredMove]) -> Option<Clocks> {
    let control: TimeControl = row.time_control.parse().ok()?;
    let mut clocks = Clocks::new(control)?;
    clocks.since = row.started_at_ms;
    for (ply, m) in moves.iter().enumerate() {
        if let (Some(at), Some(left)) = (m.played_at_ms, m.clock_ms) {
            clocks.left[ply % 2] = left;
            clocks.since = Some(at);
            if let TimeControl::Correspondence { per_move_ms } = control {
                clocks.left[1 - ply % 2] = per_move_ms;
            }
        }
    }
    Some(clocks)
}

impl Session {
    /// Rebuilds a game from its stored facts, moves and members.
    pub fn replay(
        row: GameRow,
        moves: &[StoredMove],
        members: Vec<Member>,
    ) -> anyhow::Result<Session> {
        let mut play = Play::start(&row.game, &row.start_fen)?;
        for (ply, m) in moves.iter().enumerate() {
            play.play(&m.notation)
                .map_err(|e| anyhow::anyhow!("stored move {} at ply {ply}: {e:?}", m.notation))?;
        }
        let clocks = restore_clocks(&row, moves);
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
            events: broadcast::channel(256).0,
            members,
            presence: std::collections::HashMap::new(),
            clocks,
            flag_timer: None,
        })
    }

    pub fn is_online(&self) -> bool {
        self.row.opponent == "online"
    }

    /// Members of `side`, in the order they joined.
    pub fn team(&self, side: &str) -> Vec<&Member> {
        self.members.iter().filter(|m| m.side == side).collect()
    }

    /// Whether every place of an online game is taken.
    pub fn is_full(&self) -> bool {
        let sides = sides(&self.row.game);
        sides
            .iter()
            .all(|s| self.team(s).len() >= usize::from(self.row.team_size))
    }

    /// `waiting`, `playing` or `finished`.
    pub fn status(&self) -> &'static str {
        if self.result().is_some() {
            "finished"
        } else if self.is_online() && self.row.started_at_ms.is_none() {
            "waiting"
        } else {
            "playing"
        }
    }

    /// The member whose hand is next: the side to move's k-th move is
    /// played by its member k mod n (sides alternate, so k = ply / 2).
    pub fn next_hand(&self) -> Option<&Member> {
        let team = self.team(&self.play.turn());
        (!team.is_empty()).then(|| team[(self.play.ply() / 2) % team.len()])
    }

    /// The index (0 moves first) of `side`.
    pub fn side_index(&self, side: &str) -> usize {
        usize::from(sides(&self.row.game)[1] == side)
    }

    /// The side whose clock runs, if any.
    pub fn running_clock(&self) -> Option<usize> {
        (self.clocks.is_some() && self.status() == "playing")
            .then(|| self.side_index(&self.play.turn()))
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
