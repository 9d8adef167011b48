//! The full board: every position of 12 balls against 12 with one empty
//! hole and both reserves empty. That is the board a placement without a
//! capture leaves, and Red, who placed first, must make the first move
//! on it.
//!
//! It is solved by the endgame tables' retrograde analysis with one
//! difference. A capture from a full board leads to 12 balls against 10
//! on three holes, far beyond any table, so the first pass judges a
//! capture by the board it leaves. A capture is *clean* when some choice
//! of second ball leaves the victim no jump back: that counts as a win.
//! When every choice lets the victim jump back, the capture is an
//! exchange, and it counts as a draw. A win here therefore means that the
//! side to move can force a clean capture, or shut the other side in
//! (Ndar-Kepp), within its DTC. That is a strong advantage, not a won
//! game: a clean capture can still lose to a quiet reply, which is why
//! Expert's search does not read this table (docs/strength.md, "The full
//! board"). A draw means that neither side can force either before the
//! quiet-move draw. `palabre tables probe` reads it.

use std::path::{Path, PathBuf};

use palabre_rules::yote::bitboard::{Bits, Dir, FULL};
use palabre_rules::yote::{Color, Position};

use super::build::{self, CaptureBest};
use super::{BuildOptions, Material, MaterialStats, TableError, format};

/// The file in a tables directory.
pub const FILE_NAME: &str = "yote-full-board.tbl";

/// Twelve balls a side: every ball placed, none taken.
pub const MATERIAL: Material = Material {
    mover: 12,
    other: 12,
};

