//! Deadlines from a time budget.
//!
//! A search stops hard at `budget − margin`; it does not start a new
//! iteration once `soft_time_fraction` of the budget is gone, since the next
//! iteration usually takes longer than all the previous ones together.

use std::time::Duration;

// A browser has no monotonic clock in std: `performance.now()` stands in.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;

use crate::Params;

/// The time kept back from a budget for the answer's way out and the
/// nodes searched before the clock is read again: 5 %, or
/// `time_margin_ms` but never more than a quarter of the budget. A fixed
/// 15 ms left nothing of a 10 ms budget, and Expert played at depth 1.
fn margin(budget: Duration, params: &Params) -> Duration {
    let fixed = Duration::from_millis(params.time_margin_ms).min(budget / 4);
    (budget / 20).max(fixed)
}

#[derive(Debug, Clone, Copy)]
pub struct Clock {
    start: Instant,
    hard: Option<Instant>,
    soft: Option<Instant>,
}

impl Clock {
    pub fn new(budget: Option<Duration>, params: &Params) -> Clock {
        let start = Instant::now();
        let hard = budget.map(|b| start + b.saturating_sub(margin(b, params)));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn hard_after(ms: u64) -> Duration {
        let clock = Clock::new(Some(Duration::from_millis(ms)), &Params::default());
        clock.hard.expect("a deadline") - clock.start
    }

    #[test]
    fn a_short_budget_keeps_three_quarters_of_its_time() {
        assert_eq!(hard_after(10), Duration::from_micros(7_500));
        assert_eq!(hard_after(30), Duration::from_micros(22_500));
    }

    #[test]
    fn a_long_budget_keeps_back_the_fixed_margin_or_five_percent() {
        assert_eq!(hard_after(100), Duration::from_millis(85));
        assert_eq!(hard_after(1_000), Duration::from_millis(950));
    }
}
