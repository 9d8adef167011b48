//! Ratings as stored: one row per account and pool, the rating after each
//! rated game, and the update made when a rated game ends. The update
//! marks the game rated in the same transaction, so it happens once, and a
//! rating row changes only if it is still the one the update read, so two
//! games ending at once for one player never lose an update.

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

use super::{Store, now};
use crate::domain::{EndReason, GameKind, Side};
use crate::ratings::{Pool, Rating, rate};

/// Tries of an update that found a rating changed under it.
const TRIES: usize = 8;

/// One point of a rating's history.
#[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct RatingPoint {
    pub game_id: String,
    pub at: i64,
    pub rating: f64,
    pub deviation: f64,
    pub diff: f64,
}

/// A line of a leaderboard.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Ranked {
    pub username: String,
    pub bot: bool,
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
}

/// A game's rating change for one side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    pub side: Side,
    pub before: f64,
    pub after: f64,
}

fn rating(r: &AnyRow) -> sqlx::Result<Rating> {
    Ok(Rating {
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
        games: r.try_get("games")?,
        wins: r.try_get("wins")?,
        draws: r.try_get("draws")?,
        losses: r.try_get("losses")?,
    })
}

async fn read_rating(c: &mut AnyConnection, account: i64, pool: Pool) -> sqlx::Result<Rating> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, games, wins, draws, losses FROM ratings \
         WHERE account_id = $1 AND pool = $2",
    )
    .bind(account)
    .bind(pool.as_str())
    .fetch_optional(&mut *c)
    .await?;
    row.as_ref().map_or(Ok(Rating::default()), rating)
}

/// Writes `new` over `old`; `false` if the stored row is no longer `old`.
async fn write_rating(
    c: &mut AnyConnection,
    account: i64,
    pool: Pool,
    old: &Rating,
    new: &Rating,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, games, wins, \
         draws, losses) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
         ON CONFLICT (account_id, pool) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         games = excluded.games, wins = excluded.wins, draws = excluded.draws, \
         losses = excluded.losses WHERE ratings.games = $10",
    )
    .bind(account)
    .bind(pool.as_str())
    .bind(new.rating)
    .bind(new.deviation)
    .bind(new.volatility)
    .bind(new.games)
    .bind(new.wins)
    .bind(new.draws)
    .bind(new.losses)
    .bind(old.games)
    .execute(&mut *c)
    .await?;
    Ok(done.rows_affected() == 1)
}

async fn write_point(
    c: &mut AnyConnection,
    account: i64,
    pool: Pool,
    game: &str,
    old: &Rating,
    new: &Rating,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO rating_history (account_id, pool, game_id, at, rating, deviation, diff, \
         games) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(account)
    .bind(pool.as_str())
    .bind(game)
    .bind(now())
    .bind(new.rating)
    .bind(new.deviation)
    .bind(new.rating - old.rating)
    .bind(new.games)
    .execute(&mut *c)
    .await?;
    Ok(())
}

/// What the update needs to know of a finished rated game.
struct ToRate {
    pool: Pool,
    winner: Option<Side>,
    aborted: bool,
    /// The account of each side, the first mover's first.
    accounts: [Option<i64>; 2],
    sides: [Side; 2],
}

async fn to_rate(c: &mut AnyConnection, id: &str) -> sqlx::Result<Option<ToRate>> {
    let Some(g) = sqlx::query(
        "SELECT game, size, result_winner, result_reason FROM games \
         WHERE id = $1 AND rated = 1 AND rating_done = 0 AND status = 'finished'",
    )
    .bind(id)
    .fetch_optional(&mut *c)
    .await?
    else {
        return Ok(None);
    };
    let decode = |e: crate::domain::UnknownWord| sqlx::Error::Decode(e.into());
    let kind: GameKind = g.try_get::<String, _>("game")?.parse().map_err(decode)?;
    let size: i64 = g.try_get("size")?;
    let winner: Option<String> = g.try_get("result_winner")?;
    let winner = winner
        .map(|w| w.parse::<Side>())
        .transpose()
        .map_err(decode)?;
    let reason: Option<String> = g.try_get("result_reason")?;
    let seats = sqlx::query("SELECT side, account_id FROM seats WHERE game_id = $1")
        .bind(id)
        .fetch_all(&mut *c)
        .await?;
    let sides = kind.sides();
    let mut accounts = [None, None];
    for s in &seats {
        let side: Side = s.try_get::<String, _>("side")?.parse().map_err(decode)?;
        accounts[side.index()] = s.try_get("account_id")?;
    }
    Ok(Some(ToRate {
        pool: Pool::of(kind, u8::try_from(size).unwrap_or(0)),
        winner,
        aborted: reason.as_deref() == Some(EndReason::Aborted.as_str()),
        accounts,
        sides,
    }))
}

