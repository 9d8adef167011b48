//! The transposition table: one entry per slot, replaced when the new result
//! is at least as deep or from another position.

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
    pub best: Option<u32>,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
}

/// A fixed-size, always-replace-if-deeper table indexed by the hash.
#[derive(Debug)]
pub struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits;
        Table {
            slots: vec![None; len],
            mask: len - 1,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill(None);
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[key as usize & self.mask].filter(|e| e.key == key)
    }

    pub fn store(&mut self, entry: Entry) {
        let slot = &mut self.slots[entry.key as usize & self.mask];
        if slot.is_none_or(|old| old.key != entry.key || entry.depth >= old.depth) {
            *slot = Some(entry);
        }
    }
}
