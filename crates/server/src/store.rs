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
    /// Members a side may have (online Nsolo teams).
    pub team_size: u8,
    pub time_control: String,
    /// When every place was taken (online games).
    pub started_at_ms: Option<i64>,
    pub rematch_id: Option<String>,
}

/// A member of an online game: `position` is the order of joining.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub side: String,
    pub position: u8,
    pub name: String,
    pub seat_hash: String,
}

/// A stored move with the time it was played and the mover's clock after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMove {
    pub notation: String,
    pub played_at_ms: Option<i64>,
    pub clock_ms: Option<i64>,
}

/// One line of the lobby or the records.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Listing {
    pub id: String,
    pub game: String,
    pub size: u8,
    pub opponent: String,
    pub time_control: String,
    pub team_size: u8,
    pub started: bool,
    pub result_winner: Option<String>,
    pub result_reason: Option<String>,
    pub moves: i64,
    pub updated_at: i64,
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
             team_size, time_control, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(&g.id)
        .bind(&g.game)
        .bind(i64::from(g.size))
        .bind(&g.start_fen)
        .bind(&g.opponent)
        .bind(&g.level)
        .bind(&g.human)
        .bind(&g.seat_hash)
        .bind(i64::from(g.team_size))
        .bind(&g.time_control)
        .bind(now())
        .bind(now())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn add_seat(&self, id: &str, m: &Member) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO seats (game_id, side, position, name, seat_hash) VALUES (?, ?, ?, ?, ?)",
        )
        .bind(id)
        .bind(&m.side)
        .bind(i64::from(m.position))
        .bind(&m.name)
        .bind(&m.seat_hash)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn seats(&self, id: &str) -> sqlx::Result<Vec<Member>> {
        let rows = sqlx::query("SELECT side, position, name, seat_hash FROM seats WHERE game_id = ? ORDER BY side, position")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| Member {
                side: r.get("side"),
                position: r.get::<i64, _>("position") as u8,
                name: r.get("name"),
                seat_hash: r.get("seat_hash"),
            })
            .collect())
    }

    pub async fn set_started(&self, id: &str, at_ms: i64) -> sqlx::Result<()> {
        sqlx::query("UPDATE games SET started_at_ms = ? WHERE id = ?")
            .bind(at_ms)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn set_rematch(&self, id: &str, rematch: &str) -> sqlx::Result<()> {
        sqlx::query("UPDATE games SET rematch_id = ? WHERE id = ?")
            .bind(rematch)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Keeps the final result for the records (`None` clears it after a take-back).
    pub async fn set_result(
        &self,
        id: &str,
        result: Option<(Option<&str>, &str)>,
    ) -> sqlx::Result<()> {
        let (winner, reason) = result.map_or((None, None), |(w, r)| (w, Some(r)));
        sqlx::query(
            "UPDATE games SET result_winner = ?, result_reason = ?, finished_at = ? WHERE id = ?",
        )
        .bind(winner)
        .bind(reason)
        .bind(reason.map(|_| now()))
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Online games still going on (waiting or playing), newest first.
    pub async fn lobby(&self) -> sqlx::Result<Vec<Listing>> {
        self.listings(
            "WHERE g.opponent = 'online' AND g.result_reason IS NULL AND g.ended_reason IS NULL",
            "g.created_at",
            200,
        )
        .await
    }

    /// Finished games, newest first.
    pub async fn records(&self) -> sqlx::Result<Vec<Listing>> {
        self.listings("WHERE g.result_reason IS NOT NULL", "g.finished_at", 200)
            .await
    }

    async fn listings(&self, filter: &str, order: &str, limit: i64) -> sqlx::Result<Vec<Listing>> {
        let sql = format!(
            "SELECT g.id, g.game, g.size, g.opponent, g.time_control, g.team_size, g.started_at_ms, \
             g.result_winner, g.result_reason, COALESCE(g.finished_at, g.updated_at) AS updated_at, \
             (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS moves \
             FROM games g {filter} ORDER BY {order} DESC LIMIT ?"
        );
        let rows = sqlx::query(&sql).bind(limit).fetch_all(&self.pool).await?;
        Ok(rows
            .iter()
            .map(|r| Listing {
                id: r.get("id"),
                game: r.get("game"),
                size: r.get::<i64, _>("size") as u8,
                opponent: r.get("opponent"),
                time_control: r.get("time_control"),
                team_size: r.get::<i64, _>("team_size") as u8,
                started: r.get::<Option<i64>, _>("started_at_ms").is_some(),
                result_winner: r.get("result_winner"),
                result_reason: r.get("result_reason"),
                moves: r.get("moves"),
                updated_at: r.get("updated_at"),
            })
            .collect())
    }

    /// Records the move played at `ply` (with the mover's clock after it);
    /// fails if that ply already exists.
    pub async fn append_move(
        &self,
        id: &str,
        ply: usize,
        notation: &str,
        clock_ms: Option<i64>,
    ) -> sqlx::Result<()> {
        // One statement, so one round trip and atomic on its own.
        sqlx::query(
            "INSERT INTO moves (game_id, ply, notation, played_at, played_at_ms, clock_ms) \
             VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(id)
        .bind(ply as i64)
        .bind(notation)
        .bind(now())
        .bind(crate::clock::now_ms())
        .bind(clock_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
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

    pub async fn load(&self, id: &str) -> sqlx::Result<Option<(GameRow, Vec<StoredMove>)>> {
        let Some(r) = sqlx::query(
            "SELECT id, game, size, start_fen, opponent, level, human, seat_hash, ended_winner, \
             ended_reason, team_size, time_control, started_at_ms, rematch_id FROM games WHERE id = ?",
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
            team_size: r.get::<i64, _>("team_size") as u8,
            time_control: r.get("time_control"),
            started_at_ms: r.get("started_at_ms"),
            rematch_id: r.get("rematch_id"),
        };
        let moves = sqlx::query(
            "SELECT notation, played_at_ms, clock_ms FROM moves WHERE game_id = ? ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| StoredMove {
            notation: r.get("notation"),
            played_at_ms: r.get("played_at_ms"),
            clock_ms: r.get("clock_ms"),
        })
        .collect();
        Ok(Some((row, moves)))
    }

    /// Games against the machine with no recorded end (the position may
    /// still show one: the session decides).
    pub async fn machine_games_in_progress(&self) -> sqlx::Result<Vec<String>> {
        self.ids("WHERE opponent = 'machine' AND ended_reason IS NULL")
            .await
    }

    /// Online games that started and have not ended (their clocks need timers).
    pub async fn online_games_playing(&self) -> sqlx::Result<Vec<String>> {
        self.ids("WHERE opponent = 'online' AND started_at_ms IS NOT NULL AND result_reason IS NULL AND ended_reason IS NULL")
            .await
    }

    async fn ids(&self, filter: &str) -> sqlx::Result<Vec<String>> {
        let sql = format!("SELECT id FROM games {filter} ORDER BY updated_at DESC LIMIT 1000");
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
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
