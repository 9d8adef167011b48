//! The transposition table, shared by every thread of a search (Lazy SMP).
//!
//! Each slot is two atomics: the entry packed into one word, and the
//! position's key xor that word. A reader that sees halves of two different
//! writes gets a key that matches neither position and treats the slot as
//! empty, so threads never lock and never read a torn entry as valid.
//!
//! Every search starts from an empty table, but wiping 16 MB took a
//! noticeable part of a 10 ms move. So each entry carries the search's
//! generation, an entry of another generation reads as empty, and `clear`
//! only moves to the next generation. A generation number comes back
//! after [`GENERATIONS`] searches, so each `clear` also wipes one of
//! [`SLICES`] slices of the table in turn: every slot is wiped before its
//! number comes back, and no search pays for the whole table at once (a
//! full wipe took 2 to 9.5 ms, more than a whole move at 2 ms).

use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score bounds the true score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    /// A move key (see `SearchGame::key`): at most 24 bits.
    pub best: Option<u32>,
    /// Within ±2^22: wins are encoded near ±1,000,000.
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
}

const MOVE_BITS: u32 = 24;
const SCORE_BITS: u32 = 23;
const SCORE_SHIFT: u32 = MOVE_BITS + 1;
const DEPTH_SHIFT: u32 = SCORE_SHIFT + SCORE_BITS;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + 8;
const GENERATION_SHIFT: u32 = BOUND_SHIFT + 2;
/// Generations told apart by the six bits left in the packed word.
const GENERATIONS: u64 = 1 << (64 - GENERATION_SHIFT);
/// `clear` wipes one slice of this many in turn (at most: a small table
/// has fewer): fewer than the generations, so a slot is wiped before its
/// generation number returns.
const SLICES: usize = 60;
const _: () = assert!((SLICES as u64) < GENERATIONS - 1);

impl Entry {
    /// The entry in one word: move (24 bits), whether there is one, score,
    /// depth, bound, generation. The bound is never 0, so 0 means empty.
    fn pack(&self, generation: u64) -> u64 {
        let (has, best) = match self.best {
            Some(m) => (1u64, u64::from(m) & ((1 << MOVE_BITS) - 1)),
            None => (0, 0),
        };
        let score = (self.score as u64) & ((1 << SCORE_BITS) - 1);
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        best | has << MOVE_BITS
            | score << SCORE_SHIFT
            | u64::from(self.depth) << DEPTH_SHIFT
            | bound << BOUND_SHIFT
            | generation << GENERATION_SHIFT
    }

    fn unpack(key: u64, data: u64, generation: u64) -> Option<Entry> {
        if data >> GENERATION_SHIFT != generation {
            return None;
        }
        let bound = match (data >> BOUND_SHIFT) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let best = ((data >> MOVE_BITS) & 1 == 1).then_some((data & ((1 << MOVE_BITS) - 1)) as u32);
        // Sign-extend the score from its field.
        let raw = ((data >> SCORE_SHIFT) & ((1 << SCORE_BITS) - 1)) as i32;
        let score = (raw << (32 - SCORE_BITS)) >> (32 - SCORE_BITS);
        Some(Entry {
            key,
            best,
            score,
            depth: (data >> DEPTH_SHIFT) as u8,
            bound,
        })
    }
}

#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A fixed-size table indexed by the hash, replaced when the new result is
/// at least as deep or from another position.
#[derive(Debug)]
pub struct Table {
    slots: Vec<Slot>,
    mask: usize,
    /// The current search's generation, 1 to `GENERATIONS - 1` (an empty
    /// slot's word is 0, generation 0).
    generation: u64,
    /// Where the slice the next `clear` wipes starts.
    wipe_from: usize,
}

