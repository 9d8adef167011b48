//! Storage on SQLite (the embedded default) or PostgreSQL, through one
//! `sqlx::Any` pool and the same SQL: one row a game, one row a move, one
//! row a seat. Every change that writes more than one row runs in one
//! transaction, and a move is acknowledged only after its transaction
//! commits, so an acknowledged move survives a crash of the process. Only a
//! game's owner ([`crate::game`]) calls the writing functions.
//!
//! - [`rows`]: how rows decode into the types below.
//! - [`write`] and [`read`]: the queries.

mod accounts;
mod challenges;
mod lease;
mod ratings;
mod read;
mod rows;
mod write;

pub use accounts::{AccountRow, DELETED_NAME, TokenRow, is_unique_violation};
pub use challenges::ChallengeRow;
pub use lease::{Fence, Holder, StoreError};
pub use ratings::{Change, Ranked, RatingPoint};

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use palabre_ai::Level;
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Executor};

use crate::clock::TimeControl;
use crate::domain::{Ended, GameKind, Opponent, Side, Status};

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
    /// The signed-in account of a game against the machine or on one screen.
    pub account: Option<i64>,
    /// An online game between two accounts that changes their ratings.
    pub rated: bool,
    /// The ratings a rated seek accepts from the player who joins it.
    pub rating_range: Option<(i64, i64)>,
    /// Time given back to the running clock since the last move (outages
    /// of the bus, see [`crate::clock::Clocks::credit_ms`]).
    pub clock_credit_ms: i64,
}

#[cfg(test)]
impl GameRow {
    /// A Yoté game `id` from the start, for the tests: `opponent`'s kind,
    /// started at 1 s past the epoch, with no clock, seat or account.
    pub fn yote_for_test(id: &str, opponent: Opponent) -> GameRow {
        GameRow {
            id: id.into(),
            kind: GameKind::Yote,
            size: 5,
            start_fen: palabre_rules::yote::Position::START.to_string(),
            opponent,
            level: Level::Debutant,
            human: None,
            seat_hash: String::new(),
            ended: None,
            team_size: 1,
            time_control: TimeControl::None,
            started_at_ms: Some(1_000),
            rematch_id: None,
            damaged: None,
            account: None,
            rated: false,
            rating_range: None,
            clock_credit_ms: 0,
        }
    }
}

/// A member of an online game: `position` is the order of joining.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub side: Side,
    pub position: u8,
    pub name: String,
    pub seat_hash: String,
    /// The member's account, when they were signed in.
    pub account: Option<i64>,
    /// The account is a bot's.
    pub bot: bool,
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
    /// The running clock's credit, kept for a reload.
    pub clock_credit_ms: i64,
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
    pub rated: bool,
    pub rating_range: Option<(i64, i64)>,
    pub members: Vec<Member>,
}

/// Which database the store talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Reads go through a pool of connections. On SQLite, writes go through
/// one connection of their own, so that writers never queue in SQLite's
/// busy handler (WAL lets the readers go on meanwhile); PostgreSQL takes
/// concurrent writers, so there the writer is the pool.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    writer: AnyPool,
    backend: Backend,
    /// This start's leases, told from an earlier or a twin process of the
    /// same node name ([`lease`]).
    run: i64,
}

/// The sqlx URL of `--db`: a `postgres://` or `sqlite:` URL as given, any
/// other text a path to an SQLite file (created if missing).
pub fn database_url(db: &str) -> String {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") || db.starts_with("sqlite:")
    {
        db.to_owned()
    } else {
        format!("sqlite://{db}")
    }
}

fn backend_of(url: &str) -> Backend {
    if url.starts_with("sqlite:") {
        Backend::Sqlite
    } else {
        Backend::Postgres
    }
}

/// Each SQLite connection: a WAL journal (readers go on while a move is
/// written), fsync at checkpoints only (a committed move survives a crash
/// of the process), and a wait instead of an error when the file is busy.
const SQLITE_PRAGMAS: &str = "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
    PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;";

/// Connections of a PostgreSQL pool per node.
const PG_CONNECTIONS: u32 = 8;

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn sqlite_pool(connections: u32) -> AnyPoolOptions {
    AnyPoolOptions::new()
        .max_connections(connections)
        .after_connect(|conn, _| {
            Box::pin(async move {
                conn.execute(SQLITE_PRAGMAS).await?;
                Ok(())
            })
        })
}

impl Store {
    /// Opens (or creates) the database named by `--db` and brings its
    /// schema up to date.
    pub async fn open(db: &str) -> anyhow::Result<Store> {
        sqlx::any::install_default_drivers();
        let url = database_url(db);
        let backend = backend_of(&url);
        let store = match backend {
            Backend::Sqlite => {
                let url = if url.contains('?') {
                    url
                } else {
                    format!("{url}?mode=rwc")
                };
                let writer = sqlite_pool(1).connect(&url).await?;
                sqlx::migrate!("./migrations/sqlite").run(&writer).await?;
                let pool = sqlite_pool(4).connect(&url).await?;
                Store {
                    pool,
                    writer,
                    backend,
                    run: lease::new_run(),
                }
            }
            Backend::Postgres => {
                create_if_missing(&url).await?;
                let pool = AnyPoolOptions::new()
                    .max_connections(PG_CONNECTIONS)
                    .acquire_timeout(Duration::from_secs(5))
                    .connect(&url)
                    .await?;
                sqlx::migrate!("./migrations/postgres").run(&pool).await?;
                Store {
                    writer: pool.clone(),
                    pool,
                    backend,
                    run: lease::new_run(),
                }
            }
        };
        Ok(store)
    }

    /// A private in-memory SQLite database (one connection, so one database).
    pub async fn memory() -> anyhow::Result<Store> {
        sqlx::any::install_default_drivers();
        let pool = sqlite_pool(1).connect("sqlite::memory:").await?;
        sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
        Ok(Store {
            writer: pool.clone(),
            pool,
            backend: Backend::Sqlite,
            run: lease::new_run(),
        })
    }

    /// Closes the connections (on SQLite, a clean checkpoint of the journal).
    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }

    /// The raw pool, for tools and tests that inspect the database.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }
}

/// Creates the PostgreSQL database of `url` if it does not exist (several
/// nodes starting at once may race: the losers find it made).
async fn create_if_missing(url: &str) -> anyhow::Result<()> {
    use sqlx::migrate::MigrateDatabase;
    if sqlx::Any::database_exists(url).await? {
        return Ok(());
    }
    if let Err(e) = sqlx::Any::create_database(url).await
        && !sqlx::Any::database_exists(url).await?
    {
        return Err(e.into());
    }
    Ok(())
}

/// Creates an empty PostgreSQL database on the server of `base` (a
/// `postgres://` URL) and returns its URL: one database per test run or
/// benchmark, so runs never see each other's games.
pub async fn scratch_postgres(base: &str) -> anyhow::Result<String> {
    use sqlx::migrate::MigrateDatabase;
    sqlx::any::install_default_drivers();
    let (server, _) = base
        .rsplit_once('/')
        .ok_or_else(|| anyhow::anyhow!("{base}: not a postgres:// URL with a database"))?;
    let name = format!("palabre_{:016x}", rand::random::<u64>());
    let url = format!("{server}/{name}");
    sqlx::Any::create_database(&url).await?;
    Ok(url)
}
