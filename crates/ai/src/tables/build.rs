//! Retrograde analysis of one material pair at a time, by increasing ball
//! count.
//!
//! A quiet move from material `m v o` leads to `o v m` (the other side is to
//! move), so the two are solved together; a capture leads to a smaller,
//! already solved material, read at a full quiet budget since a capture
//! resets the count. The first pass classifies every position from its
//! captures alone: a capture into a lost position (or taking the last ball)
//! wins with DTC 1; a side that cannot step and whose captures all lose (or
//! that cannot act at all: Ndar-Kepp) loses with DTC 1; a capture into a draw
//! means the position can never be lost. Then level by level, each position
//! decided at DTC `d` decides its quiet predecessors: a loss makes every
//! predecessor a win at `d + 1`; a win counts one more refuted step of each
//! predecessor, which is lost at `d + 1` when its last step is refuted.
//! Nothing is decided beyond DTC 120: what is left is drawn, since no quiet
//! budget is long enough to convert it. Both stages run on every core
//! unless [`BuildOptions`] says otherwise; the tables do not depend on how
//! many.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use palabre_rules::yote::QUIET_LIMIT;
use palabre_rules::yote::bitboard::{Bits, Dir, FULL};

use super::index::{self, Material, binomial};
use super::{Entry, MaterialStats, TableError, format, tunables};

/// `pending` value of a position that a capture keeps from losing.
const ESCAPE: u8 = u8::MAX;

/// Solved materials kept in memory for the captures of bigger ones.
type Solved = HashMap<Material, Vec<u8>>;

/// What a build did.
#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    /// Each material, in build order.
    pub materials: Vec<MaterialStats>,
    /// Entries written.
    pub positions: u64,
    /// Bytes written, headers and trailers included.
    pub bytes: u64,
}

/// One material being solved.
#[derive(Debug)]
pub(super) struct Work {
    material: Material,
    /// Each position's [`Cell`], side by side so that deciding a predecessor
    /// costs one cache miss.
    cells: Vec<Cell>,
}

/// The encoded entry (0: undecided until the end, then a draw), and the
/// quiet moves not yet refuted (or [`ESCAPE`]).
type Cell = [u8; 2];

impl Work {
    /// The encoded entries, the work done.
    pub(super) fn into_values(self) -> (Material, Vec<u8>) {
        (self.material, self.cells.iter().map(|c| c[0]).collect())
    }
}

/// Which materials a build solves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every material, for any position a user may set up.
    All,
    /// Only the materials a game from the start can reach
    /// ([`Material::reachable`]): a reachable material's captures lead to
    /// reachable materials, so their tables are the same as in a full
    /// build, for fewer than half the positions up to 10 balls.
    Reachable,
}

impl Scope {
    fn holds(self, material: Material) -> bool {
        self == Scope::All || material.reachable()
    }
}

/// How a build is run; the tables it writes do not depend on `threads` or
/// `block`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildOptions {
    pub scope: Scope,
    /// How many threads; 0 for one a core.
    pub threads: usize,
    /// Positions read by one round of the propagation (see
    /// [`tunables::PROPAGATE_BLOCK`]).
    pub block: usize,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            scope: Scope::All,
            threads: tunables::BUILD_THREADS,
            block: tunables::PROPAGATE_BLOCK,
        }
    }
}

impl BuildOptions {
    fn threads(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }
}

/// Builds every material of at most `max` balls into `dir`, calling
/// `progress` after each material with its counts and the time its pair took.
pub fn build(
    dir: &Path,
    max: u8,
    progress: impl FnMut(&MaterialStats, Duration),
) -> Result<BuildReport, TableError> {
    build_with(dir, max, BuildOptions::default(), progress)
}

/// [`build`], run as `options` say.
pub fn build_with(
    dir: &Path,
    max: u8,
    options: BuildOptions,
    mut progress: impl FnMut(&MaterialStats, Duration),
) -> Result<BuildReport, TableError> {
    if max > tunables::MAX_BALLS {
        return Err(TableError::TooManyBalls {
            asked: max,
            max: tunables::MAX_BALLS,
        });
    }
    // Asked once: every level of every material splits its work this way.
    let options = BuildOptions {
        threads: options.threads(),
        ..options
    };
    fs::create_dir_all(dir).map_err(|e| TableError::io(dir, e))?;
    let mut solved = Solved::new();
    let mut report = BuildReport::default();
    for total in 2..=max {
        solved.retain(|m, _| m.total() + 2 >= total);
        for mover in 1..=total / 2 {
            let first = Material::new(mover, total - mover).expect("1 to 12 balls a side");
            if !options.scope.holds(first) {
                continue;
            }
            let group = if first.mover == first.other {
                vec![first]
            } else {
                vec![first, first.swapped()]
            };
            let start = Instant::now();
            let judge =
                |m: Material, mover: u32, other: u32| best_capture(m, mover, other, &solved);
            for work in solve(&group, &judge, &options) {
                let (material, values) = work.into_values();
                report.bytes += format::write(dir, material, &values)?;
                report.positions += values.len() as u64;
                let stats = MaterialStats::of(material, &values);
                progress(&stats, start.elapsed());
                report.materials.push(stats);
                if total + 2 <= max {
                    solved.insert(material, values);
                }
            }
        }
    }
    Ok(report)
}

