//! Ratings: Glicko-2 through the `skillratings` crate, with its default
//! parameters (1500, deviation 350, volatility 0.06, τ 0.5). Each rated
//! game is one rating period for both players. There are three pools:
//! Yoté, Nsolo on 4×8, and Nsolo on larger boards.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use crate::domain::{GameKind, UnknownWord};

/// Where a rating counts.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Pool {
    Yote,
    Nsolo8,
    Nsolo,
}

impl Pool {
    pub const ALL: [Pool; 3] = [Pool::Yote, Pool::Nsolo8, Pool::Nsolo];

    pub const fn as_str(self) -> &'static str {
        match self {
            Pool::Yote => "yote",
            Pool::Nsolo8 => "nsolo8",
            Pool::Nsolo => "nsolo",
        }
    }

    /// The pool of a game of `kind` on a board `size` pits long.
    pub fn of(kind: GameKind, size: u8) -> Pool {
        match (kind, size) {
            (GameKind::Yote, _) => Pool::Yote,
            (GameKind::Nsolo, 8) => Pool::Nsolo8,
            (GameKind::Nsolo, _) => Pool::Nsolo,
        }
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Pool {
    type Err = UnknownWord;

    fn from_str(s: &str) -> Result<Pool, UnknownWord> {
        Pool::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| UnknownWord {
                what: "pool",
                value: s.to_owned(),
                expected: &["yote", "nsolo8", "nsolo"],
            })
    }
}

/// A player's standing in one pool.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    #[serde(skip)]
    pub wins: i64,
    #[serde(skip)]
    pub draws: i64,
    #[serde(skip)]
    pub losses: i64,
}

impl Default for Rating {
    /// A player who has not played in the pool.
    fn default() -> Rating {
        let start = Glicko2Rating::new();
        Rating {
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
        }
    }
}

impl Rating {
    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// This rating after a game scored `score` (1 a win, ½ a draw, 0 a loss).
    fn after(&self, new: Glicko2Rating, score: f64) -> Rating {
        Rating {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
            games: self.games + 1,
            wins: self.wins + i64::from(score > 0.75),
            draws: self.draws + i64::from((0.25..=0.75).contains(&score)),
            losses: self.losses + i64::from(score < 0.25),
        }
    }
}

/// A rating in every pool: the stored ones, the starting one elsewhere.
pub fn every_pool(stored: &[(Pool, Rating)]) -> BTreeMap<Pool, Rating> {
    Pool::ALL
        .into_iter()
        .map(|pool| {
            let found = stored.iter().find(|(p, _)| *p == pool);
            (pool, found.map_or_else(Rating::default, |(_, r)| *r))
        })
        .collect()
}

/// The two ratings after one game between `first` and `second`, where
/// `first` scored `score`: one Glicko-2 rating period for each.
pub fn rate(first: &Rating, second: &Rating, score: f64) -> (Rating, Rating) {
    let outcome = if score > 0.75 {
        Outcomes::WIN
    } else if score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (a, b) = glicko2(
        &first.glicko(),
        &second.glicko(),
        &outcome,
        &Glicko2Config::new(),
    );
    (first.after(a, score), second.after(b, 1.0 - score))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_follow_the_game_and_the_board() {
        assert_eq!(Pool::of(GameKind::Yote, 5), Pool::Yote);
        assert_eq!(Pool::of(GameKind::Nsolo, 8), Pool::Nsolo8);
        assert_eq!(Pool::of(GameKind::Nsolo, 12), Pool::Nsolo);
        assert_eq!("nsolo8".parse::<Pool>(), Ok(Pool::Nsolo8));
        assert!("chess".parse::<Pool>().is_err());
    }

    #[test]
    fn results_are_counted_for_both() {
        let (a, b) = rate(&Rating::default(), &Rating::default(), 0.5);
        assert_eq!((a.wins, a.draws, a.losses, a.games), (0, 1, 0, 1));
        assert_eq!((b.wins, b.draws, b.losses), (0, 1, 0));
        assert!((a.rating - 1500.0).abs() < 1e-9 && a.deviation < 350.0);
    }
}
