//! Challenges between accounts: made, then accepted (with the game they
//! started), declined or canceled. A challenge changes state once: each
//! change is conditional on the state it leaves.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Store, now};
use crate::domain::{GameKind, Side};

/// A challenge as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: String,
    pub challenger: i64,
    pub dest: i64,
    pub kind: GameKind,
    pub size: u8,
    pub rated: bool,
    pub time_control: String,
    /// The side the challenger asked for (random if none).
    pub side: Option<Side>,
    pub status: String,
    pub game_id: Option<String>,
}

const COLUMNS: &str =
    "id, challenger_id, dest_id, game, size, rated, time_control, side, status, game_id";

fn challenge(r: &AnyRow) -> sqlx::Result<ChallengeRow> {
    let decode = |e: crate::domain::UnknownWord| sqlx::Error::Decode(e.into());
    let side: Option<String> = r.try_get("side")?;
    Ok(ChallengeRow {
        id: r.try_get("id")?,
        challenger: r.try_get("challenger_id")?,
        dest: r.try_get("dest_id")?,
        kind: r.try_get::<String, _>("game")?.parse().map_err(decode)?,
        size: u8::try_from(r.try_get::<i64, _>("size")?)
            .map_err(|e| sqlx::Error::Decode(e.into()))?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        time_control: r.try_get("time_control")?,
        side: side.map(|s| s.parse()).transpose().map_err(decode)?,
        status: r.try_get("status")?,
        game_id: r.try_get("game_id")?,
    })
}

impl Store {
    /// Stores a new challenge unless its challenger already has `cap`
    /// waiting for an answer; whether it was stored. The count and the
    /// insert are one statement, as for tokens, so racing requests cannot
    /// all take the last place.
    pub async fn create_challenge(&self, c: &ChallengeRow, cap: usize) -> sqlx::Result<bool> {
        let insert = sqlx::query(
            "INSERT INTO challenges (id, challenger_id, dest_id, game, size, rated, \
             time_control, side, status, created_at) \
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 \
             WHERE (SELECT COUNT(*) FROM challenges \
             WHERE challenger_id = $2 AND status = 'created') < $11",
        )
        .bind(&c.id)
        .bind(c.challenger)
        .bind(c.dest)
        .bind(c.kind.as_str())
        .bind(i64::from(c.size))
        .bind(i64::from(c.rated))
        .bind(&c.time_control)
        .bind(c.side.map(Side::as_str))
        .bind(&c.status)
        .bind(now())
        .bind(cap as i64);
        self.insert_for_account(c.challenger, insert).await
    }

    pub async fn challenge(&self, id: &str) -> sqlx::Result<Option<ChallengeRow>> {
        let sql = format!("SELECT {COLUMNS} FROM challenges WHERE id = $1");
        sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(challenge)
            .transpose()
    }

    /// The challenges to or from `account` still waiting for an answer,
    /// or for an accept that failed half-way to be finished.
    pub async fn open_challenges(&self, account: i64) -> sqlx::Result<Vec<ChallengeRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM challenges WHERE status IN ('created', 'accepting') \
             AND (dest_id = $1 OR challenger_id = $1) ORDER BY created_at, id"
        );
        sqlx::query(&sql)
            .bind(account)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(challenge)
            .collect()
    }

    /// Moves a challenge from `from` to `to` (with its game when accepted);
    /// `false` if it was not in `from` any more.
    pub async fn answer_challenge(
        &self,
        id: &str,
        from: &str,
        to: &str,
        game_id: Option<&str>,
    ) -> sqlx::Result<bool> {
        let done = sqlx::query(
            "UPDATE challenges SET status = $1, game_id = COALESCE($2, game_id) \
             WHERE id = $3 AND status = $4",
        )
        .bind(to)
        .bind(game_id)
        .bind(id)
        .bind(from)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
