//! `palabre serve`: the website and its API, with every limit settable by
//! flag or environment variable (`PALABRE_…`).

use std::time::Duration;

use clap::Args;
use palabre_server::{Config, Limits};

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "PALABRE_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Where the games are stored: an SQLite file (`FILE` or
    /// `sqlite://FILE`) or a PostgreSQL database (`postgres://USER@HOST:PORT/DB`).
    #[arg(long, env = "PALABRE_DB", default_value = "palabre.db")]
    pub db: String,
    /// The NATS server joining this node to the others of a cluster
    /// (`nats://HOST:PORT`; needs a `postgres://` database). Without it,
    /// the node runs alone.
    #[arg(long, env = "PALABRE_BUS")]
    pub bus: Option<String>,
    /// This node's name in the cluster (letters, digits, dashes; random if
    /// not given).
    #[arg(long, env = "PALABRE_NODE")]
    pub node: Option<String>,
    /// Yoté endgame tables (`palabre tables build`): Expert and hints play
    /// from them where they cover the position [default: tables].
    #[arg(long, value_name = "DIR", env = "PALABRE_TABLES")]
    pub tables: Option<std::path::PathBuf>,
    /// Where the tables' directory holds none, build them there up to this
    /// many balls, in the background on one thread, and use them once built
    /// (7: about 25 s and 70 MiB; 8: about 2 min and 332 MiB); 0 never.
    #[arg(long, env = "PALABRE_BUILD_TABLES", default_value_t = 7, value_parser = clap::value_parser!(u8).range(0..=10))]
    pub build_tables: u8,
    /// Threads each Expert search and hint uses (Lazy SMP). Each of the
    /// deep lane's searches takes this many cores, so on a busy server 1
    /// serves more games at once.
    #[arg(long, env = "PALABRE_SEARCH_THREADS", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub search_threads: u16,
    /// Games one address may create a minute (0: no limit).
    #[arg(long, env = "PALABRE_CREATES_PER_MINUTE", default_value_t = Limits::default().creates_per_minute)]
    pub creates_per_minute: u32,
    /// Joins one address may make a minute (0: no limit).
    #[arg(long, env = "PALABRE_JOINS_PER_MINUTE", default_value_t = Limits::default().joins_per_minute)]
    pub joins_per_minute: u32,
    /// Hints one address may ask a minute (0: no limit).
    #[arg(long, env = "PALABRE_HINTS_PER_MINUTE", default_value_t = Limits::default().hints_per_minute)]
    pub hints_per_minute: u32,
    /// Imports one address may send a minute (0: no limit).
    #[arg(long, env = "PALABRE_IMPORTS_PER_MINUTE", default_value_t = Limits::default().imports_per_minute)]
    pub imports_per_minute: u32,
    /// Accounts one address may create a minute (0: no limit).
    #[arg(long, env = "PALABRE_SIGNUPS_PER_MINUTE", default_value_t = Limits::default().signups_per_minute)]
    pub signups_per_minute: u32,
    /// Log-in attempts one address may make a minute (0: no limit).
    #[arg(long, env = "PALABRE_LOGINS_PER_MINUTE", default_value_t = Limits::default().logins_per_minute)]
    pub logins_per_minute: u32,
    /// Log-in attempts a minute for one account name (0: no limit).
    #[arg(long, env = "PALABRE_LOGINS_PER_NAME_PER_MINUTE", default_value_t = Limits::default().logins_per_name_per_minute)]
    pub logins_per_name_per_minute: u32,
    /// Live connections one address may hold.
    #[arg(long, env = "PALABRE_SOCKETS_PER_ADDRESS", default_value_t = Limits::default().sockets_per_address)]
    pub sockets_per_address: usize,
    /// Live connections in all.
    #[arg(long, env = "PALABRE_SOCKETS", default_value_t = Limits::default().sockets)]
    pub sockets: usize,
    /// Messages a live connection may send a second (0: no limit).
    #[arg(long, env = "PALABRE_SOCKET_RATE", default_value_t = Limits::default().socket_messages_per_second)]
    pub socket_rate: u32,
    /// Seconds of silence after which a live connection is closed.
    #[arg(long, env = "PALABRE_SOCKET_IDLE", default_value_t = Limits::default().socket_idle.as_secs())]
    pub socket_idle: u64,
    /// HTTP connections open at once.
    #[arg(long, env = "PALABRE_CONNECTIONS", default_value_t = Limits::default().connections)]
    pub connections: usize,
    /// Seconds a client has to send a request's headers (and to start the
    /// next request on a kept-alive connection).
    #[arg(long, env = "PALABRE_HEADER_TIMEOUT", default_value_t = Limits::default().header_timeout.as_secs())]
    pub header_timeout: u64,
    /// Seconds a request may take, body included.
    #[arg(long, env = "PALABRE_REQUEST_TIMEOUT", default_value_t = Limits::default().request_timeout.as_secs())]
    pub request_timeout: u64,
    /// Moves an imported record may have.
    #[arg(long, env = "PALABRE_IMPORT_PLIES", default_value_t = Limits::default().import_plies)]
    pub import_plies: usize,
    /// Seconds after which a game nobody uses leaves memory.
    #[arg(long, env = "PALABRE_IDLE_GAME", default_value_t = Limits::default().idle_game.as_secs())]
    pub idle_game: u64,
    /// Games this node keeps in memory at most; past it, new games and
    /// games not in memory are answered 503 until some leave.
    #[arg(long, env = "PALABRE_GAMES_IN_MEMORY", default_value_t = Limits::default().games_in_memory)]
    pub games_in_memory: usize,
    /// Searches that may wait for an Expert thread.
    #[arg(long, env = "PALABRE_DEEP_QUEUE", default_value_t = Config::default().thinker.deep_queue)]
    pub deep_queue: usize,
    /// Seconds Expert may think on a person's time, at most, while a
    /// search thread has nothing else to do; 0 turns it off.
    #[arg(long, env = "PALABRE_PONDER", default_value_t = Config::default().thinker.ponder.as_secs())]
    pub ponder: u64,
    /// Searches that may wait for a quick thread.
    #[arg(long, env = "PALABRE_QUICK_QUEUE", default_value_t = Config::default().thinker.quick_queue)]
    pub quick_queue: usize,
    /// Another origin whose pages may open live connections (repeatable,
    /// or comma-separated in the variable).
    #[arg(long = "origin", env = "PALABRE_ORIGINS", value_delimiter = ',')]
    pub origins: Vec<String>,
}

