//! Counts of won, drawn and lost positions a material, and their checksum.
//!
//! The counts are for the side to move with a full quiet budget (quiet count
//! 0). The checksum is the 64-bit FNV-1a of the [`MaterialStats::line`]s, each
//! followed by a newline, so two builds agree when their checksums do.

use std::fmt::Write;

use super::format::fnv1a;
use super::{Entry, Material};

/// One material's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaterialStats {
    pub material: Material,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The longest DTC of a win, if any.
    pub longest_win: Option<u8>,
    /// The longest DTC of a loss, if any.
    pub longest_loss: Option<u8>,
}

impl MaterialStats {
    /// Counts encoded entries.
    pub fn of(material: Material, entries: &[u8]) -> MaterialStats {
        let mut histogram = [0u64; 256];
        for &b in entries {
            histogram[usize::from(b)] += 1;
        }
        let mut stats = MaterialStats {
            material,
            wins: 0,
            draws: 0,
            losses: 0,
            longest_win: None,
            longest_loss: None,
        };
        for (byte, &count) in (0u8..=255).zip(&histogram).filter(|(_, c)| **c > 0) {
            match Entry::decode(byte) {
                Some(Entry::Win(d)) => {
                    stats.wins += count;
                    stats.longest_win = stats.longest_win.max(Some(d));
                }
                Some(Entry::Loss(d)) => {
                    stats.losses += count;
                    stats.longest_loss = stats.longest_loss.max(Some(d));
                }
                Some(Entry::Draw) | None => stats.draws += count,
            }
        }
        stats
    }

    pub fn positions(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// `mover other wins draws losses`: what the checksum covers.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.material.mover, self.material.other, self.wins, self.draws, self.losses
        )
    }
}

/// The FNV-1a of the materials' lines, each ended by a newline.
pub fn checksum(stats: &[MaterialStats]) -> u64 {
    let text: String = stats.iter().map(|s| s.line() + "\n").collect();
    fnv1a(text.as_bytes())
}

/// A readable table of the counts, with totals and the checksum.
pub fn render(stats: &[MaterialStats]) -> String {
    let dtc = |d: Option<u8>| d.map_or("-".to_string(), |d| d.to_string());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>5} {:>5} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8}",
        "mover", "other", "positions", "won", "drawn", "lost", "max win", "max loss"
    );
    for s in stats {
        let _ = writeln!(
            out,
            "{:>5} {:>5} {:>12} {:>12} {:>12} {:>12} {:>8} {:>8}",
            s.material.mover,
            s.material.other,
            s.positions(),
            s.wins,
            s.draws,
            s.losses,
            dtc(s.longest_win),
            dtc(s.longest_loss)
        );
    }
    let sum = |f: fn(&MaterialStats) -> u64| stats.iter().map(f).sum::<u64>();
    let _ = writeln!(
        out,
        "{:>11} {:>12} {:>12} {:>12} {:>12}",
        "total",
        sum(MaterialStats::positions),
        sum(|s| s.wins),
        sum(|s| s.draws),
        sum(|s| s.losses)
    );
    let _ = write!(
        out,
        "checksum (FNV-1a 64 of the lines `mover other won drawn lost`): {:016x}",
        checksum(stats)
    );
    out
}
