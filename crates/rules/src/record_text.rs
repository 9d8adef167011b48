//! A whole game as text, read back: the `[Key "value"]` headers and the
//! moves numbered by turn that Palabre's export writes. Lines in brackets
//! are headers (keys in any case), words ending in `.` are turn numbers and
//! every other word is a move. The moves are replayed from the `[Start]`
//! position (the game's usual start without one), and the first one refused
//! is named with its ply, its side and the rule it breaks. The server's
//! import and `palabre analyse` both read records here.

use std::collections::BTreeMap;

use thiserror::Error;

use crate::{GamePosition, IllegalMove, ParseError, Record, nsolo, yote};

/// A record read, every move checked.
#[derive(Debug, Clone)]
pub enum RecordText {
    Yote(Record<yote::Position>),
    Nsolo(Record<nsolo::Position>),
}

/// Why a record does not read or does not replay. `ply` counts the moves
/// before the refused one (its turn in the record is `ply / 2 + 1`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordTextError {
    #[error("a record has at most {max} moves, this one has {count}")]
    TooManyMoves { count: usize, max: usize },
    #[error("missing [Game \"…\"]")]
    MissingGame,
    #[error("unknown game {0:?}")]
    UnknownGame(String),
    #[error("size {0:?} is not a board size")]
    BadSize(String),
    #[error("[Start] {start:?} is not a position: {reason}")]
    BadStart { start: String, reason: String },
    #[error("[Size] says {size}, the start position has {start}")]
    SizeMismatch { size: u8, start: u8 },
    #[error("ply {ply}: {text}: {error}")]
    Malformed {
        ply: usize,
        side: String,
        text: String,
        error: ParseError,
    },
    #[error("ply {ply}: {text}: {error}")]
    Illegal {
        ply: usize,
        side: String,
        text: String,
        error: IllegalMove,
    },
}

impl RecordTextError {
    /// A stable name for what is wrong: a header's fault, `malformed`, or
    /// the rule an illegal move breaks (`not_adjacent`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            RecordTextError::TooManyMoves { .. } => "too_many_moves",
            RecordTextError::MissingGame => "missing_game",
            RecordTextError::UnknownGame(_) => "unknown_game",
            RecordTextError::BadSize(_) => "bad_size",
            RecordTextError::BadStart { .. } => "bad_start",
            RecordTextError::SizeMismatch { .. } => "size_mismatch",
            RecordTextError::Malformed { .. } => "malformed",
            RecordTextError::Illegal { error, .. } => error.kind().code(),
        }
    }
}

/// Reads a record of at most `max_plies` moves and replays it.
pub fn read(text: &str, max_plies: usize) -> Result<RecordText, RecordTextError> {
    let (headers, moves) = split(text);
    if moves.len() > max_plies {
        return Err(RecordTextError::TooManyMoves {
            count: moves.len(),
            max: max_plies,
        });
    }
    let game = headers.get("game").ok_or(RecordTextError::MissingGame)?;
    let size = match headers.get("size") {
        Some(s) => Some(
            s.parse::<u8>()
                .map_err(|_| RecordTextError::BadSize(s.clone()))?,
        ),
        None => None,
    };
    let start = headers.get("start");
    match game.to_lowercase().as_str() {
        yote::Position::NAME => {
            let start = start.map_or(Ok(yote::Position::START), |f| parse_start(f))?;
            check_size(size, 5)?;
            replay(start, &moves).map(RecordText::Yote)
        }
        nsolo::Position::NAME => {
            let start = match start {
                Some(fen) => parse_start(fen)?,
                None => {
                    let size = size.unwrap_or(8);
                    nsolo::Position::start(size)
                        .map_err(|_| RecordTextError::BadSize(size.to_string()))?
                }
            };
            check_size(size, start.size())?;
            replay(start, &moves).map(RecordText::Nsolo)
        }
        _ => Err(RecordTextError::UnknownGame(game.clone())),
    }
}

