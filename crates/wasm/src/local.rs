//! A game that lives in the browser: against the machine or on one screen.
//!
//! The browser stores its record ([`LocalGame`], JSON in IndexedDB) and the
//! engine's worker is the one owner that changes it: every action replays
//! the record, checks the action against the rules and the game's state,
//! and returns the new record; a refused action changes nothing and says
//! why with the server's own error codes, so the page's messages fit both.

use serde::{Deserialize, Serialize};

use crate::record::AnyRecord;

/// Which game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Yote,
    Nsolo,
}

impl Kind {
    /// The sides, the first to move first.
    pub const fn sides(self) -> [&'static str; 2] {
        match self {
            Kind::Yote => ["red", "black"],
            Kind::Nsolo => ["south", "north"],
        }
    }
}

/// Who plays against the person who started the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    Machine,
    /// Two people on one screen.
    Local,
}

/// How a game ended: the winner's side (none for a draw) and why, in the
/// server's words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ended {
    pub winner: Option<String>,
    pub reason: String,
}

/// A local game's record: everything needed to rebuild it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalGame {
    pub id: String,
    pub game: Kind,
    pub size: u8,
    pub opponent: Opponent,
    /// The machine's level (`debutant` … `expert`); empty on one screen.
    #[serde(default)]
    pub level: String,
    /// The machine's side, against the machine.
    #[serde(default)]
    pub machine: Option<String>,
    /// The start position string.
    pub start: String,
    pub moves: Vec<String>,
    /// An end the position does not show: a resignation or an agreed draw.
    #[serde(default)]
    pub ended: Option<Ended>,
    #[serde(default)]
    pub draw_offer: Option<String>,
    #[serde(default)]
    pub draw_declined: bool,
    /// Seeds the weaker levels' choices.
    #[serde(default)]
    pub seed: u64,
}

/// Why an action was refused, with the server's error code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LocalError {
    pub code: &'static str,
    pub message: String,
}

