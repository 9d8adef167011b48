//! Many games' searches on a bounded set of threads, without ever blocking
//! an async runtime, and thinking on the opponents' time when a thread would
//! otherwise idle.
//!
//! Every thread keeps its own transposition table. A ponder fills one
//! thread's table for one game, so that game's next search must run on that
//! thread to read it: the pool assigns each search to a thread itself
//! rather than letting threads take from a shared queue. A ponder only ever
//! takes an idle thread, and gives it back as soon as a search needs it.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::player::{Ponder, Request, Thought, think};
use crate::tt::Table;
use crate::{Level, Params};

/// Which game a search is for: a ponder's table serves its own game only.
pub type GameKey = u64;

type Reply = Box<dyn FnOnce(Thought) + Send>;

struct Job {
    request: Request,
    /// The game, when a ponder may have prepared this search.
    key: Option<GameKey>,
    stop: Arc<AtomicBool>,
    reply: Reply,
}

/// What a thread is handed.
enum Task {
    Search(Job),
    /// Think in `key`'s position, on its opponent's time, until stopped.
    Ponder {
        key: GameKey,
        request: Request,
        stop: Arc<AtomicBool>,
    },
}

/// A thread as the pool sees it.
enum State {
    Busy,
    /// Waiting; its table holds what a ponder found in `holds`, if any.
    Idle {
        holds: Option<GameKey>,
    },
    Pondering {
        key: GameKey,
        stop: Arc<AtomicBool>,
    },
}

impl State {
    /// Whether this thread's table is `key`'s, or is being filled for it.
    fn serves(&self, key: Option<GameKey>) -> bool {
        match (self, key) {
            (State::Idle { holds: Some(h) }, Some(k)) => *h == k,
            (State::Pondering { key: p, .. }, Some(k)) => *p == k,
            _ => false,
        }
    }
}

/// Who does what, behind one lock: every change of a thread's state and
/// of the queue happens under it.
struct Schedule {
    states: Vec<State>,
    queue: VecDeque<Job>,
}

impl Schedule {
    /// The thread a search goes to now, if any: the one whose table is
    /// this game's, else an idle one (an empty table first), else one that
    /// only ponders.
    fn pick(&self, key: Option<GameKey>) -> Option<usize> {
        self.find(|s| s.serves(key))
            .or_else(|| self.find(|s| matches!(s, State::Idle { holds: None })))
            .or_else(|| self.find(|s| matches!(s, State::Idle { .. })))
            .or_else(|| self.find(|s| matches!(s, State::Pondering { .. })))
    }

    /// The thread a ponder for `key` may take: the one pondering on it
    /// already (the new ponder replaces the old), else an idle one (a search
    /// waits in the queue only while none is), and none when `limit`
    /// threads ponder already.
    fn pick_for_ponder(&self, key: GameKey, limit: usize) -> Option<usize> {
        let again = self.find(|s| matches!(s, State::Pondering { key: k, .. } if *k == key));
        if again.is_some() || self.pondering() >= limit {
            return again;
        }
        self.find(|s| matches!(s, State::Idle { holds: Some(h) } if *h == key))
            .or_else(|| self.find(|s| matches!(s, State::Idle { holds: None })))
            .or_else(|| self.find(|s| matches!(s, State::Idle { .. })))
    }

    fn find(&self, test: impl Fn(&State) -> bool) -> Option<usize> {
        self.states.iter().position(test)
    }

    fn pondering(&self) -> usize {
        let pondering = |s: &&State| matches!(s, State::Pondering { .. });
        self.states.iter().filter(pondering).count()
    }
}

fn lock(schedule: &Mutex<Schedule>) -> MutexGuard<'_, Schedule> {
    schedule.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The pool's queue is full: too many games are waiting for the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy;

/// A fixed number of search threads and a bounded queue of searches
/// waiting for one.
pub struct Pool {
    schedule: Arc<Mutex<Schedule>>,
    /// Each thread's inbox: a task is sent only when the thread is marked
    /// busy or pondering (a ponder and the search that preempts it may
    /// wait there together).
    inboxes: Vec<Sender<Task>>,
    capacity: usize,
    threads: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pool({} threads)", self.threads.len())
    }
}

impl Pool {
    /// `threads` workers; at most `queue` requests wait for one.
    pub fn new(threads: usize, queue: usize, params: Params) -> Pool {
        let count = threads.max(1);
        let schedule = Arc::new(Mutex::new(Schedule {
            states: (0..count).map(|_| State::Idle { holds: None }).collect(),
            queue: VecDeque::new(),
        }));
        let (inboxes, threads) = (0..count)
            .map(|index| {
                let (tx, rx) = unbounded();
                let schedule = Arc::clone(&schedule);
                let params = params.clone();
                let thread = std::thread::spawn(move || serve(index, &rx, &schedule, &params));
                (tx, thread)
            })
            .unzip();
        Pool {
            schedule,
            inboxes,
            capacity: queue,
            threads,
        }
    }

