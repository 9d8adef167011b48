//! Nsolo: four rows of N pits (8 ≤ N ≤ 36), relay sowing, a front capture
//! followed by a free sweep of as many stones.
//!
//! Internally each side's two rows are one circular array in sowing order
//! (its circuit). [`Pit`] names a pit absolutely (`A1`…`D36`); [`Position`]
//! sows, captures and detects endless sowings exactly; a [`Move`] is an origin
//! plus the [`Bonus`] it sweeps. Bonus choices can run into the millions, so
//! they are enumerated lazily ([`Distributions`]) and counted by a dynamic
//! programme ([`count_distributions`]) rather than listed.

mod bonus;
mod keys;
mod moves;
mod perft;
mod pit;
mod position;
mod setup;
mod sowing;
mod trace;

pub use bonus::{Bonus, Distributions, count_distributions};
pub use moves::Move;
pub use perft::{perft, perft_divide};
pub use pit::{Pit, Row};
pub use position::{Origin, OriginList, Position, Side};
pub use setup::Setup;
pub use sowing::{Sowing, Sown};
pub use trace::Step;

/// Smallest number of pits in a row.
pub const MIN_SIZE: u8 = 8;
/// Largest number of pits in a row.
pub const MAX_SIZE: u8 = 36;
/// Pits in one side's circuit on the largest board.
pub(crate) const MAX_CIRCUIT: usize = 2 * MAX_SIZE as usize;

/// Stones each side starts with on a board of `size` columns: `4N − 2`.
pub const fn start_stones(size: u8) -> u32 {
    4 * size as u32 - 2
}

/// The opponent's circuit index of the inner pit facing circuit index `i`
/// on a board of `size` columns, or `None` when `i` is in the outer row.
/// Both inner rows run in opposite directions, so the first inner pit of
/// one circuit faces the last of the other.
///
/// ```
/// use palabre_rules::nsolo::facing;
/// assert_eq!(facing(8, 8), Some(15));
/// assert_eq!(facing(8, 15), Some(8));
/// assert_eq!(facing(8, 7), None);
/// ```
pub const fn facing(size: u8, i: usize) -> Option<usize> {
    let n = size as usize;
    if i >= n && i < 2 * n {
        Some(3 * n - 1 - i)
    } else {
        None
    }
}
