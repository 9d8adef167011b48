//! The on-disk format: one byte an entry, in index order, one file a material.
//!
//! Byte `0` is a draw, `1..=120` a win for the side to move with that DTC,
//! `129..=248` a loss with DTC `byte − 128`. A file `yote-<m>v<o>.tbl` is a
//! 16-byte header — the magic `PLBYOTE1`, the mover's and the other's balls,
//! the quiet limit (120), a zero byte, the entry count as a little-endian
//! `u32` — then the entries, then the 64-bit FNV-1a of the entries
//! (little-endian) to catch a truncated or damaged file.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use palabre_rules::yote::QUIET_LIMIT;

use super::{Material, TableError};

const MAGIC: &[u8; 8] = b"PLBYOTE1";
const HEADER: usize = 16;
const TRAILER: usize = 8;
const LOSS: u8 = 128;

/// A solved position, for the side to move, with a full quiet budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entry {
    /// Drawn whatever the quiet count.
    Draw,
    /// Won when the quiet count `q` satisfies `dtc ≤ 120 − q`, drawn otherwise.
    Win(u8),
    /// Lost when `dtc ≤ 120 − q`, drawn otherwise.
    Loss(u8),
}

impl Entry {
    /// The stored byte.
    pub const fn encode(self) -> u8 {
        match self {
            Entry::Draw => 0,
            Entry::Win(d) => d,
            Entry::Loss(d) => LOSS + d,
        }
    }

    /// The entry of a stored byte, `None` for a byte no entry uses.
    pub const fn decode(byte: u8) -> Option<Entry> {
        match byte {
            0 => Some(Entry::Draw),
            1..=QUIET_LIMIT => Some(Entry::Win(byte)),
            _ if byte > LOSS && byte - LOSS <= QUIET_LIMIT => Some(Entry::Loss(byte - LOSS)),
            _ => None,
        }
    }

    /// The DTC of a win or a loss.
    pub const fn dtc(self) -> Option<u8> {
        match self {
            Entry::Draw => None,
            Entry::Win(d) | Entry::Loss(d) => Some(d),
        }
    }
}

/// 64-bit FNV-1a.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The file of a material in `dir`.
pub fn path(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("yote-{material}.tbl"))
}

/// The material a file name belongs to, if it is a table's.
pub fn material_of(name: &str) -> Option<Material> {
    let (m, o) = name
        .strip_prefix("yote-")?
        .strip_suffix(".tbl")?
        .split_once('v')?;
    Material::new(m.parse().ok()?, o.parse().ok()?)
}

fn header(material: Material, count: u32) -> [u8; HEADER] {
    let mut header = [0u8; HEADER];
    header[..8].copy_from_slice(MAGIC);
    header[8] = material.mover;
    header[9] = material.other;
    header[10] = QUIET_LIMIT;
    header[12..].copy_from_slice(&count.to_le_bytes());
    header
}

/// Writes a material's entries to `dir`, returning the bytes written.
pub fn write(dir: &Path, material: Material, entries: &[u8]) -> Result<u64, TableError> {
    write_to(&path(dir, material), material, entries)
}

/// Writes a material's entries to the file `path`.
pub fn write_to(path: &Path, material: Material, entries: &[u8]) -> Result<u64, TableError> {
    let count = u32::try_from(entries.len()).expect("tables hold fewer than 2^32 entries");
    let io = |e| TableError::io(path, e);
    let mut file = std::io::BufWriter::new(fs::File::create(path).map_err(io)?);
    file.write_all(&header(material, count)).map_err(io)?;
    file.write_all(entries).map_err(io)?;
    file.write_all(&fnv1a(entries).to_le_bytes()).map_err(io)?;
    file.flush().map_err(io)?;
    Ok((HEADER + entries.len() + TRAILER) as u64)
}

/// Reads and checks a material's entries from `dir`.
pub fn read(dir: &Path, material: Material) -> Result<Vec<u8>, TableError> {
    read_from(&path(dir, material), material)
}

/// Reads and checks a material's entries from the file `path`.
pub fn read_from(path: &Path, material: Material) -> Result<Vec<u8>, TableError> {
    let mut bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(TableError::Missing(material));
        }
        Err(e) => return Err(TableError::io(path, e)),
    };
    let corrupt = |reason: &str| TableError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.into(),
    };
    let expected = usize::try_from(material.size()).expect("fits in memory");
    if bytes.len() != HEADER + expected + TRAILER {
        return Err(corrupt("wrong length"));
    }
    if bytes[..HEADER] != header(material, expected as u32) {
        return Err(corrupt("bad header"));
    }
    let trailer: [u8; TRAILER] = bytes[HEADER + expected..].try_into().expect("8 bytes");
    bytes.truncate(HEADER + expected);
    bytes.drain(..HEADER);
    if fnv1a(&bytes) != u64::from_le_bytes(trailer) {
        return Err(corrupt("checksum mismatch"));
    }
    Ok(bytes)
}
