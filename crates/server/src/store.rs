//! SQLite storage: one row a game, one row a move, one row a seat. Every
//! change that writes more than one row runs in one transaction, and a move
//! is acknowledged only after its transaction commits (WAL journal), so an
//! acknowledged move survives a crash of the process. Only a game's owner
//! ([`crate::game`]) calls the writing functions.

use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use palabre_ai::Level;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{QueryBuilder, Row, Sqlite, SqliteConnection, SqlitePool};

use crate::clock::TimeControl;
use crate::domain::{EndReason, Ended, GameKind, Opponent, Side, Status};

/// A game's fixed facts, and how it ended if the people (or the clock) ended it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub kind: GameKind,
    pub size: u8,
    pub start_fen: String,
    pub opponent: Opponent,
    pub level: Level,
    /// The human's side against the machine.
    pub human: Option<Side>,
    /// The seat of a game against the machine or on one screen.
    pub seat_hash: String,
    /// An end the position does not show (resignation, agreement, timeout, abort).
    pub ended: Option<Ended>,
    /// Members a side may have (online Nsolo teams).
    pub team_size: u8,
    pub time_control: TimeControl,
    /// When play began (online games: when the places were taken).
    pub started_at_ms: Option<i64>,
    pub rematch_id: Option<String>,
    /// Why the stored moves do not replay, if they do not.
    pub damaged: Option<String>,
}

/// A member of an online game: `position` is the order of joining.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub side: Side,
    pub position: u8,
    pub name: String,
    pub seat_hash: String,
}

/// A stored move with the time it was played and the mover's clock after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMove {
    pub ply: usize,
    pub notation: String,
    pub played_at_ms: Option<i64>,
    pub clock_ms: Option<i64>,
}

/// What the games row tells the lists and the timers; written with every
/// change, in the change's transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub status: Status,
    pub ply: usize,
    pub result: Option<Ended>,
    pub machine_due: bool,
    pub deadline_ms: Option<i64>,
}

/// One line of the lobby or the records.
#[derive(Debug, Clone)]
pub struct Listing {
    pub id: String,
    pub kind: GameKind,
    pub size: u8,
    pub opponent: Opponent,
    pub human: Option<Side>,
    pub time_control: TimeControl,
    pub team_size: u8,
    pub status: Status,
    pub result: Option<Ended>,
    pub ply: usize,
    pub finished_at: Option<i64>,
    pub members: Vec<Member>,
}

/// Reads go through a pool of connections; writes through one connection
/// of their own, so that writers never queue in SQLite's busy handler
/// (WAL lets the readers go on meanwhile).
#[derive(Debug, Clone)]
pub struct Store {
    pool: SqlitePool,
    writer: SqlitePool,
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Parses a stored word; a word the server does not know is a decoding error.
fn word<T: FromStr>(row: &SqliteRow, column: &str) -> sqlx::Result<T>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let text: String = row.try_get(column)?;
    text.parse()
        .map_err(|e: T::Err| sqlx::Error::Decode(e.into()))
}

fn optional_word<T: FromStr>(row: &SqliteRow, column: &str) -> sqlx::Result<Option<T>>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let text: Option<String> = row.try_get(column)?;
    text.map(|t| t.parse().map_err(|e: T::Err| sqlx::Error::Decode(e.into())))
        .transpose()
}

fn ended_from(row: &SqliteRow, winner: &str, reason: &str) -> sqlx::Result<Option<Ended>> {
    let reason: Option<EndReason> = optional_word(row, reason)?;
    let winner: Option<Side> = optional_word(row, winner)?;
    Ok(reason.map(|reason| Ended { winner, reason }))
}

fn time_control(row: &SqliteRow) -> sqlx::Result<TimeControl> {
    let text: String = row.try_get("time_control")?;
    text.parse()
        .map_err(|e: String| sqlx::Error::Decode(e.into()))
}

fn member(r: &SqliteRow) -> sqlx::Result<Member> {
    Ok(Member {
        side: word(r, "side")?,
        position: r.try_get::<i64, _>("position")? as u8,
        name: r.try_get("name")?,
        seat_hash: r.try_get("seat_hash")?,
    })
}

const LIST_COLUMNS: &str = "id, game, size, opponent, human, time_control, team_size, status, \
    ply, result_winner, result_reason, finished_at";

const GAME_COLUMNS: &str = "id, game, size, start_fen, opponent, level, human, seat_hash, \
    ended_winner, ended_reason, team_size, time_control, started_at_ms, rematch_id, damaged";

