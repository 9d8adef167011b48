//! SQLite storage: one row a game, one row a move. A move is acknowledged
//! only after its row is committed, so an acknowledged move survives a crash
//! of the process (WAL journal).

use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

/// A game's fixed facts and how it ended if not by the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub game: String,
    pub size: u8,
    pub start_fen: String,
    pub opponent: String,
    pub level: String,
    /// The human's side against the machine; `None` on one screen.
    pub human: Option<String>,
    pub seat_hash: String,
    pub ended_winner: Option<String>,
    pub ended_reason: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Store {
    pool: SqlitePool,
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Opens (or creates) the database file and brings its schema up to date.
    pub async fn open(path: &str) -> anyhow::Result<Store> {
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{path}"))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        Store::migrated(pool).await
    }

    /// A private in-memory database (one connection, so one database).
    pub async fn memory() -> anyhow::Result<Store> {
        let options = SqliteConnectOptions::from_str("sqlite::memory:")?.foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await?;
        Store::migrated(pool).await
    }

    async fn migrated(pool: SqlitePool) -> anyhow::Result<Store> {
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Store { pool })
    }

    pub async fn insert_game(&self, g: &GameRow) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO games (id, game, size, start_fen, opponent, level, human, seat_hash, \
             created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(&g.id)
        .bind(&g.game)
        .bind(i64::from(g.size))
        .bind(&g.start_fen)
        .bind(&g.opponent)
        .bind(&g.level)
        .bind(&g.human)
        .bind(&g.seat_hash)
        .bind(now())
        .bind(now())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records the move played at `ply`; fails if that ply already exists.
    pub async fn append_move(&self, id: &str, ply: usize, notation: &str) -> sqlx::Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO moves (game_id, ply, notation, played_at) VALUES (?, ?, ?, ?)")
            .bind(id)
            .bind(ply as i64)
            .bind(notation)
            .bind(now())
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE games SET updated_at = ? WHERE id = ?")
            .bind(now())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    /// Deletes the moves from `ply` on (a take-back).
    pub async fn truncate_moves(&self, id: &str, ply: usize) -> sqlx::Result<()> {
        sqlx::query("DELETE FROM moves WHERE game_id = ? AND ply >= ?")
            .bind(id)
            .bind(ply as i64)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Records an end the position does not show (resignation, agreement).
    pub async fn set_ended(
        &self,
        id: &str,
        winner: Option<&str>,
        reason: &str,
    ) -> sqlx::Result<()> {
        sqlx::query(
            "UPDATE games SET ended_winner = ?, ended_reason = ?, updated_at = ? WHERE id = ?",
        )
        .bind(winner)
        .bind(reason)
        .bind(now())
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn load(&self, id: &str) -> sqlx::Result<Option<(GameRow, Vec<String>)>> {
        let Some(r) = sqlx::query(
            "SELECT id, game, size, start_fen, opponent, level, human, seat_hash, ended_winner, \
             ended_reason FROM games WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let row = GameRow {
            id: r.get("id"),
            game: r.get("game"),
            size: r.get::<i64, _>("size") as u8,
            start_fen: r.get("start_fen"),
            opponent: r.get("opponent"),
            level: r.get("level"),
            human: r.get("human"),
            seat_hash: r.get("seat_hash"),
            ended_winner: r.get("ended_winner"),
            ended_reason: r.get("ended_reason"),
        };
        let moves = sqlx::query("SELECT notation FROM moves WHERE game_id = ? ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| r.get("notation"))
            .collect();
        Ok(Some((row, moves)))
    }

    /// Games against the machine with no recorded end (the position may
    /// still show one: the session decides).
    pub async fn machine_games_in_progress(&self) -> sqlx::Result<Vec<String>> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE opponent = 'machine' AND ended_reason IS NULL \
             ORDER BY updated_at DESC LIMIT 1000",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.get("id")).collect())
    }

    /// The number of moves stored for a game (for checks and tools).
    pub async fn move_count(&self, id: &str) -> sqlx::Result<i64> {
        sqlx::query("SELECT COUNT(*) AS n FROM moves WHERE game_id = ?")
            .bind(id)
            .fetch_one(&self.pool)
            .await
            .map(|r| r.get("n"))
    }
}