/// How the first pass judges a position's captures: the best any of them
/// achieves for the capturer.
pub(super) type Judge<'a> = dyn Fn(Material, u32, u32) -> CaptureBest + Sync + 'a;

/// Solves a material and, if different, its swap, judging captures with
/// `judge`.
pub(super) fn solve(group: &[Material], judge: &Judge, options: &BuildOptions) -> Vec<Work> {
    let mut work: Vec<Work> = group
        .iter()
        .map(|&m| first_pass(m, judge, options.threads()))
        .collect();
    let slot = |m: Material| {
        group
            .iter()
            .position(|&g| g == m)
            .expect("pair solved together")
    };
    for level in 1..QUIET_LIMIT {
        let mut found = false;
        for from in 0..work.len() {
            let to = slot(work[from].material.swapped());
            found |= propagate(&mut work, from, to, level, options);
        }
        if !found {
            break;
        }
    }
    work
}

/// Classifies every position of `material` from its captures and step count.
fn first_pass(material: Material, judge: &Judge, threads: usize) -> Work {
    let size = usize::try_from(material.size()).expect("fits in memory");
    let block = material.block();
    let movers = binomial(index::HOLES, material.mover.into());
    let mut cells = vec![[0u8; 2]; size];
    let per = movers.div_ceil(threads as u64);
    let chunk = usize::try_from(per * block).expect("fits in memory");
    std::thread::scope(|scope| {
        for (part, cells) in (0u64..).zip(cells.chunks_mut(chunk)) {
            let ranks = part * per..((part + 1) * per).min(movers);
            let base = part * per * block;
            scope.spawn(move || {
                index::for_each(material, ranks, |i, mover, other| {
                    cells[(i - base) as usize] = classify(material, mover, other, judge);
                });
            });
        }
    });
    Work { material, cells }
}

/// The best a capture achieves, from the capturer's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum CaptureBest {
    /// No capture, or every capture loses.
    Nothing,
    Draw,
    Win,
}

/// The first-pass cell of a position.
fn classify(material: Material, mover: u32, other: u32, judge: &Judge) -> Cell {
    let empty = FULL & !(mover | other);
    let steps: u32 = Dir::ALL
        .iter()
        .map(|d| (d.shift(mover) & empty).count_ones())
        .sum();
    match judge(material, mover, other) {
        CaptureBest::Win => [Entry::Win(1).encode(), 0],
        CaptureBest::Draw => [0, ESCAPE],
        CaptureBest::Nothing if steps == 0 => [Entry::Loss(1).encode(), 0],
        CaptureBest::Nothing => [0, steps as u8],
    }
}

fn best_capture(material: Material, mover: u32, other: u32, solved: &Solved) -> CaptureBest {
    let mut best = CaptureBest::Nothing;
    for (capturer, left) in jumps(mover, other) {
        let Some(child) = material.after_capture() else {
            return CaptureBest::Win;
        };
        let table = &solved[&child];
        for second in Bits(left) {
            let victim = left & !(1 << second);
            match Entry::decode(table[child.index(victim, capturer) as usize]) {
                Some(Entry::Loss(_)) => return CaptureBest::Win,
                Some(Entry::Draw) => best = CaptureBest::Draw,
                _ => {}
            }
        }
    }
    best
}

/// Each jump of the side to move: its balls after the jump, and the other
/// side's balls left before the second ball is chosen.
pub(super) fn jumps(mover: u32, other: u32) -> impl Iterator<Item = (u32, u32)> {
    let empty = FULL & !(mover | other);
    Dir::ALL.into_iter().flat_map(move |dir| {
        Bits(dir.shift(dir.shift(mover) & other) & empty).map(move |to| {
            let (to, delta) = (i32::from(to), i32::from(dir.delta()));
            (
                mover ^ 1 << (to - 2 * delta) ^ 1 << to,
                other & !(1 << (to - delta)),
            )
        })
    })
}

