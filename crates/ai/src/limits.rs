//! Search limits are data: a list of bounds, the first reached stops the
//! search.

use std::time::Duration;

/// One bound on a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchLimit {
    /// Complete iterations up to this depth at most.
    Depth(u32),
    /// Answer within this time.
    MoveTime(Duration),
    /// Stop after about this many nodes.
    Nodes(u64),
    /// The mover's game clock: the time it has left and the increment
    /// added after its move. The searches read time only as a movetime:
    /// [`crate::game_clock::with_budget`] adds the move's share as one.
    Clock { left: Duration, increment: Duration },
}

/// Bounds that combine: the tightest of each kind applies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits(pub Vec<SearchLimit>);

impl Limits {
    pub fn new() -> Limits {
        Limits(Vec::new())
    }

    pub fn with(mut self, limit: SearchLimit) -> Limits {
        self.0.push(limit);
        self
    }

    /// The least of the values `pick` reads off the limits of one kind.
    fn tightest<T: Ord>(&self, pick: impl Fn(&SearchLimit) -> Option<T>) -> Option<T> {
        self.0.iter().filter_map(pick).min()
    }

    pub fn depth(&self) -> Option<u32> {
        self.tightest(|l| match l {
            SearchLimit::Depth(d) => Some(*d),
            _ => None,
        })
    }

    pub fn movetime(&self) -> Option<Duration> {
        self.tightest(|l| match l {
            SearchLimit::MoveTime(t) => Some(*t),
            _ => None,
        })
    }

    pub fn nodes(&self) -> Option<u64> {
        self.tightest(|l| match l {
            SearchLimit::Nodes(n) => Some(*n),
            _ => None,
        })
    }

    /// The tightest clock given: the least time left, with its increment.
    pub fn clock(&self) -> Option<(Duration, Duration)> {
        self.tightest(|l| match l {
            SearchLimit::Clock { left, increment } => Some((*left, *increment)),
            _ => None,
        })
    }

    /// Whether nothing bounds the search (it then runs until stopped).
    pub fn is_infinite(&self) -> bool {
        self.0.is_empty()
    }
}