impl Store {
    /// Updates the ratings for the result of rated game `id`, once: the
    /// changes made, or none (not rated, not over, rated already, aborted,
    /// or a player's account is gone).
    pub async fn rate_game(&self, id: &str) -> sqlx::Result<Vec<Change>> {
        for _ in 0..TRIES {
            if let Some(changes) = self.try_rate(id).await? {
                return Ok(changes);
            }
        }
        Err(sqlx::Error::Protocol(format!(
            "game {id}: the ratings kept changing during the update"
        )))
    }

    /// One try: `None` when a rating changed under it (nothing written).
    async fn try_rate(&self, id: &str) -> sqlx::Result<Option<Vec<Change>>> {
        let mut tx = self.writer.begin().await?;
        let Some(game) = to_rate(&mut tx, id).await? else {
            return Ok(Some(Vec::new()));
        };
        sqlx::query("UPDATE games SET rating_done = 1 WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let [Some(a), Some(b)] = game.accounts else {
            tx.commit().await?;
            return Ok(Some(Vec::new()));
        };
        if game.aborted {
            tx.commit().await?;
            return Ok(Some(Vec::new()));
        }
        let old = [
            read_rating(&mut tx, a, game.pool).await?,
            read_rating(&mut tx, b, game.pool).await?,
        ];
        let score = match game.winner {
            Some(w) if w == game.sides[0] => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let (na, nb) = rate(&old[0], &old[1], score);
        let new = [na, nb];
        let mut changes = Vec::new();
        for (i, account) in [a, b].into_iter().enumerate() {
            if !write_rating(&mut tx, account, game.pool, &old[i], &new[i]).await? {
                return Ok(None);
            }
            write_point(&mut tx, account, game.pool, id, &old[i], &new[i]).await?;
            changes.push(Change {
                side: game.sides[i],
                before: old[i].rating,
                after: new[i].rating,
            });
        }
        tx.commit().await?;
        Ok(Some(changes))
    }

    /// Finished rated games whose ratings were not updated (a crash
    /// between the end and the update).
    pub async fn unrated(&self, limit: i64) -> sqlx::Result<Vec<String>> {
        sqlx::query_scalar(
            "SELECT id FROM games WHERE rated = 1 AND rating_done = 0 AND status = 'finished' \
             LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await
    }

    /// The account's rating in each pool it has played in.
    pub async fn ratings(&self, account: i64) -> sqlx::Result<Vec<(Pool, Rating)>> {
        let rows = sqlx::query(
            "SELECT pool, rating, deviation, volatility, games, wins, draws, losses \
             FROM ratings WHERE account_id = $1",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::new();
        for r in &rows {
            let pool: String = r.try_get("pool")?;
            if let Ok(pool) = pool.parse() {
                out.push((pool, rating(r)?));
            }
        }
        Ok(out)
    }

    /// The account's rating in `pool` (the starting one if it never played).
    pub async fn rating(&self, account: i64, pool: Pool) -> sqlx::Result<Rating> {
        read_rating(&mut *self.pool.acquire().await?, account, pool).await
    }

    /// The account's rating after each rated game, oldest first.
    pub async fn rating_history(&self, account: i64) -> sqlx::Result<Vec<(Pool, RatingPoint)>> {
        let rows = sqlx::query(
            "SELECT pool, game_id, at, rating, deviation, diff FROM rating_history \
             WHERE account_id = $1 ORDER BY at, games, game_id",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::new();
        for r in &rows {
            let pool: String = r.try_get("pool")?;
            if let Ok(pool) = pool.parse() {
                out.push((
                    pool,
                    RatingPoint {
                        game_id: r.try_get("game_id")?,
                        at: r.try_get("at")?,
                        rating: r.try_get("rating")?,
                        deviation: r.try_get("deviation")?,
                        diff: r.try_get("diff")?,
                    },
                ));
            }
        }
        Ok(out)
    }

    /// The best-rated players of `pool` with at least `min_games` games and
    /// a deviation under `max_deviation`.
    pub async fn leaderboard(
        &self,
        pool: Pool,
        min_games: i64,
        max_deviation: f64,
        limit: i64,
    ) -> sqlx::Result<Vec<Ranked>> {
        let rows = sqlx::query(
            "SELECT a.username, a.bot, r.rating, r.deviation, r.games FROM ratings r \
             JOIN accounts a ON a.id = r.account_id \
             WHERE r.pool = $1 AND r.games >= $2 AND r.deviation < $3 \
             ORDER BY r.rating DESC, a.username_key LIMIT $4",
        )
        .bind(pool.as_str())
        .bind(min_games)
        .bind(max_deviation)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Ranked {
                    username: r.try_get("username")?,
                    bot: r.try_get::<i64, _>("bot")? != 0,
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    games: r.try_get("games")?,
                })
            })
            .collect()
    }
}