/// Decides the predecessors (in `work[to]`) of the positions of `work[from]`
/// decided at `level`; whether it reached any predecessor.
///
/// A block of `from` is read in two passes, so that the threads work without
/// locks even when `from` and `to` are one table: first each thread turns
/// the hits of its share of the block into predecessor indexes, sorted by the
/// share of `to` that holds them; then each thread applies the decisions that
/// fall in its own share. The order in which a level's decisions land does
/// not change the result.
fn propagate(work: &mut [Work], from: usize, to: usize, level: u8, options: &BuildOptions) -> bool {
    let (material, target) = (work[from].material, work[to].material);
    let (threads, step) = (options.threads(), options.block.max(1));
    let share = work[to].cells.len().div_ceil(threads);
    let mut decisions = vec![vec![Vec::<u64>::new(); threads]; threads];
    let mut found = false;
    let len = work[from].cells.len();
    for start in (0..len).step_by(step) {
        let block = &work[from].cells[start..(start + step).min(len)];
        let per = block
            .len()
            .div_ceil(threads)
            .next_multiple_of(tunables::SCAN_CHUNK);
        std::thread::scope(|scope| {
            for (part, out) in decisions.iter_mut().enumerate() {
                let first = (part * per).min(block.len());
                let cells = &block[first..((part + 1) * per).min(block.len())];
                let base = start + first;
                scope.spawn(move || gather(cells, base, material, target, level, share, out));
            }
        });
        if decisions.iter().flatten().all(Vec::is_empty) {
            continue;
        }
        found = true;
        let gathered = &decisions;
        std::thread::scope(|scope| {
            for (part, cells) in work[to].cells.chunks_mut(share).enumerate() {
                scope.spawn(move || {
                    for d in gathered.iter().flat_map(|out| &out[part]) {
                        let p = (d & !LOST) as usize - part * share;
                        decide(cells, p, d & LOST != 0, level + 1);
                    }
                });
            }
        });
        decisions.iter_mut().flatten().for_each(Vec::clear);
    }
    found
}

/// Flag of a decision whose child is lost for the side to move there.
const LOST: u64 = 1 << 63;

/// The decisions that the positions of `cells` (the first at index `base`)
/// decided at `level` make on their predecessors, by share of `to`.
fn gather(
    cells: &[Cell],
    base: usize,
    material: Material,
    target: Material,
    level: u8,
    share: usize,
    out: &mut [Vec<u64>],
) {
    let (win, loss) = (Entry::Win(level).encode(), Entry::Loss(level).encode());
    for (offset, chunk) in (0..)
        .step_by(tunables::SCAN_CHUNK)
        .zip(cells.chunks(tunables::SCAN_CHUNK))
    {
        for bit in Bits64(hit_mask(chunk, win, loss)) {
            let flag = if chunk[bit][0] == loss { LOST } else { 0 };
            let (mover, other) = material.unindex((base + offset + bit) as u64);
            predecessors(mover, other, |before| {
                let p = target.index(before, mover);
                out[p as usize / share].push(p | flag);
            });
        }
    }
}

/// Bit `i` set when the entry of `chunk[i]` is `a` or `b`.
fn hit_mask(chunk: &[Cell], a: u8, b: u8) -> u64 {
    // Without a short cut, so that the common miss compiles to vector code.
    if !chunk
        .iter()
        .fold(false, |any, c| any | (c[0] == a) | (c[0] == b))
    {
        return 0;
    }
    chunk
        .iter()
        .enumerate()
        .filter(|&(_, c)| c[0] == a || c[0] == b)
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// Records that predecessor `p` has a quiet move into a position lost
/// (`child_lost`) or won for the side then to move.
fn decide(cells: &mut [Cell], p: usize, child_lost: bool, level: u8) {
    let [value, pending] = &mut cells[p];
    if *value != 0 {
        return;
    }
    if child_lost {
        *value = Entry::Win(level).encode();
        return;
    }
    if *pending == ESCAPE {
        return;
    }
    *pending -= 1;
    if *pending == 0 {
        *value = Entry::Loss(level).encode();
    }
}

/// Calls `f(mover_before)` for each step the side that just moved (`other`)
/// could have made into this position; the side to move before is `other`
/// with one ball taken back, and the side to move now becomes the other.
fn predecessors(mover: u32, other: u32, mut f: impl FnMut(u32)) {
    let empty = FULL & !(mover | other);
    for dir in Dir::ALL {
        for back in Bits(dir.shift(other) & empty) {
            let now = i32::from(back) - i32::from(dir.delta());
            f(other ^ 1 << now ^ 1 << back);
        }
    }
}

/// Iterates the set bits of a `u64`, lowest first.
struct Bits64(u64);

impl Iterator for Bits64 {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            i
        })
    }
}