impl LocalError {
    pub fn new(code: &'static str, message: impl Into<String>) -> LocalError {
        LocalError {
            code,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for LocalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for LocalError {}

/// What starts a new local game.
#[derive(Debug, Clone, Deserialize)]
pub struct NewGame {
    pub id: String,
    pub game: Kind,
    #[serde(default)]
    pub size: Option<u8>,
    pub opponent: Opponent,
    #[serde(default)]
    pub level: Option<String>,
    /// The person's side against the machine: a side's name or `random`.
    #[serde(default)]
    pub side: Option<String>,
    #[serde(default)]
    pub seed: u64,
}

impl LocalGame {
    /// A new game from the start position of its board size.
    pub fn new(spec: &NewGame) -> Result<LocalGame, LocalError> {
        let size = match spec.game {
            Kind::Yote => 5,
            Kind::Nsolo => spec.size.unwrap_or(8),
        };
        let start = match spec.game {
            Kind::Yote => palabre_rules::yote::Position::default().to_string(),
            Kind::Nsolo => palabre_rules::nsolo::Position::start(size)
                .map_err(|e| LocalError::new("bad_request", e.to_string()))?
                .to_string(),
        };
        let sides = spec.game.sides();
        let (level, machine) = match spec.opponent {
            Opponent::Local => (String::new(), None),
            Opponent::Machine => {
                let level = spec.level.clone().unwrap_or_else(|| "debutant".into());
                level
                    .parse::<palabre_ai::Level>()
                    .map_err(|_| LocalError::new("bad_request", format!("no level {level}")))?;
                let human = match spec.side.as_deref() {
                    None | Some("random") => sides[(spec.seed % 2) as usize],
                    Some(s) if sides.contains(&s) => s,
                    Some(s) => {
                        return Err(LocalError::new("bad_request", format!("no side {s}")));
                    }
                };
                let machine = sides.into_iter().find(|s| *s != human).map(str::to_owned);
                (level, machine)
            }
        };
        Ok(LocalGame {
            id: spec.id.clone(),
            game: spec.game,
            size,
            opponent: spec.opponent,
            level,
            machine,
            start,
            moves: Vec::new(),
            ended: None,
            draw_offer: None,
            draw_declined: false,
            seed: spec.seed,
        })
    }

    pub(crate) fn record(&self) -> Result<AnyRecord, LocalError> {
        AnyRecord::replay(self.game, &self.start, &self.moves)
    }

    /// The end: by the people, else by the position.
    pub fn result(&self) -> Result<Option<Ended>, LocalError> {
        if self.ended.is_some() {
            return Ok(self.ended.clone());
        }
        Ok(self
            .record()?
            .outcome()
            .map(|(winner, reason)| Ended { winner, reason }))
    }

    pub fn machine_to_move(&self) -> Result<bool, LocalError> {
        let turn = self.record()?.turn();
        Ok(self.machine.as_deref() == Some(turn.as_str()))
    }

    fn check_playing(&self) -> Result<AnyRecord, LocalError> {
        if self.result()?.is_some() {
            return Err(LocalError::new("game_over", "the game is over"));
        }
        self.record()
    }

    /// The person's move `text`, played at `ply` (a stale ply is refused).
    pub fn play(&mut self, text: &str, ply: usize) -> Result<(), LocalError> {
        let mut record = self.check_playing()?;
        if ply != record.ply() {
            return Err(LocalError::new(
                "stale_ply",
                format!("the game is at ply {}, not {ply}", record.ply()),
            ));
        }
        if self.machine_to_move()? {
            return Err(LocalError::new("not_your_turn", "it is the machine's turn"));
        }
        self.push(&mut record, text)
    }

    /// Plays a move already chosen (the person's, checked, or the machine's).
    pub(crate) fn push(&mut self, record: &mut AnyRecord, text: &str) -> Result<(), LocalError> {
        record.play(text)?;
        self.moves.push(text.to_owned());
        self.draw_offer = None;
        self.draw_declined = false;
        Ok(())
    }

    /// Against the machine: back to the person's previous turn; on one
    /// screen: one move back. A game ended by the position can be taken
    /// back; one ended by the people cannot.
    pub fn take_back(&mut self) -> Result<(), LocalError> {
        if self.ended.is_some() {
            return Err(LocalError::new("game_over", "the game is over"));
        }
        let back = if self.opponent == Opponent::Machine && !self.machine_to_move()? {
            2
        } else {
            1
        };
        let target = self
            .moves
            .len()
            .checked_sub(back)
            .ok_or_else(|| LocalError::new("nothing_to_take_back", "no move to take back"))?;
        self.moves.truncate(target);
        self.draw_offer = None;
        self.draw_declined = false;
        Ok(())
    }

    /// Resigns for `side` on one screen, for the person against the machine.
    pub fn resign(&mut self, side: Option<&str>) -> Result<(), LocalError> {
        let record = self.check_playing()?;
        let sides = self.game.sides();
        let loser = match (self.opponent, side) {
            (Opponent::Local, Some(s)) if sides.contains(&s) => s.to_owned(),
            (Opponent::Local, Some(s)) => {
                return Err(LocalError::new("bad_request", format!("no side {s}")));
            }
            (Opponent::Local, None) => record.turn(),
            (Opponent::Machine, _) => sides
                .into_iter()
                .find(|s| Some(*s) != self.machine.as_deref())
                .unwrap_or(sides[0])
                .to_owned(),
        };
        let winner = sides.into_iter().find(|s| *s != loser).map(str::to_owned);
        self.ended = Some(Ended {
            winner,
            reason: "resignation".into(),
        });
        Ok(())
    }

    /// On one screen: a draw offered by the side to move, then accepted or
    /// declined by anyone. Against the machine, see [`crate::machine`].
    pub fn draw_between_people(&mut self, action: &str) -> Result<(), LocalError> {
        let record = self.check_playing()?;
        match (action, self.draw_offer.is_some()) {
            ("offer", _) => {
                self.draw_offer = Some(record.turn());
                self.draw_declined = false;
            }
            ("accept", true) => self.agree_draw(),
            ("decline", true) => {
                self.draw_offer = None;
                self.draw_declined = true;
            }
            ("accept" | "decline", false) => {
                return Err(LocalError::new("no_draw_offer", "no draw is offered"));
            }
            (other, _) => {
                return Err(LocalError::new(
                    "bad_request",
                    format!("no draw action {other}"),
                ));
            }
        }
        Ok(())
    }

    pub(crate) fn agree_draw(&mut self) {
        self.draw_offer = None;
        self.ended = Some(Ended {
            winner: None,
            reason: "agreement".into(),
        });
    }
}
