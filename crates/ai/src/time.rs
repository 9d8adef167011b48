//! Deadlines from a time budget.
//!
//! A search stops hard at `budget − margin`; it does not start a new
//! iteration once half the budget is gone, since the next iteration usually
//! takes longer than all the previous ones together.

use std::time::Duration;

// A browser has no monotonic clock in std: `performance.now()` stands in.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;

use crate::Params;

#[derive(Debug, Clone, Copy)]
pub struct Clock {
    start: Instant,
    hard: Option<Instant>,
    soft: Option<Instant>,
}

impl Clock {
    pub fn new(budget: Option<Duration>, params: &Params) -> Clock {
        let start = Instant::now();
        let hard = budget.map(|b| {
            let margin = (b / 20).max(Duration::from_millis(params.time_margin_ms));
            start + b.saturating_sub(margin)
        });
        let soft = budget.map(|b| start + b.mul_f64(params.soft_time_fraction));
        Clock { start, hard, soft }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the search must stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// Whether a new iteration should not be started.
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| Instant::now() >= s)
    }
}