impl Default for ServeArgs {
    fn default() -> ServeArgs {
        ServeArgs::parse_from(["palabre"]).expect("the defaults parse")
    }
}

impl ServeArgs {
    /// The serve flags alone, parsed from a command line.
    pub fn parse_from<I, T>(args: I) -> Result<ServeArgs, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::Parser;
        #[derive(Parser)]
        struct Wrapper {
            #[command(flatten)]
            args: ServeArgs,
        }
        Wrapper::try_parse_from(args).map(|w| w.args)
    }

    pub fn config(self) -> Config {
        let base = Config::default();
        Config {
            addr: self.addr,
            db: Some(self.db),
            bus: self.bus,
            node: self.node,
            tables: Some(
                self.tables
                    .unwrap_or_else(|| crate::tables::DEFAULT_DIR.into()),
            ),
            build_tables: self.build_tables,
            params: palabre_ai::Params {
                threads: usize::from(self.search_threads),
                ..base.params.clone()
            },
            thinker: palabre_server::thinker::ThinkerConfig {
                deep_queue: self.deep_queue,
                quick_queue: self.quick_queue,
                ponder: Duration::from_secs(self.ponder),
                ..base.thinker
            },
            limits: Limits {
                creates_per_minute: self.creates_per_minute,
                joins_per_minute: self.joins_per_minute,
                hints_per_minute: self.hints_per_minute,
                imports_per_minute: self.imports_per_minute,
                signups_per_minute: self.signups_per_minute,
                logins_per_minute: self.logins_per_minute,
                logins_per_name_per_minute: self.logins_per_name_per_minute,
                sockets_per_address: self.sockets_per_address,
                sockets: self.sockets,
                socket_messages_per_second: self.socket_rate,
                socket_idle: Duration::from_secs(self.socket_idle),
                connections: self.connections,
                header_timeout: Duration::from_secs(self.header_timeout),
                request_timeout: Duration::from_secs(self.request_timeout),
                import_plies: self.import_plies,
                idle_game: Duration::from_secs(self.idle_game),
                games_in_memory: self.games_in_memory,
                origins: self.origins,
                ..Limits::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_threads_reach_the_search_parameters() {
        let parse = |args: &[&str]| ServeArgs::parse_from(args).map(ServeArgs::config);
        assert_eq!(parse(&["palabre"]).unwrap().params.threads, 1);
        let two = parse(&["palabre", "--search-threads", "2"]).unwrap();
        assert_eq!(two.params.threads, 2);
        assert_eq!(two.params.tt_bits, Config::default().params.tt_bits);
        assert!(parse(&["palabre", "--search-threads", "0"]).is_err());
    }

    #[test]
    fn the_games_in_memory_reach_the_limits() {
        let parse = |args: &[&str]| ServeArgs::parse_from(args).map(ServeArgs::config);
        let cap = |args: &[&str]| parse(args).unwrap().limits.games_in_memory;
        assert_eq!(cap(&["palabre"]), 20_000);
        assert_eq!(cap(&["palabre", "--games-in-memory", "5"]), 5);
        assert!(parse(&["palabre", "--games-in-memory", "-1"]).is_err());
    }

    #[test]
    fn ponder_is_a_minute_unless_set() {
        let parse = |args: &[&str]| ServeArgs::parse_from(args).map(ServeArgs::config);
        let ponder = |args: &[&str]| parse(args).unwrap().thinker.ponder;
        assert_eq!(ponder(&["palabre"]), Duration::from_secs(60));
        assert_eq!(ponder(&["palabre", "--ponder", "0"]), Duration::ZERO);
        assert_eq!(
            ponder(&["palabre", "--ponder", "5"]),
            Duration::from_secs(5)
        );
        assert!(parse(&["palabre", "--ponder", "-1"]).is_err());
    }

    #[test]
    fn the_tables_default_to_a_directory_built_up_to_seven_balls() {
        let parse = |args: &[&str]| ServeArgs::parse_from(args).map(ServeArgs::config);
        let plain = parse(&["palabre"]).unwrap();
        assert_eq!(plain.tables, Some(crate::tables::DEFAULT_DIR.into()));
        assert_eq!(plain.build_tables, 7);
        let told = parse(&["palabre", "--tables", "t8", "--build-tables", "0"]).unwrap();
        assert_eq!((told.tables, told.build_tables), (Some("t8".into()), 0));
        assert!(parse(&["palabre", "--build-tables", "11"]).is_err());
    }
}
