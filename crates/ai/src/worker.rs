//! Searches off the caller's thread: a [`Worker`] thinks in its own thread,
//! with control in and reports out; a [`Pool`] runs many games' requests on a
//! bounded set of workers without ever blocking an async runtime.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded, unbounded};

use crate::Params;
use crate::player::{AnyMove, Request, Thought, think};
use crate::search::Info;
use crate::tt::Table;

/// What a worker says while and after thinking.
#[derive(Debug, Clone)]
pub enum Report {
    Info(Info<AnyMove>),
    Done(Thought),
}

enum Control {
    Think(Box<Request>),
    /// New parameters for the searches that follow (threads, table size),
    /// and who to tell once they are in force.
    Configure(Box<Params>, Sender<()>),
    Quit,
}

/// One search thread with its own transposition table.
#[derive(Debug)]
pub struct Worker {
    control: Sender<Control>,
    reports: Receiver<Report>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Control::Think(_) => "Think",
            Control::Configure(..) => "Configure",
            Control::Quit => "Quit",
        })
    }
}

impl Worker {
    /// Starts the worker's thread and returns once its table is allocated
    /// and in memory, so that no search pays for that.
    pub fn new(params: Params) -> Worker {
        let (control, inbox) = unbounded::<Control>();
        let (outbox, reports) = unbounded();
        let (ready_tx, ready) = bounded(1);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut params = params;
            let mut tt = Table::new(params.tt_bits);
            tt.commit();
            let _ = ready_tx.send(());
            loop {
                match inbox.recv() {
                    Ok(Control::Think(req)) => {
                        let thought = think(&req, &params, &mut tt, &flag, |info| {
                            let _ = outbox.send(Report::Info(info.clone()));
                        });
                        let _ = outbox.send(Report::Done(thought));
                    }
                    Ok(Control::Configure(new, applied)) => {
                        if new.tt_bits != params.tt_bits {
                            tt = Table::new(new.tt_bits);
                            tt.commit();
                        }
                        params = *new;
                        let _ = applied.send(());
                    }
                    Ok(Control::Quit) | Err(_) => break,
                }
            }
        });
        let _ = ready.recv();
        Worker {
            control,
            reports,
            stop,
            thread: Some(thread),
        }
    }

    /// Starts thinking; reports arrive on [`Worker::reports`].
    pub fn think(&self, request: Request) {
        self.stop.store(false, Ordering::SeqCst);
        let _ = self.control.send(Control::Think(Box::new(request)));
    }

    /// Sets the parameters of the searches that follow, and returns once
    /// they are in force (a new table allocated): after the running search
    /// ends, if there is one, since it keeps its own.
    pub fn configure(&self, params: Params) {
        let (applied_tx, applied) = bounded(1);
        let _ = self
            .control
            .send(Control::Configure(Box::new(params), applied_tx));
        let _ = applied.recv();
    }

    /// Asks the current search to answer now.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn reports(&self) -> &Receiver<Report> {
        &self.reports
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
        let _ = self.control.send(Control::Quit);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

type Reply = Box<dyn FnOnce(Thought) + Send>;

struct Job {
    request: Request,
    stop: Arc<AtomicBool>,
    reply: Reply,
}

/// The pool's queue is full: too many games are waiting for the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy;

/// A fixed number of search threads fed by a bounded queue.
pub struct Pool {
    jobs: Option<Sender<Job>>,
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
        let (jobs, inbox) = bounded::<Job>(queue);
        let threads = (0..threads.max(1))
            .map(|_| {
                let inbox = inbox.clone();
                let params = params.clone();
                std::thread::spawn(move || {
                    let mut tt = Table::new(params.tt_bits);
                    tt.commit();
                    for job in inbox {
                        let thought = think(&job.request, &params, &mut tt, &job.stop, |_| {});
                        (job.reply)(thought);
                    }
                })
            })
            .collect();
        Pool {
            jobs: Some(jobs),
            threads,
        }
    }

    /// Whether a new request would be refused now.
    pub fn is_full(&self) -> bool {
        self.jobs.as_ref().is_none_or(Sender::is_full)
    }

    /// Requests waiting for a thread.
    pub fn queued(&self) -> usize {
        self.jobs.as_ref().map_or(0, Sender::len)
    }

    /// Queues a request; `reply` is called with the answer on a pool thread.
    /// Returns the flag that stops this search early.
    pub fn submit(
        &self,
        request: Request,
        reply: impl FnOnce(Thought) + Send + 'static,
    ) -> Result<Arc<AtomicBool>, Busy> {
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job {
            request,
            stop: Arc::clone(&stop),
            reply: Box::new(reply),
        };
        let jobs = self.jobs.as_ref().ok_or(Busy)?;
        match jobs.try_send(job) {
            Ok(()) => Ok(stop),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Err(Busy),
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.jobs = None;
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