/// The file of the full board in `dir`.
pub fn path(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

/// Solves the full board and writes it to `dir`; its counts and the bytes
/// written.
pub fn build(dir: &Path, options: BuildOptions) -> Result<(MaterialStats, u64), TableError> {
    std::fs::create_dir_all(dir).map_err(|e| TableError::io(dir, e))?;
    let judge = |_: Material, mover: u32, other: u32| clean_capture(mover, other);
    let work = build::solve(&[MATERIAL], &judge, &options);
    let (_, values) = work.into_iter().next().expect("one material").into_values();
    let bytes = format::write_to(&path(dir), MATERIAL, &values)?;
    Ok((MaterialStats::of(MATERIAL, &values), bytes))
}

/// Reads and checks the full board's entries from `dir`.
pub fn read(dir: &Path) -> Result<Vec<u8>, TableError> {
    format::read_from(&path(dir), MATERIAL)
}

/// The index of a full board (the mover's holes, the other's), or `None`
/// for any other position.
pub fn index(position: &Position) -> Option<u64> {
    if position.reserve(Color::Red) + position.reserve(Color::Black) != 0
        || position.empty().count_ones() != 1
    {
        return None;
    }
    let (me, them) = (position.turn(), position.turn().other());
    // One hole and no reserve: 24 balls, 12 a side.
    Some(MATERIAL.index(position.balls(me), position.balls(them)))
}

/// Whether `jumper` has a jump over `victim`.
fn can_jump(jumper: u32, victim: u32) -> bool {
    let empty = FULL & !(jumper | victim);
    Dir::ALL
        .iter()
        .any(|d| d.jump_landings(jumper, victim, empty) != 0)
}

/// The best capture of the side to move: clean if some second ball leaves
/// the victim no jump, else an exchange (a draw).
fn clean_capture(mover: u32, other: u32) -> CaptureBest {
    let mut best = CaptureBest::Nothing;
    for (capturer, left) in build::jumps(mover, other) {
        if Bits(left).any(|second| !can_jump(left & !(1 << second), capturer)) {
            return CaptureBest::Win;
        }
        best = CaptureBest::Draw;
    }
    best
}

/// The full board built once for the crate's tests (about 10 s).
#[cfg(test)]
pub(crate) fn built_for_tests() -> &'static Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        build(dir.path(), BuildOptions::default()).unwrap();
        dir
    })
    .path()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

    use super::*;
    use crate::tables::Entry;

    fn holes(position: &str) -> (u32, u32) {
        let p: Position = position.parse().unwrap();
        (p.balls(p.turn()), p.balls(p.turn().other()))
    }

    #[test]
    fn a_capture_is_clean_only_when_a_second_ball_stops_every_jump_back() {
        // No red ball can jump into the hole e1.
        let (red, black) = holes("brbbb/brbrb/rrbbr/rbbrr/brrr1 0 0 r 30");
        assert_eq!(clean_capture(red, black), CaptureBest::Nothing);
        // e4xe2: of the eleven second balls, only e1 leaves Black no jump.
        let (red, black) = holes("rrrrb/bbrrr/rrbbb/brbb1/bbrrb 0 0 r 30");
        assert_eq!(clean_capture(red, black), CaptureBest::Win);
        let e1 = 1 << 4;
        assert!(!can_jump(black & !(1 << 14) & !e1, red ^ 1 << 19 ^ 1 << 9));
        assert!(can_jump(
            black & !(1 << 14) & !(1 << 0),
            red ^ 1 << 19 ^ 1 << 9
        ));
        // c3xc5: whichever second ball goes, Black jumps back.
        let (red, black) = holes("bb1rb/brbbr/rrrrr/brbbr/bbbrr 0 0 r 30");
        assert_eq!(clean_capture(red, black), CaptureBest::Draw);
    }

    #[test]
    fn only_a_full_board_has_an_index() {
        let full: Position = "bb1rb/brbbr/rrrrr/brbbr/bbbrr 0 0 r 30".parse().unwrap();
        assert!(index(&full).is_some_and(|i| i < MATERIAL.size()));
        let placing: Position = "bb1rb/brbbr/rrrrr/brbbr/bbbr1 1 0 r 30".parse().unwrap();
        assert_eq!(index(&placing), None);
        let start = Position::default();
        assert_eq!(index(&start), None);
    }

    /// Whether the side to move can force a clean capture or Ndar-Kepp
    /// within `plies`, by plain exhaustive search.
    fn wins_within(mover: u32, other: u32, plies: u8) -> bool {
        plies > 0
            && (clean_capture(mover, other) == CaptureBest::Win
                || steps(mover, other).any(|after| loses_within(other, after, plies - 1)))
    }

    /// Whether the side to move is shut in or refuted within `plies`.
    fn loses_within(mover: u32, other: u32, plies: u8) -> bool {
        plies > 0
            && clean_capture(mover, other) == CaptureBest::Nothing
            && steps(mover, other).all(|after| wins_within(other, after, plies - 1))
    }

    /// The mover's holes after each of its steps.
    fn steps(mover: u32, other: u32) -> impl Iterator<Item = u32> {
        let empty = FULL & !(mover | other);
        Dir::ALL.into_iter().flat_map(move |d| {
            let back = match d {
                Dir::North => Dir::South,
                Dir::South => Dir::North,
                Dir::East => Dir::West,
                Dir::West => Dir::East,
            };
            Bits(d.shift(mover) & empty).map(move |to| mover ^ 1 << to ^ back.shift(1 << to))
        })
    }

    #[test]
    fn the_table_agrees_with_a_plain_search_of_the_first_plies() {
        let tables = crate::tables::Tables::open(built_for_tests()).unwrap();
        tables.preload().unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(12);
        let mut seen = [0; 3];
        for _ in 0..400 {
            let mut holes: Vec<u32> = (0..25).collect();
            holes.shuffle(&mut rng);
            let set = |h: &[u32]| h.iter().fold(0u32, |s, &i| s | 1 << i);
            let (mover, other) = (set(&holes[1..13]), set(&holes[13..]));
            let index = MATERIAL.index(mover, other) as usize;
            let bytes = tables.full_board_entries().unwrap().unwrap();
            let entry = Entry::decode(bytes[index]).unwrap();
            for plies in 0..=5 {
                let (win, loss) = match entry {
                    Entry::Win(d) => (d <= plies, false),
                    Entry::Loss(d) => (false, d <= plies),
                    Entry::Draw => (false, false),
                };
                assert_eq!(
                    wins_within(mover, other, plies),
                    win,
                    "{entry:?} at {plies}"
                );
                assert_eq!(
                    loses_within(mover, other, plies),
                    loss,
                    "{entry:?} at {plies}"
                );
            }
            seen[match entry {
                Entry::Win(1) => 0,
                Entry::Draw => 2,
                _ => 1,
            }] += 1;
        }
        assert!(seen.iter().all(|&n| n > 10), "every kind met: {seen:?}");
    }
}