impl Table {
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits;
        Table {
            slots: (0..len).map(|_| Slot::default()).collect(),
            mask: len - 1,
            generation: 1,
            wipe_from: 0,
        }
    }

    /// Writes one slot of each memory page, so that the operating system
    /// maps the whole table now (an allocation of zeros is only promised)
    /// rather than page by page while the first searches are timed. Atomic
    /// stores, since plain stores of zeros into fresh zeroed memory may be
    /// optimised away.
    pub fn commit(&self) {
        const PAGE: usize = 4096;
        let step = (PAGE / std::mem::size_of::<Slot>()).max(1);
        for slot in self.slots.iter().step_by(step) {
            slot.check.store(0, Ordering::Relaxed);
        }
    }

    /// Empties the table for a new search: every entry written before
    /// reads as empty from now on.
    pub fn clear(&mut self) {
        self.generation = self.generation % (GENERATIONS - 1) + 1;
        let all = self.slots.len();
        let end = (self.wipe_from + all.div_ceil(SLICES)).min(all);
        for slot in &mut self.slots[self.wipe_from..end] {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
        self.wipe_from = if end == all { 0 } else { end };
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[key as usize & self.mask]
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        if slot.check.load(Ordering::Relaxed) ^ data != key {
            return None;
        }
        Entry::unpack(key, data, self.generation)
    }

    pub fn store(&self, entry: Entry) {
        let slot = self.slot(entry.key);
        let old = self.probe(entry.key);
        if old.is_some_and(|old| entry.depth < old.depth) {
            return;
        }
        let data = entry.pack(self.generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(entry.key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, best: Option<u32>, score: i32, depth: u8, bound: Bound) -> Entry {
        Entry {
            key,
            best,
            score,
            depth,
            bound,
        }
    }

    #[test]
    fn entries_round_trip_through_the_packed_word() {
        let t = Table::new(4);
        for e in [
            entry(17, Some(0xff_ffff), -999_950, 63, Bound::Upper),
            entry(18, None, 1_000_000, 0, Bound::Exact),
            entry(19, Some(1 << 16 | 5), -3, 12, Bound::Lower),
        ] {
            t.store(e);
            assert_eq!(t.probe(e.key), Some(e));
        }
    }

    #[test]
    fn a_shallower_result_keeps_the_deeper_one_of_the_same_position() {
        let t = Table::new(4);
        t.store(entry(5, Some(1), 10, 6, Bound::Exact));
        t.store(entry(5, Some(2), 20, 3, Bound::Exact));
        assert_eq!(t.probe(5).map(|e| e.best), Some(Some(1)));
        // Another position in the same slot replaces it.
        t.store(entry(5 + 16, Some(3), 30, 1, Bound::Lower));
        assert_eq!(t.probe(5), None);
        assert_eq!(t.probe(21).map(|e| e.score), Some(30));
    }

    #[test]
    fn a_torn_slot_reads_as_empty() {
        let t = Table::new(4);
        t.store(entry(7, Some(1), 10, 6, Bound::Exact));
        let other = entry(7 + 16, Some(9), -40, 2, Bound::Lower).pack(t.generation);
        // Half of another write lands: the check word no longer matches.
        t.slot(7).data.store(other, Ordering::Relaxed);
        assert_eq!(t.probe(7), None);
        assert_eq!(t.probe(23), None);
    }

    #[test]
    fn a_cleared_table_forgets_everything_through_every_generation() {
        let mut t = Table::new(4);
        // Written once, in the first generation, and never overwritten: it
        // must not come back when the generation numbers wrap around.
        t.store(entry(3, Some(1), 10, 7, Bound::Exact));
        for round in 0..2 * GENERATIONS {
            t.clear();
            assert_eq!(t.probe(3), None, "round {round}");
            t.store(entry(4, Some(2), 20, 5, Bound::Lower));
            assert_eq!(t.probe(4).map(|e| e.best), Some(Some(2)));
        }
    }

    #[test]
    fn an_entry_of_an_earlier_search_never_blocks_a_shallower_store() {
        let mut t = Table::new(4);
        t.store(entry(9, Some(1), 10, 40, Bound::Exact));
        t.clear();
        t.store(entry(9, Some(2), 20, 1, Bound::Lower));
        assert_eq!(t.probe(9).map(|e| e.best), Some(Some(2)));
    }

    #[test]
    fn a_new_search_wipes_one_slice_never_the_whole_table() {
        let mut t = Table::new(6);
        let used = |t: &Table| {
            t.slots
                .iter()
                .filter(|s| s.data.load(Ordering::Relaxed) != 0)
                .count()
        };
        for round in 0..3 * GENERATIONS {
            for key in 0..64 {
                t.store(entry(key, Some(1), 10, 7, Bound::Exact));
            }
            t.clear();
            // 64 slots make 32 slices of 2.
            assert_eq!(used(&t), 62, "round {round}");
        }
    }
}
