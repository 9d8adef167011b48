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

    /// The same bounds once `spent` has gone from every time they give
    /// (a movetime, a clock), as when the request waited that long.
    pub fn after(self, spent: Duration) -> Limits {
        let less = |limit| match limit {
            SearchLimit::MoveTime(t) => SearchLimit::MoveTime(t.saturating_sub(spent)),
            SearchLimit::Clock { left, increment } => SearchLimit::Clock {
                left: left.saturating_sub(spent),
                increment,
            },
            other => other,
        };
        Limits(self.0.into_iter().map(less).collect())
    }

    /// Whether nothing bounds the search (it then runs until stopped).
    pub fn is_infinite(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_spent_comes_off_the_movetime_and_the_clock_only() {
        let ms = Duration::from_millis;
        let limits = Limits::new()
            .with(SearchLimit::MoveTime(ms(100)))
            .with(SearchLimit::Clock {
                left: ms(5_000),
                increment: ms(50),
            })
            .with(SearchLimit::Nodes(1_000))
            .with(SearchLimit::Depth(7));
        let later = limits.after(ms(30));
        assert_eq!(later.movetime(), Some(ms(70)));
        assert_eq!(later.clock(), Some((ms(4_970), ms(50))));
        assert_eq!((later.nodes(), later.depth()), (Some(1_000), Some(7)));
        let spent = later.after(ms(500));
        assert_eq!(spent.movetime(), Some(Duration::ZERO));
        assert_eq!(spent.clock(), Some((ms(4_470), ms(50))));
    }
}