fn game_row(r: &SqliteRow) -> sqlx::Result<GameRow> {
    Ok(GameRow {
        id: r.try_get("id")?,
        kind: word(r, "game")?,
        size: r.try_get::<i64, _>("size")? as u8,
        start_fen: r.try_get("start_fen")?,
        opponent: word(r, "opponent")?,
        level: word(r, "level")?,
        human: optional_word(r, "human")?,
        seat_hash: r.try_get("seat_hash")?,
        ended: ended_from(r, "ended_winner", "ended_reason")?,
        team_size: r.try_get::<i64, _>("team_size")? as u8,
        time_control: time_control(r)?,
        started_at_ms: r.try_get("started_at_ms")?,
        rematch_id: r.try_get("rematch_id")?,
        damaged: r.try_get("damaged")?,
    })
}

async fn insert_game(c: &mut SqliteConnection, g: &GameRow, s: &Summary) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO games (id, game, size, start_fen, opponent, level, human, seat_hash, \
         team_size, time_control, started_at_ms, created_at, updated_at, status, ply, machine_due, \
         deadline_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&g.id)
    .bind(g.kind.as_str())
    .bind(i64::from(g.size))
    .bind(&g.start_fen)
    .bind(g.opponent.as_str())
    .bind(g.level.to_string())
    .bind(g.human.map(Side::as_str))
    .bind(&g.seat_hash)
    .bind(i64::from(g.team_size))
    .bind(g.time_control.to_string())
    .bind(g.started_at_ms)
    .bind(now())
    .bind(now())
    .bind(s.status.as_str())
    .bind(s.ply as i64)
    .bind(s.machine_due)
    .bind(s.deadline_ms)
    .execute(c)
    .await?;
    Ok(())
}

async fn insert_member(c: &mut SqliteConnection, id: &str, m: &Member) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO seats (game_id, side, position, name, seat_hash) VALUES (?, ?, ?, ?, ?)",
    )
    .bind(id)
    .bind(m.side.as_str())
    .bind(i64::from(m.position))
    .bind(&m.name)
    .bind(&m.seat_hash)
    .execute(c)
    .await?;
    Ok(())
}

/// Writes the summary; `finished_at` keeps the first time a result appeared.
async fn write_summary(c: &mut SqliteConnection, id: &str, s: &Summary) -> sqlx::Result<()> {
    let winner = s.result.and_then(|r| r.winner).map(Side::as_str);
    let reason = s.result.map(|r| r.reason.as_str());
    sqlx::query(
        "UPDATE games SET status = ?, ply = ?, result_winner = ?, result_reason = ?, \
         finished_at = CASE WHEN ? IS NULL THEN NULL ELSE COALESCE(finished_at, ?) END, \
         machine_due = ?, deadline_ms = ?, updated_at = ? WHERE id = ?",
    )
    .bind(s.status.as_str())
    .bind(s.ply as i64)
    .bind(winner)
    .bind(reason)
    .bind(reason)
    .bind(now())
    .bind(s.machine_due)
    .bind(s.deadline_ms)
    .bind(now())
    .bind(id)
    .execute(c)
    .await?;
    Ok(())
}

impl Store {
    /// Opens (or creates) the database file and brings its schema up to date.
    pub async fn open(path: &str) -> anyhow::Result<Store> {
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{path}"))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(std::time::Duration::from_secs(5))
            .foreign_keys(true);
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await?;
        sqlx::migrate!("./migrations").run(&writer).await?;
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        Ok(Store { pool, writer })
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
        Ok(Store {
            writer: pool.clone(),
            pool,
        })
    }

