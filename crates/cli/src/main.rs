//! The `palabre` command: conformance tools for the rules engine.
//!
//! Exit codes are part of the contract: 2 for a malformed position or move or
//! an illegal move (nothing on stdout, one line on stderr), 1 for any other
//! failure.

mod analyse;
mod arena;
mod bench;
mod bot;
mod conformance;
mod contestant;
mod engine;
mod loadtest;
mod search_args;
mod serve;
mod start;
mod tables;

use std::process::ExitCode;

use std::time::Duration;

use clap::{Parser, Subcommand};
use palabre_ai::Params;

use crate::start::{Game, StartArgs};

#[derive(Debug, Parser)]
#[command(
    name = "palabre",
    version,
    about = "Yoté and Nsolo: rules engine and tools"
)]
struct Cli {
    /// What to do; without one, Palabre serves its website.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the website and its API (the default).
    Serve(serve::ServeArgs),
    /// Count the move sequences of a given length from a position.
    Perft {
        game: Game,
        depth: u32,
        #[command(flatten)]
        start: StartArgs,
        /// Also print each legal move with its own count.
        #[arg(long)]
        divide: bool,
    },
    /// List every legal complete move of a position, one per line.
    Moves {
        game: Game,
        #[command(flatten)]
        start: StartArgs,
    },
    /// Play moves from a position and print the position and the result.
    Replay {
        game: Game,
        #[command(flatten)]
        start: StartArgs,
        /// Moves in the game's notation.
        moves: Vec<String>,
    },
    /// Speak the engine protocol on stdin/stdout (docs/engine-protocol.md).
    Engine {
        /// Yoté endgame tables Expert answers from where they cover the
        /// position (`palabre tables build`); by default `tables`, if it
        /// holds any.
        #[arg(long, value_name = "DIR", env = "PALABRE_TABLES")]
        tables: Option<std::path::PathBuf>,
        /// `setoption NAME VALUE` changes these later.
        #[command(flatten)]
        search: search_args::SearchArgs,
    },
    /// Play matches between two players and print the score and Elo.
    Arena {
        game: Game,
        /// A level (debutant, intermediaire, confirme, expert), greedy,
        /// reference, uct, or engine:<command>.
        #[arg(long)]
        a: contestant::Spec,
        #[arg(long)]
        b: contestant::Spec,
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Nsolo: pits a row.
        #[arg(long, default_value_t = 8)]
        size: u8,
        /// Cap every move at this many milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        /// B's time a move instead, in milliseconds (a match at unequal time).
        #[arg(long, value_name = "MS")]
        b_movetime: Option<u64>,
        /// Stop every move's search after about this many nodes (the same
        /// moves on any machine, at any load).
        #[arg(long)]
        nodes: Option<u64>,
        /// B's node budget a move instead.
        #[arg(long, value_name = "N")]
        b_nodes: Option<u64>,
        /// A game clock for each side, `MS` or `MS+INC` (`60000+500`): a
        /// side out of time loses, and each move gets its share of the clock.
        #[arg(long, value_name = "MS[+INC]")]
        clock: Option<arena::GameClock>,
        /// B's game clock instead.
        #[arg(long, value_name = "MS[+INC]")]
        b_clock: Option<arena::GameClock>,
        /// A (Expert or an engine:) thinks on B's time: within B's node
        /// budget if there is one, otherwise until its own turn. Play timed
        /// matches with pondering one game at a time (`--jobs 1` on two
        /// cores).
        #[arg(long)]
        ponder: bool,
        /// B thinks on A's time.
        #[arg(long)]
        b_ponder: bool,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        #[command(flatten)]
        search: search_args::SearchArgs,
        /// Yoté endgame tables for the Expert contestants; by default
        /// `tables`, if it holds any (an `engine:` contestant reads it too).
        #[arg(long, value_name = "DIR")]
        tables: Option<std::path::PathBuf>,
        /// Write one JSON line a game (result and moves) to this file.
        #[arg(long, value_name = "FILE")]
        records: Option<std::path::PathBuf>,
        /// Random plies before the contestants move, judged level by a
        /// search (default: 2 in Yoté, 1 in Nsolo). More plies, more
        /// distinct openings.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=12))]
        opening_plies: Option<u8>,
    },
    /// Search fixed positions to fixed depths: node checksum and speed.
    Bench,
    /// Judge every move of an exported record: one JSON line a ply
    /// (docs/analysis.md).
    Analyse(analyse::AnalyseArgs),
    /// Connect an engine to a Palabre server through the Bot API: accept
    /// challenges and play the games (docs/bot-api.md).
    Bot(bot::BotArgs),
    /// Yoté endgame tables: build, probe, stats (docs/tables.md).
    Tables {
        #[command(subcommand)]
        command: tables::TablesCommand,
    },
    /// Measure a running server: online games played by bots (play), idle
    /// games' memory (idle-games) or idle live connections' (idle-sockets).
    ///
    /// Start the server with the rate limits off and room for the
    /// connections, e.g. `palabre serve --creates-per-minute 0
    /// --joins-per-minute 0 --socket-rate 0 --sockets-per-address 100000
    /// --sockets 100000 --connections 100000 --idle-game 2`, and raise
    /// `ulimit -n` for both processes above the sockets used.
    Loadtest {
        /// The server's address, or the nodes of a cluster separated by
        /// commas (`A,B,C`): games are created round-robin over the nodes,
        /// the two players of a game (play) use different nodes, and the
        /// idle sockets are spread over them.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// What to measure.
        #[arg(long, value_enum, default_value_t = loadtest::Mode::Play)]
        mode: loadtest::Mode,
        /// Games played at once (play) or created (idle-games).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// WebSockets kept open (idle-sockets).
        #[arg(long, default_value_t = 1000)]
        sockets: usize,
        /// Seconds to play (play) or to keep the sockets open (idle-sockets).
        #[arg(long, default_value_t = 30)]
        duration: u64,
        /// Each bot's thinking time before a move, in milliseconds.
        #[arg(long, default_value_t = 500)]
        think: u64,
        /// Milliseconds over which the games' starts are spread (play);
        /// 0 starts them all at once. Defaults to --think.
        #[arg(long)]
        ramp: Option<u64>,
        /// Longest wait, in seconds, for the idle games to leave memory
        /// (idle-games).
        #[arg(long, default_value_t = 120)]
        wait: u64,
        /// Times N games are created and left to leave memory (idle-games).
        #[arg(long, default_value_t = 1)]
        rounds: usize,
        /// The server's database, a SQLite file or the cluster's
        /// `postgres://` URL, to check the acknowledged moves in (play).
        #[arg(long)]
        db: Option<String>,
    },
}

