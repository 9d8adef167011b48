//! The four levels and how each one plays.
//!
//! The weaker levels score every root move at a shallow depth and choose
//! among the good ones with seeded noise, sometimes overlooking a capture, so
//! they play like a person rather than at random. Confirmé searches to a
//! fixed depth; Expert uses its whole time budget.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Which game a level plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    Yote,
    Nsolo,
}

/// A playing strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    Debutant,
    Intermediaire,
    Confirme,
    Expert,
}

/// How a level searches and chooses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// Deepest iteration; `None` for as deep as time allows.
    pub depth: Option<u32>,
    /// Time budget, before any cap from the request.
    pub movetime: Duration,
    /// Score every root move and choose with noise of this scale (in
    /// hundredths of a ball or stone); 0 plays the best move.
    pub temperature: i32,
    /// Chance of overlooking every capture in a position that has one.
    pub miss_capture: f64,
    /// Resolve captures at the horizon.
    pub quiescence: bool,
}

impl Level {
    pub const ALL: [Level; 4] = [
        Level::Debutant,
        Level::Intermediaire,
        Level::Confirme,
        Level::Expert,
    ];

    /// The name shown to players.
    pub const fn label_fr(self) -> &'static str {
        match self {
            Level::Debutant => "Débutant",
            Level::Intermediaire => "Intermédiaire",
            Level::Confirme => "Confirmé",
            Level::Expert => "Expert",
        }
    }

    pub const fn label_en(self) -> &'static str {
        match self {
            Level::Debutant => "Beginner",
            Level::Intermediaire => "Intermediate",
            Level::Confirme => "Advanced",
            Level::Expert => "Expert",
        }
    }

    /// How this level plays `game`, with Expert's budget given. Depths
    /// differ by game so that each level stays clearly above the one below.
    pub fn style(self, game: GameKind, expert_budget: Duration) -> Style {
        let nsolo = game == GameKind::Nsolo;
        match self {
            Level::Debutant => Style {
                depth: Some(1),
                movetime: Duration::from_millis(500),
                temperature: 45,
                miss_capture: 0.3,
                quiescence: false,
            },
            Level::Intermediaire => Style {
                depth: Some(2),
                movetime: Duration::from_millis(800),
                temperature: 25,
                miss_capture: 0.12,
                quiescence: true,
            },
            Level::Confirme => Style {
                depth: Some(if nsolo { 5 } else { 4 }),
                movetime: Duration::from_millis(1000),
                temperature: 0,
                miss_capture: 0.0,
                quiescence: true,
            },
            Level::Expert => Style {
                depth: None,
                movetime: expert_budget,
                temperature: 0,
                miss_capture: 0.0,
                quiescence: true,
            },
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Debutant => "debutant",
            Level::Intermediaire => "intermediaire",
            Level::Confirme => "confirme",
            Level::Expert => "expert",
        })
    }
}

/// An unknown level name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown level {:?} (debutant, intermediaire, confirme, expert)",
            self.0
        )
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.to_string() == s)
            .ok_or_else(|| UnknownLevel(s.to_owned()))
    }
}
