//! Time controls and the clocks the server keeps. Times are wall-clock
//! milliseconds since the Unix epoch, so clocks survive a restart: they are
//! rebuilt from the moves' timestamps. No clock runs before the first move:
//! a game nobody has moved in cannot be lost on time.

use std::fmt;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

/// How much time each side has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeControl {
    None,
    /// Minutes for the game, plus seconds after each move.
    Live {
        base_ms: i64,
        increment_ms: i64,
    },
    /// A fixed time for every move.
    Correspondence {
        per_move_ms: i64,
    },
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(s: &str) -> Result<TimeControl, String> {
        const MIN: i64 = 60_000;
        const DAY: i64 = 24 * 60 * MIN;
        Ok(match s {
            "none" => TimeControl::None,
            "5+3" => TimeControl::Live {
                base_ms: 5 * MIN,
                increment_ms: 3_000,
            },
            "10+5" => TimeControl::Live {
                base_ms: 10 * MIN,
                increment_ms: 5_000,
            },
            "1d" => TimeControl::Correspondence { per_move_ms: DAY },
            "3d" => TimeControl::Correspondence {
                per_move_ms: 3 * DAY,
            },
            other => {
                return Err(format!(
                    "time control {other:?} is not none, 5+3, 10+5, 1d or 3d"
                ));
            }
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TimeControl::None => "none",
            TimeControl::Live {
                base_ms: 300_000, ..
            } => "5+3",
            TimeControl::Live { .. } => "10+5",
            TimeControl::Correspondence { per_move_ms } if *per_move_ms <= 86_400_000 => "1d",
            TimeControl::Correspondence { .. } => "3d",
        })
    }
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Both sides' clocks; index 0 is the side that moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocks {
    pub control: TimeControl,
    /// Time left when each side's clock last stopped.
    pub left: [i64; 2],
    /// When the running clock started: `None` until the first move.
    /// Moved later by every credit.
    pub since: Option<i64>,
    /// Time given back to the running clock since it started: outages of
    /// the bus, during which nobody could move. Stored with the game, so a
    /// reload gives it back too; the next move ends it.
    pub credit_ms: i64,
}

/// The side to move ran out of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flagged;

impl Clocks {
    /// Fresh clocks, none running.
    pub fn new(control: TimeControl) -> Option<Clocks> {
        let full = match control {
            TimeControl::None => return None,
            TimeControl::Live { base_ms, .. } => base_ms,
            TimeControl::Correspondence { per_move_ms } => per_move_ms,
        };
        Some(Clocks {
            control,
            left: [full, full],
            since: None,
            credit_ms: 0,
        })
    }

    /// Time left for `side` at `now`, counting the running clock.
    pub fn left_at(&self, side: usize, running: Option<usize>, now: i64) -> i64 {
        match (running, self.since) {
            (Some(r), Some(since)) if r == side => self.left[side] - (now - since),
            _ => self.left[side],
        }
    }

    /// Stops the mover's clock at `now` and starts the other's; returns the
    /// mover's time left, or `Flagged` if it had run out. The first move
    /// costs nothing and earns no increment: its clock never ran.
    pub fn on_move(&mut self, mover: usize, now: i64) -> Result<i64, Flagged> {
        if self.since.is_none() {
            self.since = Some(now);
            return Ok(self.left[mover]);
        }
        let left = self.left_at(mover, Some(mover), now);
        if left <= 0 {
            return Err(Flagged);
        }
        self.left[mover] = match self.control {
            TimeControl::Live { increment_ms, .. } => left + increment_ms,
            TimeControl::Correspondence { per_move_ms } => per_move_ms,
            TimeControl::None => left,
        };
        if let TimeControl::Correspondence { per_move_ms } = self.control {
            self.left[1 - mover] = per_move_ms;
        }
        self.since = Some(now);
        self.credit_ms = 0;
        Ok(self.left[mover])
    }

    /// Gives `ms` back to the running clock, if one runs.
    pub fn credit(&mut self, ms: i64) {
        if let Some(since) = self.since.as_mut() {
            *since += ms;
            self.credit_ms += ms;
        }
    }

    /// When `side`, whose clock runs, runs out.
    pub fn deadline(&self, side: usize) -> Option<i64> {
        self.since.map(|since| since + self.left[side])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_live_clock_adds_its_increment_and_flags_at_zero() {
        let mut c = Clocks::new("5+3".parse().unwrap()).unwrap();
        c.since = Some(0);
        assert_eq!(c.on_move(0, 10_000), Ok(300_000 - 10_000 + 3_000));
        assert_eq!(c.left_at(1, Some(1), 20_000), 300_000 - 10_000);
        assert_eq!(c.deadline(1), Some(10_000 + 300_000));
        assert_eq!(c.on_move(1, 10_000 + 300_000), Err(Flagged));
    }

    #[test]
    fn the_first_move_starts_the_clocks_and_costs_nothing() {
        let mut c = Clocks::new("5+3".parse().unwrap()).unwrap();
        assert_eq!(c.deadline(0), None, "nothing runs before the first move");
        assert_eq!(c.on_move(0, 50_000), Ok(300_000));
        assert_eq!(c.since, Some(50_000));
        assert_eq!(c.deadline(1), Some(350_000));
    }

    #[test]
    fn a_credit_moves_the_deadline_until_the_next_move() {
        let mut c = Clocks::new("5+3".parse().unwrap()).unwrap();
        c.credit(5_000);
        assert_eq!((c.since, c.credit_ms), (None, 0), "no clock runs yet");
        c.since = Some(0);
        c.credit(5_000);
        assert_eq!(c.deadline(0), Some(305_000));
        assert_eq!(c.left_at(0, Some(0), 105_000), 200_000);
        assert_eq!(c.on_move(0, 105_000), Ok(203_000));
        assert_eq!(c.credit_ms, 0, "a move ends the credit");
    }

    #[test]
    fn correspondence_gives_each_move_its_full_time() {
        let mut c = Clocks::new("1d".parse().unwrap()).unwrap();
        c.since = Some(0);
        assert!(c.on_move(0, 80_000_000).is_ok());
        assert_eq!(c.left[1], 86_400_000);
        assert_eq!(c.on_move(1, 80_000_000 + 86_400_001), Err(Flagged));
        assert_eq!("3d".parse::<TimeControl>().unwrap().to_string(), "3d");
        assert!("2h".parse::<TimeControl>().is_err());
    }
}
