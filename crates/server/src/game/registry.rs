//! The owners of the games in memory. Finding a game's owner never waits:
//! an owner is started at once and loads its game from the store before it
//! handles anything, so two owners of one game can never run together. A
//! command that reaches an owner as it stops is tried again on a new one.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use super::owner::{Owner, Start};
use super::{Command, Game};
use crate::clock::now_ms;
use crate::error::AppError;
use crate::store::{GameRow, Member, Store};
use crate::thinker::{Lane, Thinker};

/// Commands an owner holds before senders wait.
const INBOX: usize = 64;
/// Times a command is tried on a new owner after its owner stopped.
const ATTEMPTS: usize = 4;

pub(super) struct Inner {
    pub store: Store,
    pub thinker: Arc<Thinker>,
    /// An owner with nothing to do stops after this long.
    pub idle: Duration,
    owners: Mutex<HashMap<String, (u64, mpsc::Sender<Command>)>>,
    generation: AtomicU64,
}

/// Every game's owner, found by id.
#[derive(Clone)]
pub struct Games(pub(super) Arc<Inner>);

impl std::fmt::Debug for Games {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Games({} in memory)", self.in_memory())
    }
}

/// Game ids are 12 lowercase hex digits; anything else names no game.
fn plausible(id: &str) -> bool {
    id.len() == 12
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl Inner {
    /// Forgets the owner `generation` of `id` if it is still the current one.
    pub fn forget(&self, id: &str, generation: u64) {
        let mut owners = self.owners.lock().expect("owners");
        if owners.get(id).is_some_and(|(g, _)| *g == generation) {
            owners.remove(id);
        }
    }

    /// Stops the owner `generation` of `id` if nothing waits in its inbox:
    /// forgets it and closes its inbox under one lock, so that a command
    /// either reached it before (and it goes on) or finds a new owner.
    pub fn retire(&self, id: &str, generation: u64, inbox: &mut mpsc::Receiver<Command>) -> bool {
        let mut owners = self.owners.lock().expect("owners");
        if !inbox.is_empty() {
            return false;
        }
        if owners.get(id).is_some_and(|(g, _)| *g == generation) {
            owners.remove(id);
        }
        inbox.close();
        true
    }
}

impl Games {
    pub fn new(store: Store, thinker: Arc<Thinker>, idle: Duration) -> Games {
        Games(Arc::new(Inner {
            store,
            thinker,
            idle,
            owners: Mutex::default(),
            generation: AtomicU64::new(0),
        }))
    }

    pub fn store(&self) -> &Store {
        &self.0.store
    }

    pub fn thinker(&self) -> &Arc<Thinker> {
        &self.0.thinker
    }

    /// Owners in memory now.
    pub fn in_memory(&self) -> usize {
        self.0.owners.lock().expect("owners").len()
    }

    /// Starts an owner for `id` and makes it the one commands reach. With
    /// `Start::Load`, an owner already there is kept: checking and inserting
    /// under one lock is what keeps a game to one owner.
    fn start(&self, id: &str, start: Start) -> mpsc::Sender<Command> {
        let mut owners = self.0.owners.lock().expect("owners");
        if let (Start::Load, Some((_, tx))) = (&start, owners.get(id)) {
            return tx.clone();
        }
        let (tx, rx) = mpsc::channel(INBOX);
        let generation = self.0.generation.fetch_add(1, Ordering::Relaxed);
        owners.insert(id.to_owned(), (generation, tx.clone()));
        drop(owners);
        let owner = Owner::new(
            Arc::clone(&self.0),
            id.to_owned(),
            generation,
            rx,
            tx.downgrade(),
        );
        tokio::spawn(owner.run(start));
        tx
    }

    /// The owner of `id`, started (and loading) if it was not in memory.
    fn owner(&self, id: &str) -> Result<mpsc::Sender<Command>, AppError> {
        if !plausible(id) {
            return Err(AppError::NotFound);
        }
        Ok(self.start(id, Start::Load))
    }

    /// Sends a command built by `make` and waits for its answer, on a new
    /// owner if the one it reached stopped first.
    pub async fn call<T>(
        &self,
        id: &str,
        make: impl Fn(oneshot::Sender<Result<T, AppError>>) -> Command,
    ) -> Result<T, AppError> {
        for _ in 0..ATTEMPTS {
            let owner = self.owner(id)?;
            let (tx, rx) = oneshot::channel();
            if owner.send(make(tx)).await.is_err() {
                continue;
            }
            if let Ok(answer) = rx.await {
                return answer;
            }
        }
        Err(AppError::Internal(anyhow::anyhow!(
            "game {id}: its owner kept stopping"
        )))
    }

    /// Runs a read of the game on its owner.
    pub async fn read<T: Send + 'static>(
        &self,
        id: &str,
        f: impl Fn(&Game) -> T + Send + Sync + 'static,
    ) -> Result<T, AppError> {
        let f = Arc::new(f);
        self.call(id, |tx| {
            let f = Arc::clone(&f);
            Command::Read(Box::new(move |g| {
                let _ = tx.send(g.map(|g| f(g)));
            }))
        })
        .await
    }

    /// Sends a command that has no answer, if the owner takes it now.
    pub fn tell(&self, id: &str, command: Command) {
        if let Ok(owner) = self.owner(id) {
            let _ = owner.try_send(command);
        }
    }

    /// Sends a command that has no answer, waiting for room in the inbox.
    pub async fn send(&self, id: &str, command: Command) {
        if let Ok(owner) = self.owner(id) {
            let _ = owner.send(command).await;
        }
    }

    /// Stores a new game (with its first member) and starts its owner.
    pub async fn create(&self, row: GameRow, first: Option<Member>) -> Result<(), AppError> {
        let game = Game::replay(row, &[], first.iter().cloned().collect());
        if game.machine_to_move() && !self.0.thinker.has_room(Lane::for_level(game.row.level)) {
            return Err(AppError::Busy(crate::thinker::RETRY_AFTER_S));
        }
        self.0
            .store
            .create(&game.row, first.as_ref(), &game.summary())
            .await?;
        let id = game.row.id.clone();
        self.start(&id, Start::Ready(Box::new(game)));
        Ok(())
    }

    /// Wakes the games where the machine is to move (after a restart).
    pub async fn wake_machine_games(&self) -> Result<usize, AppError> {
        let ids = self.0.store.machine_due(10_000).await?;
        for id in &ids {
            self.tell(id, Command::Wake);
        }
        Ok(ids.len())
    }

    /// Every `every`, tells the games whose running clock fell.
    pub fn sweep_flags(&self, every: Duration) -> tokio::task::JoinHandle<()> {
        let games = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                match games.0.store.fallen_flags(now_ms(), 500).await {
                    Ok(ids) => ids.iter().for_each(|id| games.tell(id, Command::Flag)),
                    Err(e) => tracing::warn!("looking for fallen flags: {e}"),
                }
            }
        })
    }

    /// Drops every owner handle: owners stop once their work is done.
    pub fn shut_down(&self) {
        self.0.owners.lock().expect("owners").clear();
    }
}
