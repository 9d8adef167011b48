//! Reading the tables: the value of a position under its quiet count, and
//! the move that keeps it.
//!
//! An entry holds the result with a full quiet budget and its DTC; a position
//! with quiet count `q` has `120 − q` plies of budget left, so a win or a
//! loss stands only when `dtc ≤ 120 − q` and is a draw otherwise. This is
//! exact, not an approximation: the DTC is the smallest budget with which
//! the result can be forced (docs/tables.md).

use std::cmp::Reverse;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use palabre_rules::yote::{Color, Move, Position, QUIET_LIMIT};

use super::{Entry, Material, TableError, format, full_board};

/// Win, draw or loss for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    /// The same result seen from the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl Wdl {
    /// `win`, `draw` or `loss`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        }
    }
}

impl std::fmt::Display for Wdl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Entry {
    /// The result with `quiet` plies already played since the last capture.
    pub fn under_quiet(self, quiet: u8) -> Wdl {
        let budget = QUIET_LIMIT.saturating_sub(quiet);
        match self {
            Entry::Win(d) if d <= budget => Wdl::Win,
            Entry::Loss(d) if d <= budget => Wdl::Loss,
            _ => Wdl::Draw,
        }
    }
}

/// A probed position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    /// The stored entry (full quiet budget).
    pub entry: Entry,
    /// The result under the position's own quiet count.
    pub wdl: Wdl,
}

impl Probe {
    /// Plies to the capture (or the end) that keeps a win or a loss, as
    /// Syzygy's DTZ; `None` for a draw.
    pub fn distance(&self) -> Option<u8> {
        match self.wdl {
            Wdl::Draw => None,
            _ => self.entry.dtc(),
        }
    }

    fn at(entry: Entry, position: &Position) -> Probe {
        Probe {
            entry,
            wdl: entry.under_quiet(position.quiet()),
        }
    }
}

/// The holes of the side to move and of the other side, when both reserves
/// are empty (only then can the tables hold the position).
fn board(position: &Position) -> Option<(u32, u32)> {
    let (me, them) = (position.turn(), position.turn().other());
    (position.reserve(Color::Red) + position.reserve(Color::Black) == 0)
        .then(|| (position.balls(me), position.balls(them)))
}

/// A move and what it leads to, for the side playing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    pub mv: Move,
    /// The result after this move, for the side playing it.
    pub wdl: Wdl,
    /// Plies until the capture or the end this result comes from (1 for a
    /// capture); 0 for a draw.
    pub plies: u8,
    /// After a capture, the DTC of the position it leads to (0 if the game ends).
    pub after: u8,
}

impl Choice {
    /// Better for the side playing: wins sooner, draws, losses later.
    fn key(&self) -> (Wdl, i16, i16) {
        let (p, a) = (i16::from(self.plies), i16::from(self.after));
        match self.wdl {
            Wdl::Win => (Wdl::Win, -p, -a),
            Wdl::Draw => (Wdl::Draw, 0, 0),
            Wdl::Loss => (Wdl::Loss, p, a),
        }
    }
}

/// The tables of a directory, each read on first use.
#[derive(Debug)]
pub struct Tables {
    dir: PathBuf,
    loaded: HashMap<Material, OnceLock<Vec<u8>>>,
    /// The most balls of any table present: a search asks about many
    /// bigger positions, and this answers them without a lookup.
    max_total: u8,
    /// Held while a table is read from disk, so that requests arriving
    /// together read it once rather than each holding its own copy (the
    /// 4v4 table is 76 MB).
    reading: Mutex<()>,
    /// The full board ([`full_board`]), when its file is present.
    full: Option<OnceLock<Vec<u8>>>,
}

impl Tables {
    /// The tables found in `dir`.
    pub fn open(dir: &Path) -> Result<Tables, TableError> {
        let listing = std::fs::read_dir(dir).map_err(|e| TableError::io(dir, e))?;
        let mut loaded = HashMap::new();
        for item in listing {
            let item = item.map_err(|e| TableError::io(dir, e))?;
            if let Some(m) = item.file_name().to_str().and_then(format::material_of) {
                loaded.insert(m, OnceLock::new());
            }
        }
        let max_total = loaded.keys().map(|m| m.total()).max().unwrap_or(0);
        let full = full_board::path(dir).is_file().then(OnceLock::new);
        Ok(Tables {
            dir: dir.to_path_buf(),
            loaded,
            max_total,
            reading: Mutex::new(()),
            full,
        })
    }

    /// The tables in `dir`, or `None` if it is missing or holds no table:
    /// where a caller may build them, or play without.
    pub fn find(dir: &Path) -> Result<Option<Tables>, TableError> {
        if !dir.exists() {
            return Ok(None);
        }
        let tables = Tables::open(dir)?;
        Ok((!tables.loaded.is_empty()).then_some(tables))
    }

    /// Reads every table into memory now, so that no search pays for a
    /// read in the middle of its budget (a large table takes longer than a
    /// short move).
    pub fn preload(&self) -> Result<(), TableError> {
        self.materials()
            .into_iter()
            .try_for_each(|m| self.entries(m).map(|_| ()))
    }

