//! `perft`, `moves` and `replay`: the tools other implementations are
//! compared with, so their output formats do not change.

use std::io::{BufWriter, Write};

use palabre_rules::{GamePosition, Record, nsolo, yote};

use crate::Failure;
use crate::start::{Game, StartArgs};

pub fn perft(game: Game, start: &StartArgs, depth: u32, divide: bool) -> Result<(), Failure> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    let total = match game {
        Game::Yote => {
            let pos = start.yote()?;
            if divide && depth > 0 {
                for (m, n) in yote::perft_divide(&pos, depth) {
                    writeln!(out, "{m} {n}")?;
                }
            }
            u128::from(yote::perft(&pos, depth))
        }
        Game::Nsolo => {
            let pos = start.nsolo()?;
            if divide && depth > 0 {
                let mut total = 0;
                for (m, n) in nsolo::perft_divide(&pos, depth) {
                    writeln!(out, "{m} {n}")?;
                    total += n;
                }
                total
            } else {
                nsolo::perft(&pos, depth)
            }
        }
    };
    writeln!(out, "{total}")?;
    out.flush()?;
    Ok(())
}

pub fn moves(game: Game, start: &StartArgs) -> Result<(), Failure> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    match game {
        Game::Yote => {
            for m in start.yote()?.legal_moves() {
                writeln!(out, "{m}")?;
            }
        }
        Game::Nsolo => {
            let pos = start.nsolo()?;
            for m in pos.legal_moves() {
                writeln!(out, "{m}")?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

pub fn replay(game: Game, start: &StartArgs, moves: &[String]) -> Result<(), Failure> {
    let (fen, result) = match game {
        Game::Yote => summary(start.yote()?, moves)?,
        Game::Nsolo => summary(start.nsolo()?, moves)?,
    };
    println!("fen: {fen}");
    println!("result: {result}");
    Ok(())
}

fn summary<P: GamePosition>(start: P, moves: &[String]) -> Result<(String, String), Failure> {
    let record = Record::replay(start, moves).map_err(|e| Failure::Input(e.to_string()))?;
    let result = record
        .outcome()
        .map_or_else(|| "ongoing".to_owned(), |o| o.to_string());
    Ok((record.position().to_string(), result))
}
