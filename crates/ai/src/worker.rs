//! A search off the caller's thread: a [`Worker`] thinks in its own thread,
//! with control in and reports out. Many games share threads through a
//! [`Pool`](crate::pool::Pool) instead.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};

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