    /// Closes the connections (a clean checkpoint of the journal).
    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }

    /// The raw pool, for tools and tests that inspect the database.
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// A new game and its first member, together.
    pub async fn create(
        &self,
        g: &GameRow,
        first: Option<&Member>,
        s: &Summary,
    ) -> sqlx::Result<()> {
        let mut tx = self.writer.begin().await?;
        insert_game(&mut tx, g, s).await?;
        if let Some(m) = first {
            insert_member(&mut tx, &g.id, m).await?;
        }
        tx.commit().await
    }

    /// A rematch of `old`: the new game, its first member and the link, together.
    pub async fn create_rematch(
        &self,
        old: &str,
        g: &GameRow,
        first: &Member,
        s: &Summary,
    ) -> sqlx::Result<()> {
        let mut tx = self.writer.begin().await?;
        insert_game(&mut tx, g, s).await?;
        insert_member(&mut tx, &g.id, first).await?;
        sqlx::query("UPDATE games SET rematch_id = ? WHERE id = ?")
            .bind(&g.id)
            .bind(old)
            .execute(&mut *tx)
            .await?;
        tx.commit().await
    }

    /// Records the move played at `ply` (with the mover's clock after it)
    /// and the game's summary after it (copied to the games row by a
    /// trigger, in the same statement); fails, changing nothing, if that ply
    /// already exists.
    pub async fn append_move(
        &self,
        id: &str,
        ply: usize,
        notation: &str,
        clock_ms: Option<i64>,
        s: &Summary,
    ) -> sqlx::Result<()> {
        debug_assert_eq!(s.ply, ply + 1);
        sqlx::query(
            "INSERT INTO moves (game_id, ply, notation, played_at, played_at_ms, clock_ms, \
             status, result_winner, result_reason, machine_due, deadline_ms) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(id)
        .bind(ply as i64)
        .bind(notation)
        .bind(now())
        .bind(crate::clock::now_ms())
        .bind(clock_ms)
        .bind(s.status.as_str())
        .bind(s.result.and_then(|r| r.winner).map(Side::as_str))
        .bind(s.result.map(|r| r.reason.as_str()))
        .bind(s.machine_due)
        .bind(s.deadline_ms)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Deletes the moves from `ply` on (a take-back).
    pub async fn take_back(&self, id: &str, ply: usize, s: &Summary) -> sqlx::Result<()> {
        let mut tx = self.writer.begin().await?;
        sqlx::query("DELETE FROM moves WHERE game_id = ? AND ply >= ?")
            .bind(id)
            .bind(ply as i64)
            .execute(&mut *tx)
            .await?;
        write_summary(&mut tx, id, s).await?;
        tx.commit().await
    }

    /// Records an end the position does not show, with the summary.
    pub async fn end(&self, id: &str, ended: &Ended, s: &Summary) -> sqlx::Result<()> {
        let mut tx = self.writer.begin().await?;
        sqlx::query("UPDATE games SET ended_winner = ?, ended_reason = ? WHERE id = ?")
            .bind(ended.winner.map(Side::as_str))
            .bind(ended.reason.as_str())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        write_summary(&mut tx, id, s).await?;
        tx.commit().await
    }

    /// A new member; `started_at_ms` when their arrival starts the game.
    pub async fn join(
        &self,
        id: &str,
        m: &Member,
        started_at_ms: Option<i64>,
        s: &Summary,
    ) -> sqlx::Result<()> {
        let mut tx = self.writer.begin().await?;
        insert_member(&mut tx, id, m).await?;
        if let Some(at) = started_at_ms {
            set_started(&mut tx, id, at).await?;
        }
        write_summary(&mut tx, id, s).await?;
        tx.commit().await
    }

    /// Starts a game whose teams are not full.
    pub async fn start(&self, id: &str, at_ms: i64, s: &Summary) -> sqlx::Result<()> {
        let mut tx = self.writer.begin().await?;
        set_started(&mut tx, id, at_ms).await?;
        write_summary(&mut tx, id, s).await?;
        tx.commit().await
    }

    /// Quarantines a game whose moves do not replay.
    pub async fn mark_damaged(&self, id: &str, why: &str) -> sqlx::Result<()> {
        sqlx::query(
            "UPDATE games SET status = 'damaged', damaged = ?, machine_due = 0, \
             deadline_ms = NULL WHERE id = ?",
        )
        .bind(why)
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// A game with its moves and members.
    pub async fn load(
        &self,
        id: &str,
    ) -> sqlx::Result<Option<(GameRow, Vec<StoredMove>, Vec<Member>)>> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?");
        let Some(r) = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let row = game_row(&r)?;
        let moves = sqlx::query(
            "SELECT ply, notation, played_at_ms, clock_ms FROM moves WHERE game_id = ? ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(StoredMove {
                ply: r.try_get::<i64, _>("ply")? as usize,
                notation: r.try_get("notation")?,
                played_at_ms: r.try_get("played_at_ms")?,
                clock_ms: r.try_get("clock_ms")?,
            })
        })
        .collect::<sqlx::Result<_>>()?;
        Ok(Some((row, moves, self.seats(id).await?)))
    }

    pub async fn seats(&self, id: &str) -> sqlx::Result<Vec<Member>> {
        sqlx::query(
            "SELECT side, position, name, seat_hash FROM seats WHERE game_id = ? \
             ORDER BY side, position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(member)
        .collect()
    }

    /// Online games waiting for players or being played, newest first. One
    /// scan of the `games_open` index per status, each stopping at `limit`.
    pub async fn lobby(&self, limit: i64) -> sqlx::Result<Vec<Listing>> {
        let newest = |status: &str| {
            format!(
                "SELECT * FROM (SELECT {LIST_COLUMNS}, created_at FROM games \
                 WHERE opponent = 'online' AND status = '{status}' \
                 ORDER BY created_at DESC LIMIT ?1)"
            )
        };
        let sql = format!(
            "{} UNION ALL {} ORDER BY created_at DESC, id LIMIT ?1",
            newest("waiting"),
            newest("playing")
        );
        self.listed(&sql, limit).await
    }

    /// Finished games, the most recently finished first.
    pub async fn records(&self, limit: i64) -> sqlx::Result<Vec<Listing>> {
        self.listings(
            "WHERE status = 'finished' ORDER BY finished_at DESC, id",
            limit,
        )
        .await
    }

    async fn listings(&self, filter: &str, limit: i64) -> sqlx::Result<Vec<Listing>> {
        self.listed(
            &format!("SELECT {LIST_COLUMNS} FROM games {filter} LIMIT ?1"),
            limit,
        )
        .await
    }

    async fn listed(&self, sql: &str, limit: i64) -> sqlx::Result<Vec<Listing>> {
        let rows = sqlx::query(sql).bind(limit).fetch_all(&self.pool).await?;
        let mut list = rows
            .iter()
            .map(|r| {
                Ok(Listing {
                    id: r.try_get("id")?,
                    kind: word(r, "game")?,
                    size: r.try_get::<i64, _>("size")? as u8,
                    opponent: word(r, "opponent")?,
                    human: optional_word(r, "human")?,
                    time_control: time_control(r)?,
                    team_size: r.try_get::<i64, _>("team_size")? as u8,
                    status: word(r, "status")?,
                    result: ended_from(r, "result_winner", "result_reason")?,
                    ply: r.try_get::<i64, _>("ply")? as usize,
                    finished_at: r.try_get("finished_at")?,
                    members: Vec::new(),
                })
            })
            .collect::<sqlx::Result<Vec<Listing>>>()?;
        let online: Vec<&str> = list
            .iter()
            .filter(|l| l.opponent == Opponent::Online)
            .map(|l| l.id.as_str())
            .collect();
        if online.is_empty() {
            return Ok(list);
        }
        let mut q: QueryBuilder<Sqlite> = QueryBuilder::new(
            "SELECT game_id, side, position, name, seat_hash FROM seats WHERE game_id IN (",
        );
        let mut ids = q.separated(", ");
        for id in online {
            ids.push_bind(id.to_owned());
        }
        q.push(") ORDER BY game_id, side, position");
        for r in q.build().fetch_all(&self.pool).await? {
            let id: String = r.try_get("game_id")?;
            if let Some(l) = list.iter_mut().find(|l| l.id == id) {
                l.members.push(member(&r)?);
            }
        }
        Ok(list)
    }

    /// Games whose running clock has fallen by `now_ms`.
    pub async fn fallen_flags(&self, now_ms: i64, limit: i64) -> sqlx::Result<Vec<String>> {
        sqlx::query_scalar(
            "SELECT id FROM games WHERE deadline_ms IS NOT NULL AND deadline_ms <= ? \
             AND status = 'playing' LIMIT ?",
        )
        .bind(now_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
    }

    /// Games where the machine is to move.
    pub async fn machine_due(&self, limit: i64) -> sqlx::Result<Vec<String>> {
        sqlx::query_scalar(
            "SELECT id FROM games WHERE machine_due = 1 AND status = 'playing' LIMIT ?",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await
    }

    /// Every stored move of a game, with its ply (for checks and tools).
    pub async fn moves(&self, id: &str) -> sqlx::Result<Vec<(usize, String)>> {
        sqlx::query("SELECT ply, notation FROM moves WHERE game_id = ? ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|r| Ok((r.try_get::<i64, _>("ply")? as usize, r.try_get("notation")?)))
            .collect()
    }
}

async fn set_started(c: &mut SqliteConnection, id: &str, at_ms: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET started_at_ms = ? WHERE id = ?")
        .bind(at_ms)
        .bind(id)
        .execute(c)
        .await?;
    Ok(())
}
