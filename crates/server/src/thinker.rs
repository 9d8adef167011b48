//! Every search the server runs (the machine's moves, hints, draw
//! decisions) goes through here: two bounded pools of search threads, so a
//! quick search never waits behind a queue of Expert searches, and a full
//! queue is an answer (`busy`) rather than a new thread. When a deep
//! thread would idle, Expert thinks on its opponent's time there.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use palabre_ai::pool::{Busy, GameKey, Pool};
use palabre_ai::tables::Tables;
use palabre_ai::{Level, Limits, Params, Request, SearchLimit, Thought};

use crate::error::AppError;

/// Which pool a search runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Depth-bounded searches: Débutant to Confirmé, draw decisions.
    Quick,
    /// Searches that use a whole time budget: Expert.
    Deep,
}

impl Lane {
    pub fn for_level(level: Level) -> Lane {
        if level == Level::Expert {
            Lane::Deep
        } else {
            Lane::Quick
        }
    }
}

/// How many threads and waiting places each lane has.
#[derive(Debug, Clone)]
pub struct ThinkerConfig {
    pub quick_threads: usize,
    pub quick_queue: usize,
    pub deep_threads: usize,
    pub deep_queue: usize,
    /// How long Expert may think on a person's time, at most, on a deep
    /// thread nothing else needs; zero never.
    pub ponder: Duration,
}

/// The two pools.
#[derive(Debug)]
pub struct Thinker {
    quick: Pool,
    deep: Pool,
    pub params: Params,
    /// Yoté endgame tables, handed to the searches that deserve them; set
    /// later when the server builds them after it starts.
    tables: RwLock<Option<Arc<Tables>>>,
    ponder: Duration,
}

/// Seconds a client is told to wait when a lane is full.
pub const RETRY_AFTER_S: u64 = 2;

/// Stops a search when its asker goes away.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl Thinker {
    pub fn new(c: &ThinkerConfig, params: Params, tables: Option<Arc<Tables>>) -> Thinker {
        Thinker {
            quick: Pool::new(c.quick_threads, c.quick_queue, params.clone()),
            deep: Pool::new(c.deep_threads, c.deep_queue, params.clone()),
            params,
            tables: RwLock::new(tables),
            ponder: c.ponder,
        }
    }

    /// The tables for a machine move at `level` (Expert only: the other
    /// levels keep their own style), or for a hint (`None` level).
    pub fn tables_for(&self, level: Option<Level>) -> Option<Arc<Tables>> {
        match level {
            None | Some(Level::Expert) => self.tables(),
            Some(_) => None,
        }
    }

    /// The tables themselves, for looking positions up.
    pub fn tables(&self) -> Option<Arc<Tables>> {
        // A poisoned lock still holds a whole `Option`: a swap cannot tear.
        self.tables
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Hands tables built after the start to every search from now on.
    pub fn install_tables(&self, tables: Arc<Tables>) {
        *self
            .tables
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(tables);
    }

    fn pool(&self, lane: Lane) -> &Pool {
        match lane {
            Lane::Quick => &self.quick,
            Lane::Deep => &self.deep,
        }
    }

    /// Whether `lane` would take a search now.
    pub fn has_room(&self, lane: Lane) -> bool {
        !self.pool(lane).is_full()
    }

    /// Searches waiting in each lane (quick, deep).
    pub fn queued(&self) -> (usize, usize) {
        (self.quick.queued(), self.deep.queued())
    }

    /// Queues a search; `reply` runs on a search thread with the answer.
    /// `game` names the game of a machine move, whose ponder it may read.
    /// Returns the flag that stops it early.
    pub fn submit(
        &self,
        lane: Lane,
        request: Request,
        game: Option<GameKey>,
        reply: impl FnOnce(Thought) + Send + 'static,
    ) -> Result<Arc<AtomicBool>, AppError> {
        self.pool(lane)
            .submit(request, game, reply)
            .map_err(|Busy| AppError::Busy(RETRY_AFTER_S))
    }

    /// Thinks on the person's time in `game` (`request`: the position they
    /// are to move in) if Expert plays there, pondering is on and a deep
    /// thread is idle; the game's next machine move then reads what it
    /// found. Any search that needs the thread stops it.
    pub fn ponder(&self, game: GameKey, request: Request) -> bool {
        if self.ponder.is_zero() || request.level != Level::Expert {
            return false;
        }
        let limits = Limits::new().with(SearchLimit::MoveTime(self.ponder));
        self.deep.ponder(game, Request { limits, ..request })
    }

    /// Stops a ponder in `game`: it is over, or its owner is gone.
    pub fn cancel_ponder(&self, game: GameKey) {
        self.deep.cancel(game);
    }

    /// How many deep threads ponder now.
    pub fn pondering(&self) -> usize {
        self.deep.pondering()
    }

    /// Searches and waits for the answer without blocking the runtime; the
    /// search stops if the caller stops waiting.
    pub async fn think(&self, lane: Lane, request: Request) -> Result<Thought, AppError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let stop = self.submit(lane, request, None, move |t| {
            let _ = tx.send(t);
        })?;
        let _guard = StopOnDrop(stop);
        rx.await
            .map_err(|_| AppError::Internal(anyhow::anyhow!("a search thread died")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_go_to_expert_hints_and_draws_only() {
        let dir = tempfile::tempdir().unwrap();
        let tables = Arc::new(Tables::open(dir.path()).unwrap());
        let config = ThinkerConfig {
            quick_threads: 1,
            quick_queue: 1,
            deep_threads: 1,
            deep_queue: 1,
            ponder: Duration::ZERO,
        };
        let with = Thinker::new(&config, Params::default(), Some(tables));
        assert!(with.tables_for(Some(Level::Expert)).is_some());
        assert!(with.tables_for(None).is_some(), "hints and draw offers");
        for level in [Level::Debutant, Level::Intermediaire, Level::Confirme] {
            assert!(
                with.tables_for(Some(level)).is_none(),
                "{level:?} keeps its style"
            );
        }
        let without = Thinker::new(&config, Params::default(), None);
        assert!(without.tables_for(Some(Level::Expert)).is_none());
    }

    #[test]
    fn only_expert_ponders_and_only_when_pondering_is_on() {
        use palabre_ai::AnyPosition;
        let request = |level: Level| Request {
            position: AnyPosition::Yote(palabre_rules::yote::Position::START),
            history: Vec::new(),
            level,
            limits: Limits::new(),
            seed: 0,
            tables: None,
            ponder: Default::default(),
        };
        let config = |ponder: Duration| ThinkerConfig {
            quick_threads: 1,
            quick_queue: 1,
            deep_threads: 1,
            deep_queue: 1,
            ponder,
        };
        let off = Thinker::new(&config(Duration::ZERO), Params::default(), None);
        assert!(!off.ponder(1, request(Level::Expert)));
        let on = Thinker::new(&config(Duration::from_secs(60)), Params::default(), None);
        for level in [Level::Debutant, Level::Intermediaire, Level::Confirme] {
            assert!(!on.ponder(1, request(level)), "{level:?}");
        }
        assert_eq!(on.pondering(), 0);
        assert!(on.ponder(1, request(Level::Expert)));
        assert_eq!(on.pondering(), 1);
        on.cancel_ponder(1);
    }
}