    /// The full board's encoded entries, read on first use; `None` when
    /// its file is not in the directory.
    pub fn full_board_entries(&self) -> Result<Option<&[u8]>, TableError> {
        self.full
            .as_ref()
            .map(|cell| self.read_once(cell, || full_board::read(&self.dir)))
            .transpose()
    }

    /// The full board's probe of a position, read on first use; `None` when
    /// the position is not a full board or the file is not in the
    /// directory. Its win is a clean first capture, not a won game (see
    /// [`full_board`]).
    pub fn probe_full_board(&self, position: &Position) -> Result<Option<Probe>, TableError> {
        let Some(index) = full_board::index(position) else {
            return Ok(None);
        };
        let Some(bytes) = self.full_board_entries()? else {
            return Ok(None);
        };
        let byte = bytes[index as usize];
        let entry = Entry::decode(byte).ok_or_else(|| TableError::Corrupt {
            path: full_board::path(&self.dir),
            reason: format!("byte {byte} is no entry"),
        })?;
        Ok(Some(Probe::at(entry, position)))
    }

    /// The materials present, by increasing total.
    pub fn materials(&self) -> Vec<Material> {
        let mut all: Vec<Material> = self.loaded.keys().copied().collect();
        all.sort_by_key(|m| (m.total(), m.mover));
        all
    }

    /// A material's encoded entries.
    pub fn entries(&self, material: Material) -> Result<&[u8], TableError> {
        let cell = self
            .loaded
            .get(&material)
            .ok_or(TableError::Missing(material))?;
        self.read_once(cell, || format::read(&self.dir, material))
    }

    /// The bytes of `cell`, read with `read` by the first caller only.
    fn read_once<'a>(
        &self,
        cell: &'a OnceLock<Vec<u8>>,
        read: impl FnOnce() -> Result<Vec<u8>, TableError>,
    ) -> Result<&'a [u8], TableError> {
        if let Some(bytes) = cell.get() {
            return Ok(bytes);
        }
        // A reader that panicked left no half-written table behind.
        let _reading = self.reading.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(bytes) = cell.get() {
            return Ok(bytes);
        }
        let bytes = read()?;
        Ok(cell.get_or_init(|| bytes))
    }

    /// The stored entry of a position: reserves empty, a ball a side at least.
    pub fn entry(&self, position: &Position) -> Result<Entry, TableError> {
        let (mover, other) = board(position)
            .ok_or_else(|| TableError::NotCovered("a reserve is not empty".into()))?;
        let material = Material::of(mover, other)
            .ok_or_else(|| TableError::NotCovered("a side has no ball".into()))?;
        let byte = self.entries(material)?[material.index(mover, other) as usize];
        Entry::decode(byte).ok_or_else(|| TableError::Corrupt {
            path: format::path(&self.dir, material),
            reason: format!("byte {byte} is no entry"),
        })
    }

    /// The entry and the result under the position's quiet count.
    pub fn probe(&self, position: &Position) -> Result<Probe, TableError> {
        Ok(Probe::at(self.entry(position)?, position))
    }

    /// The probe of a position whose table is already in memory, else
    /// `None`: a search never waits for a read.
    pub fn probe_in_memory(&self, position: &Position) -> Option<Probe> {
        let (mover, other) = board(position)?;
        if mover.count_ones() + other.count_ones() > u32::from(self.max_total) {
            return None;
        }
        let material = Material::of(mover, other)?;
        let bytes = self.loaded.get(&material)?.get()?;
        let entry = Entry::decode(bytes[material.index(mover, other) as usize])?;
        Some(Probe::at(entry, position))
    }

    /// Every legal move with what it leads to, best first; empty when the
    /// game is over.
    pub fn choices(&self, position: &Position) -> Result<Vec<Choice>, TableError> {
        if position.outcome().is_some() {
            return Ok(Vec::new());
        }
        let mut all = position
            .legal_moves()
            .into_iter()
            .map(|mv| self.choice(position, mv))
            .collect::<Result<Vec<_>, _>>()?;
        all.sort_by_key(|c| Reverse(c.key()));
        Ok(all)
    }

    /// The move that keeps the position's result best (wins soonest, loses
    /// latest), or `None` when the game is over.
    pub fn best_move(&self, position: &Position) -> Result<Option<Choice>, TableError> {
        Ok(self.choices(position)?.into_iter().next())
    }

    fn choice(&self, position: &Position, mv: Move) -> Result<Choice, TableError> {
        let mut child = *position;
        child.play_unchecked(mv);
        if mv.is_capture() {
            if child.material(child.turn()) == 0 {
                return Ok(Choice {
                    mv,
                    wdl: Wdl::Win,
                    plies: 1,
                    after: 0,
                });
            }
            let probe = self.probe(&child)?;
            let wdl = probe.wdl.flip();
            return Ok(Choice {
                mv,
                wdl,
                plies: if wdl == Wdl::Draw { 0 } else { 1 },
                after: probe.entry.dtc().unwrap_or(0),
            });
        }
        let probe = self.probe(&child)?;
        let wdl = probe.wdl.flip();
        Ok(Choice {
            mv,
            wdl,
            plies: match wdl {
                Wdl::Draw => 0,
                _ => probe.entry.dtc().unwrap_or(0) + 1,
            },
            after: 0,
        })
    }
}