    /// Whether a new request would be refused now. A pool with no waiting
    /// places refuses everything: that is how a lane is closed.
    pub fn is_full(&self) -> bool {
        let s = lock(&self.schedule);
        self.capacity == 0 || (s.queue.len() >= self.capacity && s.pick(None).is_none())
    }

    /// Requests waiting for a thread.
    pub fn queued(&self) -> usize {
        lock(&self.schedule).queue.len()
    }

    /// Queues a request; `reply` is called with the answer on a pool thread.
    /// `key` names the game, so that a ponder on it can serve this search.
    /// Returns the flag that stops this search early.
    pub fn submit(
        &self,
        request: Request,
        key: Option<GameKey>,
        reply: impl FnOnce(Thought) + Send + 'static,
    ) -> Result<Arc<AtomicBool>, Busy> {
        if self.capacity == 0 {
            return Err(Busy);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job {
            request,
            key,
            stop: Arc::clone(&stop),
            reply: Box::new(reply),
        };
        let mut s = lock(&self.schedule);
        match s.pick(key) {
            Some(i) => {
                if let State::Pondering { stop, .. } = &s.states[i] {
                    stop.store(true, Ordering::SeqCst);
                }
                s.states[i] = State::Busy;
                self.inboxes[i].send(Task::Search(job)).map_err(|_| Busy)?;
            }
            None if s.queue.len() < self.capacity => s.queue.push_back(job),
            None => return Err(Busy),
        }
        Ok(stop)
    }

    /// Thinks about `key`'s position (`request`, its opponent to move) on
    /// an idle thread, until a search needs that thread, [`Pool::cancel`],
    /// or the request's own limits. Returns whether a thread took it: with
    /// every thread busy nobody ponders, and with several threads one
    /// always stays free of ponders, for whatever else the machine runs.
    pub fn ponder(&self, key: GameKey, mut request: Request) -> bool {
        request.ponder = Ponder::OnTheirTime;
        let limit = self.inboxes.len().saturating_sub(1).max(1);
        let mut s = lock(&self.schedule);
        let Some(i) = s.pick_for_ponder(key, limit) else {
            return false;
        };
        if let State::Pondering { stop, .. } = &s.states[i] {
            stop.store(true, Ordering::SeqCst);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let task = Task::Ponder {
            key,
            request,
            stop: Arc::clone(&stop),
        };
        s.states[i] = State::Pondering { key, stop };
        self.inboxes[i].send(task).is_ok()
    }

    /// Stops a ponder on `key`, if one runs (the game is over, or gone).
    /// What it found stays for the game's next search.
    pub fn cancel(&self, key: GameKey) {
        for state in &lock(&self.schedule).states {
            if let State::Pondering { key: k, stop } = state
                && *k == key
            {
                stop.store(true, Ordering::SeqCst);
            }
        }
    }

    /// How many threads ponder now.
    pub fn pondering(&self) -> usize {
        lock(&self.schedule).pondering()
    }
}

/// A pool thread: runs what it is handed, then what waits in the queue,
/// then tells the pool it is idle.
fn serve(index: usize, inbox: &Receiver<Task>, schedule: &Mutex<Schedule>, params: &Params) {
    let mut tt = Table::new(params.tt_bits);
    tt.commit();
    // The game whose ponder the table holds.
    let mut held: Option<GameKey> = None;
    let mut next = None;
    loop {
        let task = match next.take() {
            Some(task) => task,
            None => match inbox.recv() {
                Ok(task) => task,
                Err(_) => return,
            },
        };
        let pondered = match &task {
            Task::Ponder { stop, .. } => Some(Arc::clone(stop)),
            Task::Search(_) => None,
        };
        // A panic loses its answer, not the thread: it would otherwise stay
        // marked busy, or idle and unable to take what it is handed.
        let answer = catch_unwind(AssertUnwindSafe(|| run(task, held, &mut tt, params)))
            .unwrap_or(Answer::Failed);
        held = match answer {
            Answer::Pondered(key) => Some(key),
            Answer::Searched(..) | Answer::Failed => None,
        };
        {
            let mut s = lock(schedule);
            // Unless a search or a new ponder was handed over while this
            // thread pondered, it takes the next search waiting, or idles.
            let handed_over = match (&pondered, &s.states[index]) {
                (Some(mine), State::Pondering { stop, .. }) => !Arc::ptr_eq(mine, stop),
                (Some(_), State::Busy) => true,
                _ => false,
            };
            if !handed_over {
                match s.queue.pop_front() {
                    Some(job) => {
                        s.states[index] = State::Busy;
                        next = Some(Task::Search(job));
                    }
                    None => s.states[index] = State::Idle { holds: held },
                }
            }
        }
        // Only now: whoever hears the answer may ask this thread to ponder.
        if let Answer::Searched(reply, thought) = answer {
            let _ = catch_unwind(AssertUnwindSafe(|| reply(thought)));
        }
    }
}

/// What a task leaves behind.
enum Answer {
    Searched(Reply, Thought),
    /// The table holds what a ponder on this game found.
    Pondered(GameKey),
    /// The search panicked.
    Failed,
}

fn run(task: Task, held: Option<GameKey>, tt: &mut Table, params: &Params) -> Answer {
    match task {
        Task::Search(mut job) => {
            // Only Expert reads a ponder's table: the other levels stay
            // reproducible from their seed.
            let warm = job.key.is_some() && job.key == held && job.request.level == Level::Expert;
            job.request.ponder = if warm { Ponder::After } else { Ponder::Off };
            let thought = think(&job.request, params, tt, &job.stop, |_| {});
            Answer::Searched(job.reply, thought)
        }
        Task::Ponder { key, request, stop } => {
            think(&request, params, tt, &stop, |_| {});
            Answer::Pondered(key)
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // Closed inboxes end each thread once it has run what it was handed
        // and what waits in the queue; a ponder would keep one for its limit.
        for state in &lock(&self.schedule).states {
            if let State::Pondering { stop, .. } = state {
                stop.store(true, Ordering::SeqCst);
            }
        }
        self.inboxes.clear();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    use palabre_rules::{Record, yote};

    use super::*;
    use crate::{AnyPosition, Limits, SearchLimit};

    /// No time bound, so that a busy machine changes no count.
    fn params() -> Params {
        Params {
            expert_budget_ms: 600_000,
            ..Params::default()
        }
    }

    fn request(level: Level, moves: &[&str], limits: Limits) -> Request {
        let record = Record::replay(yote::Position::START, moves).unwrap();
        Request {
            position: AnyPosition::Yote(*record.position()),
            history: Vec::new(),
            level,
            limits,
            seed: 1,
            tables: None,
            ponder: Ponder::Off,
        }
    }

    fn depth(d: u32) -> Limits {
        Limits::new().with(SearchLimit::Depth(d))
    }

    /// Submits and waits for the answer's node count.
    fn nodes(pool: &Pool, key: Option<GameKey>, req: Request) -> u64 {
        let (tx, rx) = mpsc::channel();
        pool.submit(req, key, move |t| {
            let _ = tx.send(t.nodes);
        })
        .unwrap();
        // A bound only against a hang: no count depends on time.
        rx.recv_timeout(Duration::from_secs(120)).unwrap()
    }

    /// Waits until no thread ponders.
    fn ponders_end(pool: &Pool) {
        let start = Instant::now();
        while pool.pondering() > 0 {
            assert!(start.elapsed() < Duration::from_secs(120), "a ponder hangs");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    // Red has just played b2 and the machine ponders on Black's time;
    // Black captures.
    const BEFORE: [&str; 3] = ["c3", "c4", "b2"];
    const AFTER: [&str; 4] = ["c3", "c4", "b2", "c4xc2/b2"];

    #[test]
    fn a_game_s_search_runs_on_the_thread_that_pondered_for_it() {
        let expert = || request(Level::Expert, &AFTER, depth(8));
        let confirme = || request(Level::Confirme, &AFTER, depth(3));
        let ponder = |pool: &Pool| {
            assert!(pool.ponder(7, request(Level::Expert, &BEFORE, depth(9))));
            ponders_end(pool);
        };
        let fresh_pool = Pool::new(2, 4, params());
        let fresh = nodes(&fresh_pool, Some(7), expert());
        let fresh_confirme = nodes(&fresh_pool, Some(7), confirme());

        // Two threads: the search for game 7 must find the one whose table
        // the ponder filled, though the other is idle with an empty table.
        let pool = Pool::new(2, 4, params());
        ponder(&pool);
        let warm = nodes(&pool, Some(7), expert());
        assert!(warm * 4 < fresh * 3, "after a ponder {warm}, fresh {fresh}");

        // One thread: another game's search, on the table game 7's ponder
        // filled, starts from an empty one; so does another level, even in
        // the pondered game.
        let pool = Pool::new(1, 4, params());
        ponder(&pool);
        assert_eq!(nodes(&pool, Some(8), expert()), fresh);
        ponder(&pool);
        assert_eq!(nodes(&pool, Some(7), confirme()), fresh_confirme);
        // A search of no game never reads a ponder's table, whatever it asks.
        ponder(&pool);
        let asks = Request {
            ponder: Ponder::After,
            ..expert()
        };
        assert_eq!(nodes(&pool, None, asks), fresh);
    }

    #[test]
    fn a_new_ponder_on_a_game_replaces_the_one_running() {
        // After a take-back the server ponders on the new position at once,
        // while the thread still ponders on the old one.
        let expert = || request(Level::Expert, &AFTER, depth(8));
        let fresh = nodes(&Pool::new(1, 4, params()), Some(7), expert());
        let pool = Pool::new(1, 4, params());
        assert!(pool.ponder(7, request(Level::Expert, &AFTER, Limits::new())));
        assert!(pool.ponder(7, request(Level::Expert, &BEFORE, depth(9))));
        ponders_end(&pool);
        let warm = nodes(&pool, Some(7), expert());
        assert!(warm * 4 < fresh * 3, "after a ponder {warm}, fresh {fresh}");
    }

    #[test]
    fn a_search_takes_a_pondering_thread_at_once() {
        let pool = Pool::new(1, 4, params());
        // Expert's ponder with no limit runs until something stops it.
        assert!(pool.ponder(1, request(Level::Expert, &BEFORE, Limits::new())));
        assert_eq!(pool.pondering(), 1);
        let n = nodes(&pool, Some(2), request(Level::Expert, &AFTER, depth(3)));
        assert!(n > 0);
        assert_eq!(pool.pondering(), 0);
    }

    #[test]
    fn whoever_hears_an_answer_can_ponder_at_once() {
        // The server asks for a ponder as soon as it has played the
        // machine's move: the thread that answered must be idle by then.
        let pool = Arc::new(Pool::new(1, 4, params()));
        let (tx, rx) = mpsc::channel();
        let asker = Arc::clone(&pool);
        let req = request(Level::Expert, &AFTER, depth(3));
        pool.submit(req, Some(1), move |_| {
            let ponder = request(Level::Expert, &AFTER, depth(3));
            let took = asker.ponder(1, ponder);
            // The test's handle stays the last, or the pool would be
            // dropped (and join its threads) on its own thread.
            drop(asker);
            let _ = tx.send(took);
        })
        .unwrap();
        assert!(rx.recv_timeout(Duration::from_secs(120)).unwrap());
    }

    #[test]
    fn nobody_ponders_on_a_busy_pool_and_one_thread_of_several_never_does() {
        let pool = Pool::new(1, 4, params());
        let (tx, rx) = mpsc::channel();
        let endless = request(Level::Expert, &AFTER, Limits::new());
        let stop = pool
            .submit(endless, None, move |t| {
                let _ = tx.send(t.best);
            })
            .unwrap();
        assert!(!pool.ponder(1, request(Level::Expert, &BEFORE, depth(3))));
        stop.store(true, Ordering::SeqCst);
        assert!(rx.recv_timeout(Duration::from_secs(120)).unwrap().is_some());

        let pool = Pool::new(3, 4, params());
        let endless = || request(Level::Expert, &BEFORE, Limits::new());
        assert!(pool.ponder(1, endless()));
        assert!(pool.ponder(2, endless()));
        assert!(!pool.ponder(3, endless()));
        assert_eq!(pool.pondering(), 2);
    }

    #[test]
    fn a_pool_with_no_waiting_places_refuses_everything() {
        let pool = Pool::new(1, 0, params());
        assert!(pool.is_full());
        let req = request(Level::Expert, &AFTER, depth(1));
        assert_eq!(pool.submit(req, None, |_| {}).err(), Some(Busy));
    }

    #[test]
    fn a_reply_that_panics_leaves_the_thread_working() {
        let pool = Pool::new(1, 4, params());
        let (tx, rx) = mpsc::channel();
        pool.submit(request(Level::Expert, &AFTER, depth(2)), None, move |_| {
            let _ = tx.send(());
            panic!("a reply that fails");
        })
        .unwrap();
        rx.recv_timeout(Duration::from_secs(120)).unwrap();
        assert!(nodes(&pool, None, request(Level::Expert, &AFTER, depth(2))) > 0);
    }

    #[test]
    fn cancel_stops_a_ponder_and_a_dropped_pool_does_not_wait_for_one() {
        let pool = Pool::new(1, 4, params());
        assert!(pool.ponder(1, request(Level::Expert, &BEFORE, Limits::new())));
        pool.cancel(2);
        // Another game's cancel would have stopped it well within this.
        std::thread::sleep(Duration::from_millis(200));
        assert_eq!(pool.pondering(), 1);
        pool.cancel(1);
        ponders_end(&pool);
        assert!(pool.ponder(1, request(Level::Expert, &BEFORE, Limits::new())));
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            drop(pool);
            let _ = tx.send(());
        });
        rx.recv_timeout(Duration::from_secs(120))
            .expect("dropping the pool waited for an endless ponder");
    }
}