/// A failure and the exit code it maps to.
#[derive(Debug)]
pub enum Failure {
    /// Malformed or illegal input: exit 2.
    Input(String),
    /// Anything else: exit 1.
    Other(anyhow::Error),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure::Other(e.into())
    }
}

fn serve(args: serve::ServeArgs) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
    tokio::runtime::Runtime::new()?.block_on(palabre_server::serve(args.config()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli
        .command
        .unwrap_or_else(|| Command::Serve(serve::ServeArgs::default()));
    let result = match command {
        Command::Serve(args) => serve(args).map_err(Failure::Other),
        Command::Perft {
            game,
            depth,
            start,
            divide,
        } => conformance::perft(game, &start, depth, divide),
        Command::Moves { game, start } => conformance::moves(game, &start),
        Command::Replay { game, start, moves } => conformance::replay(game, &start, &moves),
        Command::Engine { tables, search } => search
            .params()
            .and_then(|params| engine::run(params, tables.as_deref()))
            .map_err(Failure::Other),
        Command::Arena {
            game,
            a,
            b,
            games,
            size,
            movetime,
            b_movetime,
            nodes,
            b_nodes,
            clock,
            b_clock,
            ponder,
            b_ponder,
            seed,
            jobs,
            search,
            tables,
            records,
            opening_plies,
        } => {
            let settings = arena::Settings {
                game,
                a,
                b,
                games,
                size,
                movetime: movetime.map(Duration::from_millis),
                b_movetime: b_movetime.or(movetime).map(Duration::from_millis),
                nodes,
                b_nodes: b_nodes.or(nodes),
                clock,
                b_clock: b_clock.or(clock),
                ponder: [ponder, b_ponder],
                seed,
                jobs,
                tables: tables.or_else(tables::default_dir),
                records,
                opening_plies: opening_plies
                    .map_or_else(|| arena::default_opening_plies(game), usize::from),
            };
            search
                .params()
                .and_then(|params| arena::run(settings, params))
                .map_err(Failure::Other)
        }
        Command::Bench => bench::run(Params::default()).map_err(Failure::Other),
        Command::Analyse(args) => analyse::run(&args),
        Command::Bot(args) => bot::run(args).map_err(Failure::Other),
        Command::Tables { command } => tables::run(command),
        Command::Loadtest {
            addr,
            mode,
            games,
            sockets,
            duration,
            think,
            ramp,
            wait,
            rounds,
            db,
        } => loadtest::run(loadtest::Settings {
            addr,
            mode,
            games,
            sockets,
            duration: Duration::from_secs(duration),
            think: Duration::from_millis(think),
            ramp: Duration::from_millis(ramp.unwrap_or(think)),
            wait: Duration::from_secs(wait),
            rounds,
            db,
        })
        .map_err(Failure::Other),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            eprintln!("palabre: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Other(error)) => {
            eprintln!("palabre: {error:#}");
            ExitCode::from(1)
        }
    }
}
