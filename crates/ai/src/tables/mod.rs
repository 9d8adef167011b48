//! Yoté endgame tables: every position with both reserves empty and few balls
//! on the board, solved exactly under the 120-quiet-ply rule.
//!
//! A position is seen from the side to move: its [`Material`] is (the
//! mover's balls, the other side's balls), which folds Red-to-move and
//! Black-to-move into one table by the colour symmetry (with empty reserves
//! the colours play alike). Each entry is an [`Entry`]: a draw, or a win or a
//! loss for the side to move together with its DTC, the quiet-count budget
//! the result needs (docs/tables.md). [`index`] numbers positions,
//! [`build`] solves them by retrograde analysis, material by material in
//! increasing ball count, [`format`] stores them one byte an entry,
//! [`probe`] reads them back and plays from them, [`stats`] counts them.
//! [`full_board`] solves the board a placement without a capture leaves,
//! up to its first capture.

pub mod build;
pub mod error;
pub mod format;
pub mod full_board;
pub mod index;
pub mod probe;
pub mod stats;

pub use build::{BuildOptions, BuildReport, Scope, build, build_with};
pub use error::TableError;
pub use format::Entry;
pub use index::Material;
pub use probe::{Probe, Tables, Wdl};
pub use stats::MaterialStats;

/// Tunables of the tables, in one place.
pub mod tunables {
    /// Largest total of balls built when nothing else is asked.
    pub const DEFAULT_MAX_BALLS: u8 = 8;
    /// Largest total of balls the builder accepts (memory grows ~3× a ball).
    pub const MAX_BALLS: u8 = 12;
    /// Threads solving a material (0: one a core).
    pub const BUILD_THREADS: usize = 0;
    /// Bytes scanned at once when looking for one level's positions.
    pub const SCAN_CHUNK: usize = 64;
    /// Positions whose decisions on their predecessors are gathered before
    /// they are applied: bounds the memory held between the two passes.
    pub const PROPAGATE_BLOCK: usize = 1 << 20;
}
