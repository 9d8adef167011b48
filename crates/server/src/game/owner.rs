//! The owner's loop: one command at a time, the game's clock timer, a retry
//! when the machine could not be queued, and stopping when idle.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::Instant;

use super::registry::Inner;
use super::view;
use super::{Acted, Command, Done, Game, Reply};
use crate::clock::now_ms;
use crate::error::AppError;
use crate::store::{Fence, StoreError};

/// How an owner begins.
pub enum Start {
    /// Load the game from the store first.
    Load,
    /// A game just created and stored.
    Ready(Box<Game>),
}

/// A search of the machine in progress.
pub(super) struct Search {
    pub token: u64,
    pub fingerprint: (usize, u64),
    pub stop: Arc<AtomicBool>,
}

/// A draw offer to the machine, waiting for its decision.
pub(super) struct DrawAsk {
    pub token: u64,
    pub fingerprint: (usize, u64),
    pub stop: Arc<AtomicBool>,
    pub reply: Reply<Acted>,
}

/// Live subscribers a game keeps before the slowest skip states.
const BACKLOG: usize = 64;
/// Wait before asking a full pool again for the machine's move.
pub(super) const MACHINE_RETRY: Duration = Duration::from_millis(250);

pub(super) struct Owner {
    pub ctx: Arc<Inner>,
    pub id: String,
    generation: u64,
    inbox: mpsc::Receiver<Command>,
    /// The owner's own address, for answers from search threads.
    pub me: mpsc::WeakSender<Command>,
    pub events: broadcast::Sender<Arc<str>>,
    /// The state as last published.
    pub current: Arc<str>,
    pub machine: Option<Search>,
    pub machine_retry: Option<Instant>,
    pub draw_ask: Option<DrawAsk>,
    next_token: u64,
    /// In a cluster, the lease every write must still hold.
    pub fence: Option<Fence>,
    /// The lease was lost: stop after the current command.
    lost: bool,
    /// A write failed, perhaps after the database kept it (a connection
    /// lost during COMMIT): memory may no longer match the store, so the
    /// owner stops after the current command and the next loads afresh.
    unsure: bool,
    /// The ratings were updated for this game's result.
    rated: bool,
    /// The game's end was announced (or it was over when loaded).
    announced: bool,
    /// Since when this node has been cut off from the bus, as far as this
    /// owner has followed it: nobody can move, so the clock stands still.
    pub paused_since: Option<i64>,
}

impl Drop for Owner {
    fn drop(&mut self) {
        // Nobody is left to use what a ponder for this game finds.
        self.ctx.thinker.cancel_ponder(self.ponder_key());
    }
}

