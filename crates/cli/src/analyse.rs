//! `palabre analyse`: reads an exported game record (a file or `-` for
//! stdin), has the AI crate's [`analysis`] judge every move, and prints one
//! JSON object a ply (docs/analysis.md). The whole record is checked before
//! anything is printed, so a bad record leaves stdout empty.

use std::io::{BufWriter, Read, Write};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use palabre_ai::analysis::{self, Analysable, PlyReport};
use palabre_ai::level::GameKind;
use palabre_ai::nsolo::Nsolo;
use palabre_ai::tables::{Probe, Tables};
use palabre_ai::yote::Yote;
use palabre_ai::{Limits, Params, SearchLimit};
use palabre_rules::{GamePosition, Record, yote};
use serde_json::Value;

use crate::Failure;
use palabre_rules::record_text::{self, RecordText, RecordTextError};

#[derive(Debug, Clone, Args)]
pub struct AnalyseArgs {
    /// Search each position for this many milliseconds instead of to a depth.
    #[arg(long, value_name = "MS", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Search each position to this depth (default: Confirmé's, 4 for Yoté
    /// and 5 for Nsolo).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Yoté endgame tables: the search reads them, and each line says what
    /// they know of the position after the move (`"tables"`).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// The exported record (`/api/games/{id}/export`), or `-` for stdin.
    file: PathBuf,
}

pub fn run(args: &AnalyseArgs) -> Result<(), Failure> {
    let text = read_input(&args.file)?;
    let game = record_text::read(&text, usize::MAX).map_err(|e| Failure::Input(describe(&e)))?;
    let params = Params::default();
    match &game {
        RecordText::Yote(record) => {
            let limits = limits(args, GameKind::Yote);
            let tables = match &args.tables {
                Some(dir) => Some(crate::engine::open_tables(dir).map_err(Failure::Other)?),
                None => None,
            };
            let game = Yote::with_tables(params.clone(), tables.clone());
            print(&game, record, &limits, &params, |ply| {
                tables.as_deref().map(|t| verdict(t, record, ply))
            })
        }
        RecordText::Nsolo(record) => {
            let limits = limits(args, GameKind::Nsolo);
            print(
                &Nsolo::new(params.clone()),
                record,
                &limits,
                &params,
                |_| None,
            )
        }
    }
}

/// A refused record in one line; a move is named by its ply from 1, like
/// the analysis's output.
fn describe(e: &RecordTextError) -> String {
    let (ply, side, text, what, reason) = match e {
        RecordTextError::Malformed {
            ply,
            side,
            text,
            error,
        } => (ply, side, text, "malformed", error.to_string()),
        RecordTextError::Illegal {
            ply,
            side,
            text,
            error,
        } => (ply, side, text, "illegal", error.to_string()),
        header => return header.to_string(),
    };
    format!(
        "ply {} (turn {}, {side}): move {text:?}: {what}: {reason}",
        ply + 1,
        ply / 2 + 1
    )
}

fn read_input(file: &PathBuf) -> Result<String, Failure> {
    let mut text = String::new();
    if file.as_os_str() == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading the record from stdin")
            .map_err(Failure::Other)?;
    } else {
        text = std::fs::read_to_string(file)
            .with_context(|| format!("reading {}", file.display()))
            .map_err(Failure::Other)?;
    }
    Ok(text)
}

/// The requested bound, or Confirmé's depth for this game.
fn limits(args: &AnalyseArgs, kind: GameKind) -> Limits {
    let limit = match (args.movetime, args.depth) {
        (Some(ms), _) => SearchLimit::MoveTime(Duration::from_millis(ms)),
        (None, Some(depth)) => SearchLimit::Depth(depth),
        (None, None) => SearchLimit::Depth(analysis::default_depth(kind)),
    };
    Limits::new().with(limit)
}

/// What the tables say of the position after ply `ply` (from 1), from the
/// mover's side: `"tables":{"result":"win","dtc":12}`, or `"tables":null`
/// where they do not hold it; on a full board whose table is present, also
/// `"full_board":{…}`, its first clean capture in the same form.
fn verdict(tables: &Tables, record: &Record<yote::Position>, ply: usize) -> String {
    let Some(after) = record.position_at(ply) else {
        return ",\"tables\":null".to_owned();
    };
    let mut fields = format!(",\"tables\":{}", result(tables.probe(after).ok()));
    if let Ok(Some(probe)) = tables.probe_full_board(after) {
        fields += &format!(",\"full_board\":{}", result(Some(probe)));
    }
    fields
}

/// `{"result":"win","dtc":12}` from the mover's side, or `null`.
fn result(probe: Option<Probe>) -> String {
    let Some(p) = probe else {
        return "null".to_owned();
    };
    let dtc = p
        .distance()
        .map_or_else(|| "null".to_owned(), |d| d.to_string());
    format!("{{\"result\":\"{}\",\"dtc\":{dtc}}}", p.wdl.flip())
}

/// Prints each ply's line as soon as it is analysed; `extra` gives the
/// `tables` field of a ply, when the analysis has tables.
fn print<P: GamePosition, G: Analysable<P>>(
    game: &G,
    record: &Record<P>,
    limits: &Limits,
    params: &Params,
    extra: impl Fn(usize) -> Option<String>,
) -> Result<(), Failure> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut written = Ok(());
    analysis::analyse_each(game, record, limits, params, |report| {
        if written.is_ok() {
            let line = json_line(&report, extra(report.ply));
            written = writeln!(out, "{line}").and_then(|()| out.flush());
        }
    });
    Ok(written?)
}

/// `{"ply":…,"move":…,"eval":…,"best":…,"mark":…}`, in that order, then
/// the tables' fields when given.
fn json_line<M: std::fmt::Display>(r: &PlyReport<M>, tables: Option<String>) -> String {
    let text = |s: String| Value::from(s).to_string();
    let mark = r
        .mark
        .map_or_else(|| "null".to_owned(), |m| text(m.as_str().to_owned()));
    let tables = tables.unwrap_or_default();
    format!(
        "{{\"ply\":{},\"move\":{},\"eval\":{},\"best\":{},\"mark\":{}{tables}}}",
        r.ply,
        text(r.played.to_string()),
        r.eval,
        text(r.best.to_string()),
        mark
    )
}
