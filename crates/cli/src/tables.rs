//! `palabre tables build|probe|stats`: the Yoté endgame tables
//! (docs/tables.md).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::{Args, Subcommand};
use palabre_ai::tables::{self, Entry, MaterialStats, TableError, Tables, tunables};
use palabre_rules::yote::{Position, QUIET_LIMIT};

use crate::Failure;

#[derive(Debug, Subcommand)]
pub enum TablesCommand {
    /// Solve every position with empty reserves and at most --max balls.
    Build {
        /// Largest number of balls on the board, both sides together.
        #[arg(long, default_value_t = tunables::DEFAULT_MAX_BALLS)]
        max: u8,
        /// Only the materials a game from the start can reach (an even
        /// number of balls a side): less than half the positions to 10
        /// balls, but no table for a set-up position with an odd side.
        #[arg(long)]
        reachable: bool,
        /// Also solve the full board (12 balls against 12, one hole) for
        /// its first clean capture.
        #[arg(long)]
        full_board: bool,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Print a position's value for the side to move and its DTC.
    Probe {
        /// The position string, e.g. `5/2r2/2b2/5/5 0 0 r 0`.
        #[arg(long)]
        fen: String,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Count won, drawn and lost positions for each material.
    Stats {
        #[command(flatten)]
        dir: DirArg,
    },
}

/// Where every command looks for the tables when not told: `tables build`
/// writes there, `serve` builds there if it finds none, `engine` reads it.
pub const DEFAULT_DIR: &str = "tables";

/// `dir` when not told, if it holds tables: an arena started where
/// `palabre serve` or `palabre tables build` left them uses them.
pub fn default_dir() -> Option<PathBuf> {
    let dir = Path::new(DEFAULT_DIR);
    let holds = Tables::find(dir).is_ok_and(|t| t.is_some());
    holds.then(|| dir.to_path_buf())
}

#[derive(Debug, Args)]
pub struct DirArg {
    /// Where the tables are.
    #[arg(long, env = "PALABRE_TABLES", default_value = DEFAULT_DIR)]
    dir: PathBuf,
}

pub fn run(command: TablesCommand) -> Result<(), Failure> {
    match command {
        TablesCommand::Build {
            max,
            reachable,
            full_board,
            dir,
        } => {
            let scope = if reachable {
                tables::Scope::Reachable
            } else {
                tables::Scope::All
            };
            build(max, scope, full_board, &dir.dir)
        }
        TablesCommand::Probe { fen, dir } => probe(&fen, &dir.dir),
        TablesCommand::Stats { dir } => stats(&dir.dir),
    }
}

fn other(e: TableError) -> Failure {
    Failure::Other(e.into())
}

fn build(max: u8, scope: tables::Scope, full_board: bool, dir: &Path) -> Result<(), Failure> {
    let start = Instant::now();
    let options = tables::BuildOptions {
        scope,
        ..Default::default()
    };
    let mut report = tables::build_with(dir, max, options, |s, took| {
        eprintln!(
            "{:>5} {:>12} positions  won {:>11}  drawn {:>11}  lost {:>11}  {:>7.1} s",
            s.material.to_string(),
            s.positions(),
            s.wins,
            s.draws,
            s.losses,
            took.as_secs_f64()
        );
    })
    .map_err(other)?;
    if full_board {
        let started = Instant::now();
        let (stats, bytes) = tables::full_board::build(dir, options).map_err(other)?;
        eprintln!(
            "full board {:>7} positions  won {:>11}  drawn {:>11}  lost {:>11}  {:>7.1} s",
            stats.positions(),
            stats.wins,
            stats.draws,
            stats.losses,
            started.elapsed().as_secs_f64()
        );
        report.positions += stats.positions();
        report.bytes += bytes;
    }
    println!("tables up to {max} balls in {}", dir.display());
    println!("time        {:.1} s", start.elapsed().as_secs_f64());
    println!("positions   {}", report.positions);
    println!("materials   {}", report.materials.len());
    println!(
        "on disk     {} bytes ({:.1} MiB)",
        report.bytes,
        mib(report.bytes)
    );
    match peak_memory_kib() {
        Some(kib) => println!("peak memory {kib} KiB ({:.1} MiB)", kib as f64 / 1024.0),
        None => println!("peak memory unknown (no /proc/self/status)"),
    }
    let mut materials = report.materials;
    materials.sort_by_key(|s| (s.material.total(), s.material.mover));
    println!("{}", tables::stats::render(&materials));
    Ok(())
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// The resident set's high-water mark (VmHWM), in KiB.
fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn probe(fen: &str, dir: &Path) -> Result<(), Failure> {
    let position: Position = fen.parse().map_err(|e| Failure::Input(format!("{e}")))?;
    if let Some(outcome) = position.outcome() {
        println!("game over: {outcome}");
        return Ok(());
    }
    let tables = Tables::open(dir).map_err(other)?;
    if tables::full_board::index(&position).is_some() {
        return probe_full_board(&tables, &position);
    }
    let probe = tables.probe(&position).map_err(|e| match e {
        TableError::NotCovered(_) | TableError::Missing(_) => Failure::Input(e.to_string()),
        e => other(e),
    })?;
    let budget = QUIET_LIMIT - position.quiet();
    println!(
        "value: {} for {} (side to move)",
        probe.wdl,
        position.turn()
    );
    match probe.entry {
        Entry::Draw => println!("dtc: none (drawn whatever the quiet count)"),
        Entry::Win(d) | Entry::Loss(d) => {
            println!("dtc: {d} (quiet {}, budget {budget})", position.quiet());
            if d > budget {
                println!(
                    "note: the table's {} needs {d} quiet plies, only {budget} left: a draw",
                    match probe.entry {
                        Entry::Win(_) => "win",
                        _ => "loss",
                    }
                );
            }
        }
    }
    if let Some(best) = tables.best_move(&position).map_err(other)? {
        println!("best: {}", best.mv);
    }
    Ok(())
}

/// A full board's first clean capture (docs/tables.md, "The full board").
fn probe_full_board(tables: &Tables, position: &Position) -> Result<(), Failure> {
    let Some(probe) = tables.probe_full_board(position).map_err(other)? else {
        return Err(Failure::Input(format!(
            "a full board: no {} (palabre tables build --full-board)",
            tables::full_board::FILE_NAME
        )));
    };
    let side = match probe.wdl {
        tables::Wdl::Win => position.turn(),
        _ => position.turn().other(),
    };
    match probe.distance() {
        Some(d) => println!(
            "full board: {side} forces a clean first capture or Ndar-Kepp within {d} {}",
            if d == 1 { "ply" } else { "plies" }
        ),
        None => println!("full board: neither side can force a clean first capture in time"),
    }
    Ok(())
}

fn stats(dir: &Path) -> Result<(), Failure> {
    let tables = Tables::open(dir).map_err(other)?;
    let materials = tables.materials();
    if materials.is_empty() {
        return Err(Failure::Other(anyhow::anyhow!(
            "no tables in {}",
            dir.display()
        )));
    }
    let mut all = Vec::new();
    for material in materials {
        let entries = tables
            .entries(material)
            .with_context(|| format!("reading {material}"))
            .map_err(Failure::Other)?;
        all.push(MaterialStats::of(material, entries));
    }
    println!("{}", tables::stats::render(&all));
    if let Some(entries) = tables.full_board_entries().map_err(other)? {
        let s = MaterialStats::of(tables::full_board::MATERIAL, entries);
        println!(
            "full board (12v12, one hole; a win is a clean first capture): {} positions  won {}  drawn {}  lost {}  longest win {}  longest loss {}",
            s.positions(),
            s.wins,
            s.draws,
            s.losses,
            s.longest_win.unwrap_or(0),
            s.longest_loss.unwrap_or(0)
        );
    }
    Ok(())
}