/// The bus's next change (since when it is down, or `None` when it is back);
/// never, outside a cluster.
async fn bus_change(bus: &mut Option<watch::Receiver<Option<i64>>>) {
    if let Some(rx) = bus
        && rx.changed().await.is_ok()
    {
        return;
    }
    std::future::pending().await
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The instant of a wall-clock time in ms since the epoch.
fn instant_of(epoch_ms: i64) -> Instant {
    Instant::now() + Duration::from_millis((epoch_ms - now_ms()).max(0) as u64)
}

impl Owner {
    pub fn new(
        ctx: Arc<Inner>,
        id: String,
        generation: u64,
        fence: Option<Fence>,
        inbox: mpsc::Receiver<Command>,
        me: mpsc::WeakSender<Command>,
    ) -> Owner {
        Owner {
            ctx,
            id,
            generation,
            inbox,
            me,
            events: broadcast::channel(BACKLOG).0,
            current: Arc::from("{}"),
            machine: None,
            machine_retry: None,
            draw_ask: None,
            next_token: 0,
            fence,
            lost: false,
            unsure: false,
            rated: false,
            announced: false,
            paused_since: None,
        }
    }

    /// This game's name in the thinker, which keeps a ponder's table for
    /// the game's next machine move: the owner's generation, unique to
    /// this owner, so that an owner that retires can only stop its own.
    pub fn ponder_key(&self) -> palabre_ai::pool::GameKey {
        self.generation
    }

    pub fn token(&mut self) -> u64 {
        self.next_token += 1;
        self.next_token
    }

    /// Loads the game, then handles commands until idle or shut down.
    pub async fn run(mut self, start: Start) {
        let mut game = match start {
            Start::Ready(game) => *game,
            Start::Load => match self.load().await {
                Ok(game) => game,
                Err(e) => return self.refuse_all(e).await,
            },
        };
        self.announced = game.status() == crate::domain::Status::Finished;
        self.changed(&mut game);
        self.settle_ratings(&game).await;
        let mut idle_since = Instant::now();
        let mut bus = self.ctx.cluster.as_ref().map(|c| c.outages());
        self.follow_bus(&mut game, &mut bus).await;
        loop {
            let flag = game
                .deadline_ms()
                .filter(|_| self.paused_since.is_none())
                .map(instant_of);
            let idle = self.evictable(&game).then(|| idle_since + self.ctx.idle);
            let reports_end = game.reported.next_expiry();
            tokio::select! {
                () = sleep_until(reports_end) => {
                    if game.reported.expire(Instant::now()) {
                        self.publish(&game);
                    }
                }
                () = bus_change(&mut bus) => {
                    self.follow_bus(&mut game, &mut bus).await;
                    if self.lost || self.unsure {
                        return self.give_up(&mut game);
                    }
                }
                command = self.inbox.recv() => match command {
                    Some(command) => {
                        // A command may pass the bus's check before its
                        // return reaches this owner: the clock is credited first.
                        self.follow_bus(&mut game, &mut bus).await;
                        self.handle(&mut game, command).await;
                        if self.lost || self.unsure {
                            return self.give_up(&mut game);
                        }
                        idle_since = Instant::now();
                    }
                    None => return,
                },
                () = sleep_until(flag) => {
                    // A failed write was logged; the owner stops below.
                    let _ = self.flag(&mut game).await;
                    self.settle_ratings(&game).await;
                    if self.lost || self.unsure {
                        return self.give_up(&mut game);
                    }
                }
                () = sleep_until(self.machine_retry) => {
                    self.machine_retry = None;
                    self.changed(&mut game);
                }
                () = sleep_until(idle) => {
                    if self.ctx.retire(&self.id, self.generation, &mut self.inbox) {
                        // Dropping what came in meanwhile sends it to a new owner.
                        while self.inbox.recv().await.is_some() {}
                        return;
                    }
                    idle_since = Instant::now();
                }
            }
        }
    }

    /// Follows the bus: when it goes down the clock stops (its deadline is
    /// not watched, and nothing flags); when it is back, the outage is given
    /// back to the running clock and stored, so that a reload keeps it.
    async fn follow_bus(
        &mut self,
        game: &mut Game,
        bus: &mut Option<watch::Receiver<Option<i64>>>,
    ) {
        let Some(down) = bus.as_mut().map(|rx| *rx.borrow_and_update()) else {
            return;
        };
        match (self.paused_since, down) {
            (None, Some(since)) => self.paused_since = Some(since),
            (Some(since), None) => {
                self.paused_since = None;
                self.credit_clock(game, now_ms() - since).await;
            }
            _ => {}
        }
    }

    async fn credit_clock(&mut self, game: &mut Game, ms: i64) {
        if game.running_clock().is_none() || ms <= 0 {
            return;
        }
        let before = game.clocks;
        if let Some(clocks) = game.clocks.as_mut() {
            clocks.credit(ms);
        }
        let stored = self
            .ctx
            .store
            .save_summary(&self.id, self.fence.as_ref(), &game.summary())
            .await;
        if self.stored(stored).is_err() {
            game.clocks = before;
            return;
        }
        tracing::info!("game {}: {ms} ms given back to the running clock", self.id);
        self.publish(game);
    }

    /// Reads the game from the store; a game whose moves do not replay is
    /// quarantined, and one that cannot even be read is refused.
    async fn load(&self) -> Result<Game, AppError> {
        let loaded = match self.ctx.store.load(&self.id).await {
            Ok(Some(loaded)) => loaded,
            Ok(None) => return Err(AppError::NotFound),
            Err(e @ sqlx::Error::Decode(_)) => {
                self.quarantine(&e.to_string()).await;
                return Err(AppError::Damaged);
            }
            Err(e) => return Err(e.into()),
        };
        let (row, moves, members) = loaded;
        let already = row.damaged.is_some();
        let game = Game::replay(row, &moves, members);
        match &game.row.damaged {
            Some(why) if !already => self.quarantine(why).await,
            _ => {}
        }
        Ok(game)
    }

    async fn quarantine(&self, why: &str) {
        tracing::error!("game {} is damaged and kept aside: {why}", self.id);
        if let Err(e) = self.ctx.store.mark_damaged(&self.id, why).await {
            tracing::error!("marking game {} damaged: {e}", self.id);
        }
    }

    /// Answers every waiting command with `e` (the game could not be loaded).
    async fn refuse_all(mut self, e: AppError) {
        if matches!(e, AppError::Internal(_)) {
            tracing::error!("loading game {}: {}", self.id, e.public_message());
        }
        self.ctx.forget(&self.id, self.generation);
        self.inbox.close();
        while let Some(command) = self.inbox.recv().await {
            let err = || match &e {
                AppError::NotFound => AppError::NotFound,
                AppError::Damaged => AppError::Damaged,
                // A database out of reach: the client tries again later.
                AppError::Unavailable(s) => AppError::Unavailable(*s),
                _ => AppError::Internal(anyhow::anyhow!("the game could not be loaded")),
            };
            match command {
                Command::Subscribe { reply, .. } => drop(reply.send(Err(err()))),
                Command::Act { reply, .. } => drop(reply.send(Err(err()))),
                Command::Join { reply, .. } => drop(reply.send(Err(err()))),
                Command::Read(f) => f(Err(err())),
                _ => {}
            }
        }
    }

    /// Another node owns the game now, or memory may not match the store:
    /// this owner forgets itself and stops; the commands still in its inbox
    /// are tried again on a new owner (elsewhere, or here loaded afresh),
    /// and its live connections see their updates end (and reconnect).
    fn give_up(&mut self, game: &mut Game) {
        self.stop_machine(game);
        self.ctx.forget(&self.id, self.generation);
    }

    /// Passes on a write's outcome, noting a lost lease or a failed write
    /// (either way the owner stops after the current command). A failed
    /// write may still have been kept: the caller undoes its change in
    /// memory all the same, and the owner that follows reads the truth.
    pub fn stored(&mut self, r: Result<(), StoreError>) -> Result<(), AppError> {
        match &r {
            Err(StoreError::LeaseLost) => {
                tracing::warn!("game {}: the lease was lost; another node owns it", self.id);
                self.lost = true;
            }
            Err(StoreError::Db(e)) => {
                tracing::warn!("game {}: a write failed ({e}); reloading the game", self.id);
                self.unsure = true;
            }
            Ok(()) => {}
        }
        r.map_err(AppError::from)
    }

    /// Whether the owner may stop: nobody watches (here, or on another
    /// node) and nothing is pending. In a cluster, a running clock keeps
    /// its owner (and lease), or the nodes would pass it round as an orphan.
    fn evictable(&self, game: &Game) -> bool {
        (self.ctx.cluster.is_none() || game.deadline_ms().is_none())
            && self.events.receiver_count() == 0
            && game.presence.values().all(|n| *n == 0)
            && game.reported.is_empty()
            && self.machine.is_none()
            && self.machine_retry.is_none()
            && self.draw_ask.is_none()
            && game.draw_offer.is_none()
            && game.takeback_offer.is_none()
    }

    async fn handle(&mut self, game: &mut Game, command: Command) {
        match command {
            Command::Read(f) => f(Ok(game)),
            Command::Subscribe {
                key,
                counted,
                reply,
            } => {
                let _ = reply.send(self.subscribe(game, key.as_ref(), counted));
            }
            Command::Leave { role } => self.leave(game, role),
            Command::Present { from, report } => self.present(game, from, report),
            Command::Act { key, action, reply } => {
                self.act(game, key.as_ref(), action, reply).await
            }
            Command::Join {
                joiner,
                side,
                reply,
            } => {
                let joined = self.join(game, &joiner, side).await;
                let _ = reply.send(joined);
            }
            Command::Flag => {
                let _ = self.flag(game).await;
                self.settle_ratings(game).await;
            }
            Command::Wake => {}
            Command::Lost => self.lost = true,
            Command::AccountDeleted { account } => {
                game.forget_account(account);
                self.publish(game);
            }
            Command::MachineDone { token, thought } => {
                self.machine_done(game, token, thought).await;
            }
            Command::DrawDecided { token, thought } => {
                self.draw_decided(game, token, thought).await;
            }
        }
    }

    /// After every change: the machine's turn if due, then one publication.
    pub fn changed(&mut self, game: &mut Game) {
        if game.status() == crate::domain::Status::Finished {
            self.ctx.thinker.cancel_ponder(self.ponder_key());
            // Its players' event streams hear of the end (`gameFinish`).
            let players = game.members.iter().any(|m| m.account.is_some());
            if !std::mem::replace(&mut self.announced, true) && players {
                let _ = self.ctx.finished.send(self.id.clone());
            }
        }
        self.machine_if_due(game);
        self.publish(game);
    }

    /// Updates the ratings once a rated game is over, before its last
    /// change is answered, so that whoever reads a profile next sees them.
    /// A failure is logged; the game stays marked for the next sweep.
    pub async fn settle_ratings(&mut self, game: &Game) {
        if !game.row.rated || game.status() != crate::domain::Status::Finished || self.rated {
            return;
        }
        match self.ctx.store.rate_game(&self.id).await {
            Ok(_) => self.rated = true,
            Err(e) => tracing::error!("game {}: updating the ratings: {e}", self.id),
        }
    }

    /// Sends the state to every live connection.
    pub fn publish(&mut self, game: &Game) {
        match serde_json::to_string(&view::state(game)) {
            Ok(json) => {
                self.current = Arc::from(json);
                let _ = self.events.send(Arc::clone(&self.current));
                if let Some(cluster) = &self.ctx.cluster {
                    cluster.publish(&self.id, &self.current);
                }
            }
            Err(e) => tracing::error!("game {}: the state does not serialise: {e}", self.id),
        }
    }

    /// Stops the machine's search, if one runs.
    pub fn stop_machine(&mut self, game: &mut Game) {
        if let Some(search) = self.machine.take() {
            search.stop.store(true, Ordering::SeqCst);
        }
        self.machine_retry = None;
        game.thinking = false;
    }

    /// The answer to an action.
    pub fn acted(&self, done: Done) -> Acted {
        Acted {
            done,
            state: Arc::clone(&self.current),
        }
    }
}
