//! How to run the server: where, with which database, and the limits that
//! keep it up under abuse. Every limit has a sane default; the `palabre`
//! command sets them from flags or the environment.

use std::time::Duration;

use palabre_ai::Params;

use crate::thinker::ThinkerConfig;

/// The server's settings.
#[derive(Debug, Clone)]
pub struct Config {
    pub addr: String,
    /// SQLite file or `postgres://` URL; `None` keeps everything in memory
    /// (tests).
    pub db: Option<String>,
    /// `nats://` URL of the bus between nodes; `None` runs alone.
    pub bus: Option<String>,
    /// This node's name in a cluster (random if `None`).
    pub node: Option<String>,
    /// Yoté endgame tables for Expert and hints (`palabre tables build`).
    pub tables: Option<std::path::PathBuf>,
    /// Where `tables` holds none, build them there up to this many balls,
    /// in the background, and use them once built; 0 never builds, and the
    /// server then runs without tables.
    pub build_tables: u8,
    pub params: Params,
    pub thinker: ThinkerConfig,
    pub limits: Limits,
}

/// Limits on what one client, and all of them, may ask. A rate of 0 means
/// no limit.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Games one address may create a minute.
    pub creates_per_minute: u32,
    /// Joins one address may make a minute.
    pub joins_per_minute: u32,
    /// Hints one address may ask a minute.
    pub hints_per_minute: u32,
    /// Imports one address may send a minute.
    pub imports_per_minute: u32,
    /// Accounts one address may create a minute.
    pub signups_per_minute: u32,
    /// Log-in attempts one address may make a minute.
    pub logins_per_minute: u32,
    /// Log-in attempts a minute for one account name, from anywhere.
    pub logins_per_name_per_minute: u32,
    /// Live connections one address may hold.
    pub sockets_per_address: usize,
    /// Live connections in all.
    pub sockets: usize,
    /// Messages a live connection may send a second.
    pub socket_messages_per_second: u32,
    /// A live connection that says nothing (not even a pong) this long is closed.
    pub socket_idle: Duration,
    /// How often the server pings a live connection.
    pub socket_ping: Duration,
    /// A write to a live connection that takes longer closes it.
    pub socket_write: Duration,
    /// HTTP connections open at once.
    pub connections: usize,
    /// A request's headers (and the next request on a kept-alive
    /// connection) must arrive within this.
    pub header_timeout: Duration,
    /// A request body must arrive, and its answer be made, within this.
    pub request_timeout: Duration,
    /// Moves an imported record may have.
    pub import_plies: usize,
    /// Imports replayed at once, off the async runtime.
    pub import_jobs: usize,
    /// A game nobody uses leaves memory after this long.
    pub idle_game: Duration,
    /// Games a node keeps in memory at most (each with its owner); past
    /// it, new games and games not in memory are refused until some leave.
    pub games_in_memory: usize,
    /// How often fallen clocks are looked for in the store.
    pub flag_sweep: Duration,
    /// Origins besides this machine's own addresses whose pages may open
    /// live connections (`https://palabre.example`).
    pub origins: Vec<String>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            creates_per_minute: 60,
            joins_per_minute: 120,
            hints_per_minute: 60,
            imports_per_minute: 20,
            signups_per_minute: 20,
            logins_per_minute: 30,
            logins_per_name_per_minute: 6,
            sockets_per_address: 32,
            sockets: 4096,
            socket_messages_per_second: 20,
            socket_idle: Duration::from_secs(60),
            socket_ping: Duration::from_secs(20),
            socket_write: Duration::from_secs(10),
            connections: 8192,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            import_plies: 5_000,
            import_jobs: 2,
            idle_game: Duration::from_secs(120),
            games_in_memory: 20_000,
            flag_sweep: Duration::from_secs(1),
            origins: Vec::new(),
        }
    }
}

impl Limits {
    /// No rate limits and room for load tests: for tests and benchmarks.
    pub fn unlimited() -> Limits {
        Limits {
            creates_per_minute: 0,
            joins_per_minute: 0,
            hints_per_minute: 0,
            imports_per_minute: 0,
            signups_per_minute: 0,
            logins_per_minute: 0,
            logins_per_name_per_minute: 0,
            sockets_per_address: 100_000,
            sockets: 100_000,
            socket_messages_per_second: 0,
            connections: 100_000,
            games_in_memory: 1_000_000,
            ..Limits::default()
        }
    }
}

impl Config {
    /// In memory, one search thread a lane, no rate limits: for tests.
    pub fn testing() -> Config {
        Config {
            addr: "127.0.0.1:0".into(),
            db: None,
            bus: None,
            node: None,
            thinker: ThinkerConfig {
                quick_threads: 1,
                quick_queue: 64,
                deep_threads: 1,
                deep_queue: 16,
                // A test that wants it turns it on: a minute of search
                // after each machine move would slow every other test.
                ponder: Duration::ZERO,
            },
            limits: Limits::unlimited(),
            ..Config::default()
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            addr: "127.0.0.1:8080".into(),
            db: Some("palabre.db".into()),
            bus: None,
            node: None,
            tables: None,
            build_tables: 0,
            params: Params {
                tt_bits: 18,
                ..Params::default()
            },
            thinker: ThinkerConfig {
                quick_threads: 2,
                quick_queue: 256,
                deep_threads: cores,
                deep_queue: 32,
                ponder: Duration::from_secs(60),
            },
            limits: Limits::default(),
        }
    }
}
