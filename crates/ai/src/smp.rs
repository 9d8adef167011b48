//! Lazy SMP: more threads on one search.
//!
//! Helper threads run the same iterative deepening on the shared
//! transposition table, starting one or more iterations deeper than the main
//! thread so that they fill the table with results the main thread is about
//! to need. The helpers stop as soon as the main thread answers; its answer
//! counts unless a helper finished a deeper iteration. With one thread this
//! is exactly the plain search.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::search::{Info, SearchResult, Searcher};
use crate::time::Clock;
use crate::tt::Table;
use crate::{Limits, Params, SearchGame};

/// Everything a search thread starts from.
pub struct Job<'a, G: SearchGame> {
    pub game: &'a G,
    pub params: &'a Params,
    pub tt: &'a Table,
    pub stop: &'a AtomicBool,
    pub limits: &'a Limits,
    pub clock: Clock,
    pub history: &'a [u64],
    pub quiescence: bool,
}

impl<G: SearchGame> std::fmt::Debug for Job<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("limits", self.limits)
            .field("quiescence", &self.quiescence)
            .finish()
    }
}

/// Searches `root` on `threads` threads (at least one) and answers with the
/// deepest finished iteration (the main thread's on a tie); `nodes` counts
/// every thread's.
pub fn search<G>(
    job: &Job<'_, G>,
    root: &G::Position,
    threads: usize,
    report: impl FnMut(&Info<G::Move>),
) -> SearchResult<G::Move>
where
    G: SearchGame + Sync,
    G::Position: Sync,
{
    // No scoped thread for a single one: the browser's engine has none.
    if threads <= 1 {
        return main_search(job, root, report);
    }
    let helpers_stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|id| {
                let helpers_stop = &helpers_stop;
                scope.spawn(move || helper(job, root, id, helpers_stop))
            })
            .collect();
        let mut result = main_search(job, root, report);
        helpers_stop.store(true, Ordering::Relaxed);
        let mut nodes = result.nodes;
        for h in helpers {
            // A helper that panicked only loses its share.
            let Ok(found) = h.join() else { continue };
            nodes += found.nodes;
            // A helper that finished a deeper iteration saw further.
            if found.depth > result.depth && found.best.is_some() {
                result = found;
            }
        }
        result.nodes = nodes;
        result
    })
}

/// The main thread: the job's own limits and clock, reporting each iteration.
fn main_search<G: SearchGame>(
    job: &Job<'_, G>,
    root: &G::Position,
    report: impl FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let mut main = Searcher::new(
        job.game,
        job.params,
        job.tt,
        job.stop,
        job.limits,
        job.clock,
        job.history,
    );
    main.quiescence = job.quiescence;
    main.run(root, job.limits.depth(), report)
}

/// One helper: deepens without a deadline of its own until told to stop.
fn helper<G: SearchGame>(
    job: &Job<'_, G>,
    root: &G::Position,
    id: usize,
    stop: &AtomicBool,
) -> SearchResult<G::Move> {
    let unbounded = Limits::new();
    let mut searcher = Searcher::new(
        job.game,
        job.params,
        job.tt,
        stop,
        &unbounded,
        Clock::new(None, job.params),
        job.history,
    );
    searcher.quiescence = job.quiescence;
    searcher.first_depth = 1 + id as u32 % 2 + id as u32 / 2;
    searcher.run(root, job.limits.depth(), |_| {})
}
