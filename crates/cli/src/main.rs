//! The `palabre` command: conformance tools for the rules engine.
//!
//! Exit codes are part of the contract: 2 for a malformed position or move or
//! an illegal move (nothing on stdout, one line on stderr), 1 for any other
//! failure.

mod conformance;
mod start;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::start::{Game, StartArgs};

#[derive(Debug, Parser)]
#[command(
    name = "palabre",
    version,
    about = "Yoté and Nsolo: rules engine and tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft {
            game,
            depth,
            start,
            divide,
        } => conformance::perft(game, &start, depth, divide),
        Command::Moves { game, start } => conformance::moves(game, &start),
        Command::Replay { game, start, moves } => conformance::replay(game, &start, &moves),
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