/// The headers (keys in lower case) and the move words, in order.
fn split(text: &str) -> (BTreeMap<String, String>, Vec<String>) {
    let mut headers = BTreeMap::new();
    let mut moves = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let header = line.strip_prefix('[').and_then(|l| l.strip_suffix(']'));
        if let Some((key, value)) = header.and_then(|inner| inner.split_once(' ')) {
            headers.insert(
                key.to_lowercase(),
                value.trim().trim_matches('"').to_owned(),
            );
            continue;
        }
        moves.extend(
            line.split_whitespace()
                .filter(|w| !w.ends_with('.'))
                .map(str::to_owned),
        );
    }
    (headers, moves)
}

fn parse_start<P: GamePosition>(fen: &str) -> Result<P, RecordTextError> {
    P::from_position_string(fen).map_err(|e| RecordTextError::BadStart {
        start: fen.to_owned(),
        reason: e.to_string(),
    })
}

fn check_size(given: Option<u8>, actual: u8) -> Result<(), RecordTextError> {
    match given {
        Some(size) if size != actual => Err(RecordTextError::SizeMismatch {
            size,
            start: actual,
        }),
        _ => Ok(()),
    }
}

/// Plays the moves in order, naming the first one refused.
fn replay<P: GamePosition>(start: P, moves: &[String]) -> Result<Record<P>, RecordTextError> {
    let mut record = Record::new(start);
    for text in moves {
        let (ply, side) = (record.ply(), record.position().turn().to_string());
        let m = text
            .parse::<P::Move>()
            .map_err(|error| RecordTextError::Malformed {
                ply,
                side: side.clone(),
                text: text.clone(),
                error,
            })?;
        record.play(&m).map_err(|error| RecordTextError::Illegal {
            ply,
            side,
            text: text.clone(),
            error,
        })?;
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXPORT: &str = "[Game \"yote\"]\n[Size \"5\"]\n[Start \"5/5/5/5/5 12 12 r 0\"]\n\
        [Date \"2026.11.30\"]\n[TimeControl \"none\"]\n[Red \"ana\"]\n[Black \"bo\"]\n\
        [Result \"*\"]\n\n1. c3 c4\n2. a1\n";

    #[test]
    fn reads_an_export() {
        let Ok(RecordText::Yote(record)) = read(EXPORT, 100) else {
            panic!("not read");
        };
        let moves: Vec<String> = record.moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["c3", "c4", "a1"]);
    }

    #[test]
    fn names_the_refused_move_and_the_faulty_header() {
        let error = read(&EXPORT.replace("2. a1", "2. c3"), 100).unwrap_err();
        assert!(matches!(&error, RecordTextError::Illegal { ply: 2, text, .. } if text == "c3"));
        assert_eq!(error.kind(), "occupied");
        let error = read(&EXPORT.replace("2. a1", "2. zz"), 100).unwrap_err();
        assert_eq!(error.kind(), "malformed");
        assert_eq!(
            read("1. c3", 100).unwrap_err(),
            RecordTextError::MissingGame
        );
        assert_eq!(
            read(&EXPORT.replace("[Size \"5\"]", "[Size \"8\"]"), 100).unwrap_err(),
            RecordTextError::SizeMismatch { size: 8, start: 5 }
        );
        assert_eq!(read(EXPORT, 2).unwrap_err().kind(), "too_many_moves");
        assert_eq!(
            read("[Game \"chess\"]", 100).unwrap_err(),
            RecordTextError::UnknownGame("chess".into())
        );
    }

    #[test]
    fn an_nsolo_record_without_a_start_uses_its_size() {
        let Ok(RecordText::Nsolo(record)) = read("[Game \"nsolo\"]\n[Size \"12\"]\n1. A1\n", 10)
        else {
            panic!("not read");
        };
        assert_eq!(record.position().size(), 12);
    }
}
