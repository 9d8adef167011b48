//! The owners of the games in memory, and the way to a game's owner when it
//! runs on another node. Finding a local owner never waits: an owner is
//! started at once and loads its game from the store before it handles
//! anything, so two owners of one game can never run on one node; in a
//! cluster, the game's lease ([`crate::store::Fence`]) keeps it to one node.
//! A command that reaches an owner as it stops is tried again on a new one.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::Instant;

use super::owner::{Owner, Start};
use super::{Acted, Action, Command, Done, Game, Held, Joined, Presence, Subscription};
use crate::clock::now_ms;
use crate::cluster::wire::{Answer, Op};
use crate::cluster::{Cluster, ForwardError, LEASE_MS};
use crate::config::Limits;
use crate::domain::{Side, Status};
use crate::error::AppError;
use crate::seats::{Key, Role};
use crate::store::{Fence, GameRow, Holder, Member, Store, Summary};
use crate::thinker::{Lane, Thinker};

/// Commands an owner holds before senders wait.
const INBOX: usize = 64;
/// How long a command keeps looking for its game's owner (a dead node's
/// lease must expire first).
const FIND_OWNER: Duration = Duration::from_millis(LEASE_MS as u64 * 2);
/// Wait between two tries to find an owner.
const RETRY: Duration = Duration::from_millis(100);
/// Lease holders remembered before the expired ones are dropped.
const HOLDERS: usize = 10_000;
/// Ends not yet announced before the slowest listener skips some.
const FINISHED: usize = 1024;

struct Entry {
    generation: u64,
    inbox: mpsc::Sender<Command>,
    started: Instant,
}

pub(super) struct Inner {
    pub store: Store,
    pub thinker: Arc<Thinker>,
    pub cluster: Option<Arc<Cluster>>,
    /// An owner with nothing to do stops after this long.
    pub idle: Duration,
    /// Owners this node keeps at most: past it, a game without an owner
    /// here is refused (503) rather than loaded, and a read is answered
    /// from the store.
    capacity: usize,
    owners: Mutex<HashMap<String, Entry>>,
    /// In a cluster, the node known to hold a game's lease, and until when:
    /// commands go straight there without asking the database.
    holders: Mutex<HashMap<String, (String, i64)>>,
    generation: AtomicU64,
    /// The ids of online games with a signed-in player that ended here.
    pub finished: broadcast::Sender<String>,
    /// In a cluster, this node's live connections, which it reports to
    /// each game's owner under `instance`: the node's name and this
    /// start's own token, so that a restart's reports are not taken for
    /// stale ones.
    held: Held,
    instance: String,
}

/// Every game's owner, found by id.
#[derive(Clone)]
pub struct Games(pub(super) Arc<Inner>);

impl std::fmt::Debug for Games {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Games({} in memory)", self.in_memory())
    }
}

/// The name this start of the node reports presence under.
fn cluster_instance(cluster: Option<&Cluster>) -> String {
    cluster.map_or_else(String::new, |c| {
        format!("{}.{}", c.node, crate::seats::random_token(4))
    })
}

/// Game ids are 12 lowercase hex digits; anything else names no game.
fn plausible(id: &str) -> bool {
    id.len() == 12
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Where a game's commands go.
enum Route {
    Here(mpsc::Sender<Command>),
    /// The node holding the game's lease.
    There(String),
    /// No owner here, and no room to start one.
    Full,
}

impl Inner {
    /// Forgets the owner `generation` of `id` if it is still the current one.
    pub fn forget(&self, id: &str, generation: u64) {
        let mut owners = self.owners.lock().expect("owners");
        if owners.get(id).is_some_and(|e| e.generation == generation) {
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
        if owners.get(id).is_some_and(|e| e.generation == generation) {
            owners.remove(id);
        }
        inbox.close();
        true
    }
}

/// Sends a command built by `make` to `owner` and waits for its answer;
/// `None` if the owner stopped first.
async fn ask<T>(
    owner: &mpsc::Sender<Command>,
    make: impl FnOnce(oneshot::Sender<Result<T, AppError>>) -> Command,
) -> Option<Result<T, AppError>> {
    let (tx, rx) = oneshot::channel();
    owner.send(make(tx)).await.ok()?;
    rx.await.ok()
}

impl Games {
    /// Owners stop after `limits.idle_game` with nothing to do; at most
    /// `limits.games_in_memory` are in memory at once.
    pub fn new(
        store: Store,
        thinker: Arc<Thinker>,
        limits: &Limits,
        cluster: Option<Arc<Cluster>>,
    ) -> Games {
        Games(Arc::new(Inner {
            store,
            thinker,
            idle: limits.idle_game,
            capacity: limits.games_in_memory,
            owners: Mutex::default(),
            holders: Mutex::default(),
            generation: AtomicU64::new(0),
            finished: broadcast::channel(FINISHED).0,
            held: Held::default(),
            instance: cluster_instance(cluster.as_deref()),
            cluster,
        }))
    }

    /// The ids of the online games with a signed-in player that end on
    /// this node from now on, each once, as their owners end them.
    pub fn finished(&self) -> broadcast::Receiver<String> {
        self.0.finished.subscribe()
    }

    pub fn store(&self) -> &Store {
        &self.0.store
    }

    pub fn thinker(&self) -> &Arc<Thinker> {
        &self.0.thinker
    }

    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.0.cluster.as_ref()
    }

    /// Owners in memory now.
    pub fn in_memory(&self) -> usize {
        self.0.owners.lock().expect("owners").len()
    }

    /// Whether another owner may start here. Checked before starting, not
    /// under the same lock, so requests racing at the limit may pass it by
    /// a few: the limit is there to bound memory, not to count exactly.
    fn has_room(&self) -> bool {
        self.in_memory() < self.0.capacity
    }

    /// The games with an owner on this node.
    pub fn local_ids(&self) -> Vec<String> {
        self.0
            .owners
            .lock()
            .expect("owners")
            .keys()
            .cloned()
            .collect()
    }

    /// Whether the owner of `id` here started before `at`.
    pub fn started_before(&self, id: &str, at: Instant) -> bool {
        let owners = self.0.owners.lock().expect("owners");
        owners.get(id).is_some_and(|e| e.started < at)
    }

    /// The inbox of the owner of `id` here, if it is alive.
    fn local(&self, id: &str) -> Option<mpsc::Sender<Command>> {
        let owners = self.0.owners.lock().expect("owners");
        owners
            .get(id)
            .filter(|e| !e.inbox.is_closed())
            .map(|e| e.inbox.clone())
    }

    /// Sends a command to the owner of `id` on this node, if there is one.
    pub fn tell_local(&self, id: &str, command: Command) {
        if let Some(owner) = self.local(id) {
            let _ = owner.try_send(command);
        }
    }

    /// Starts an owner for `id` and makes it the one commands reach. With
    /// `Start::Load`, an owner already there is kept: checking and inserting
    /// under one lock is what keeps a game to one owner. An owner whose
    /// inbox is closed while it is still listed died (a panic): it is
    /// replaced, or its game would stay unanswered until a restart.
    fn start(&self, id: &str, start: Start, fence: Option<Fence>) -> mpsc::Sender<Command> {
        let mut owners = self.0.owners.lock().expect("owners");
        if let (Start::Load, Some(e)) = (&start, owners.get(id))
            && !e.inbox.is_closed()
        {
            return e.inbox.clone();
        }
        let (tx, rx) = mpsc::channel(INBOX);
        let generation = self.0.generation.fetch_add(1, Ordering::Relaxed);
        let entry = Entry {
            generation,
            inbox: tx.clone(),
            started: Instant::now(),
        };
        owners.insert(id.to_owned(), entry);
        drop(owners);
        let owner = Owner::new(
            Arc::clone(&self.0),
            id.to_owned(),
            generation,
            fence,
            rx,
            tx.downgrade(),
        );
        tokio::spawn(owner.run(start));
        tx
    }

    /// Where the commands of `id` go: its owner here (started, and in a
    /// cluster given the lease, if the lease is free) or the node holding
    /// its lease.
    async fn route(&self, id: &str) -> Result<Route, AppError> {
        if !plausible(id) {
            return Err(AppError::NotFound);
        }
        let Some(cluster) = &self.0.cluster else {
            if let Some(owner) = self.local(id) {
                return Ok(Route::Here(owner));
            }
            if !self.has_room() {
                return Ok(Route::Full);
            }
            return Ok(Route::Here(self.start(id, Start::Load, None)));
        };
        cluster.check()?;
        if let Some(owner) = self.local(id) {
            return Ok(Route::Here(owner));
        }
        if let Some(node) = self.known_holder(id) {
            return Ok(Route::There(node));
        }
        // Before the lease: a lease taken here must get its owner here.
        if !self.has_room() {
            return Ok(Route::Full);
        }
        let mut holder = Holder::Missing;
        for _ in 0..2 {
            let now = now_ms();
            holder = self
                .0
                .store
                .acquire(id, &cluster.node, now, now + LEASE_MS)
                .await?;
            if holder != Holder::Missing {
                break;
            }
        }
        match holder {
            Holder::Me(epoch) => {
                let fence = Fence {
                    node: Arc::clone(&cluster.node),
                    epoch,
                };
                Ok(Route::Here(self.start(id, Start::Load, Some(fence))))
            }
            Holder::Other { node, expires_ms } => {
                self.remember_holder(id, &node, expires_ms);
                Ok(Route::There(node))
            }
            Holder::Missing => Err(AppError::NotFound),
        }
    }

    /// The node that held the lease of `id` when last asked, while it lasts.
    fn known_holder(&self, id: &str) -> Option<String> {
        let holders = self.0.holders.lock().expect("holders");
        let (node, until) = holders.get(id)?;
        (*until > now_ms()).then(|| node.clone())
    }

    fn remember_holder(&self, id: &str, node: &str, until: i64) {
        let mut holders = self.0.holders.lock().expect("holders");
        if holders.len() >= HOLDERS {
            let now = now_ms();
            holders.retain(|_, (_, until)| *until > now);
        }
        holders.insert(id.to_owned(), (node.to_owned(), until));
    }

    /// Forgets the holder of `id`: it answered that it is gone or moved.
    fn forget_holder(&self, id: &str) {
        self.0.holders.lock().expect("holders").remove(id);
    }

    /// Carries out `op` on this node, whose owner of `id` it must be (a
    /// command forwarded by another node): `moved` if the game is elsewhere.
    pub async fn here(&self, id: &str, op: Op) -> Result<Answer, AppError> {
        let deadline = Instant::now() + FIND_OWNER;
        loop {
            let owner = match self.route(id).await? {
                Route::Here(owner) => owner,
                Route::There(_) => return Err(AppError::Moved),
                Route::Full => return Err(full()),
            };
            match self.run(&owner, op.clone()).await {
                Some(Err(AppError::Moved)) | None if Instant::now() < deadline => {
                    tokio::time::sleep(RETRY).await;
                }
                Some(answer) => return answer,
                None => return Err(AppError::Moved),
            }
        }
    }

    /// Carries out `op` on the owner of `id`, here or on its node; waits
    /// (a little) for a new owner when the old one stopped or its node died.
    async fn exec(&self, id: &str, op: Op) -> Result<Answer, AppError> {
        if let (Op::State, Some(game)) = (&op, self.finished_copy(id).await) {
            return state_json(&game).map(Answer::State);
        }
        let deadline = Instant::now() + FIND_OWNER;
        loop {
            let tried = match self.route(id).await? {
                Route::Here(owner) => self.run(&owner, op.clone()).await,
                Route::Full => match op {
                    Op::State => {
                        return state_json(&self.stored_copy(id).await?).map(Answer::State);
                    }
                    _ => return Err(full()),
                },
                Route::There(node) => {
                    let cluster = self.0.cluster.as_ref().expect("a route elsewhere");
                    match cluster.forward(&node, id, op.clone()).await {
                        Ok(answer) => Some(Ok(answer)),
                        Err(ForwardError::NoOwner) => None,
                        Err(ForwardError::Refused(e)) => Some(Err(e)),
                    }
                }
            };
            if matches!(tried, None | Some(Err(AppError::Moved))) {
                self.forget_holder(id);
            }
            match tried {
                Some(Err(AppError::Moved)) | None if Instant::now() < deadline => {
                    tokio::time::sleep(RETRY).await;
                }
                Some(answer) => return answer,
                None => {
                    return Err(AppError::Unavailable(crate::error::UNAVAILABLE_RETRY_S));
                }
            }
        }
    }

    /// Carries out `op` on a local owner; `None` if it stopped first.
    async fn run(&self, owner: &mpsc::Sender<Command>, op: Op) -> Option<Result<Answer, AppError>> {
        Some(match op {
            Op::Act { key, action } => ask(owner, |reply| Command::Act { key, action, reply })
                .await?
                .map(|a| Answer::Acted {
                    done: a.done,
                    state: a.state,
                }),
            Op::Join { joiner, side } => ask(owner, |reply| Command::Join {
                joiner,
                side,
                reply,
            })
            .await?
            .map(|j| Answer::Joined {
                seat: j.seat,
                side: j.side,
                state: j.state,
            }),
            Op::Subscribe { key } => ask(owner, |reply| Command::Subscribe {
                key,
                // The asking node counts its connection and reports it.
                counted: false,
                reply,
            })
            .await?
            .map(|s| Answer::Subscribed {
                role: s.presence.role(),
                now: s.now,
            }),
            Op::Leave { role } => {
                owner.send(Command::Leave { role }).await.ok()?;
                Ok(Answer::Done)
            }
            Op::Present { from, report } => {
                owner.send(Command::Present { from, report }).await.ok()?;
                Ok(Answer::Done)
            }
            Op::State => ask(owner, |reply| {
                Command::Read(Box::new(move |g| {
                    let _ = reply.send(g.and_then(state_json));
                }))
            })
            .await?
            .map(Answer::State),
            Op::Hint { key, level } => match self.hint_here(owner, key, &level).await? {
                Ok(best) => Ok(Answer::Hint(best)),
                Err(e) => Err(e),
            },
        })
    }

    /// A hint asked of a local owner, searched on this node.
    async fn hint_here(
        &self,
        owner: &mpsc::Sender<Command>,
        key: Option<Key>,
        level: &str,
    ) -> Option<Result<Option<String>, AppError>> {
        let level: palabre_ai::Level = match level.parse() {
            Ok(level) => level,
            Err(_) => return Some(Err(AppError::BadRequest(format!("unknown level {level}")))),
        };
        let acted = ask(owner, |reply| Command::Act {
            key,
            action: Action::Hint { level },
            reply,
        })
        .await?;
        let request = match acted {
            Ok(Acted {
                done: Done::Hint(request),
                ..
            }) => request,
            Ok(other) => {
                let e = anyhow::anyhow!("a hint answered {:?}", other.done);
                return Some(Err(AppError::Internal(e)));
            }
            Err(e) => return Some(Err(e)),
        };
        let request = palabre_ai::Request {
            tables: self.0.thinker.tables_for(None),
            ..*request
        };
        Some(
            self.0
                .thinker
                .think(Lane::for_level(level), request)
                .await
                .map(|t| t.best.map(|m| m.to_string())),
        )
    }

    /// A player's action, on the game's owner wherever it runs.
    pub async fn act(&self, id: &str, key: Option<Key>, action: Action) -> Result<Acted, AppError> {
        match self.exec(id, Op::Act { key, action }).await? {
            Answer::Acted { done, state } => Ok(Acted { done, state }),
            other => Err(unexpected(&other)),
        }
    }

    pub async fn join(
        &self,
        id: &str,
        joiner: super::Joiner,
        side: Option<Side>,
    ) -> Result<Joined, AppError> {
        match self.exec(id, Op::Join { joiner, side }).await? {
            Answer::Joined { seat, side, state } => Ok(Joined { seat, side, state }),
            other => Err(unexpected(&other)),
        }
    }

    /// The game's state as its owner last published it.
    pub async fn state(&self, id: &str) -> Result<Arc<str>, AppError> {
        match self.exec(id, Op::State).await? {
            Answer::State(state) => Ok(state),
            other => Err(unexpected(&other)),
        }
    }

    /// The move a search at `level` suggests to the person to move.
    pub async fn hint(
        &self,
        id: &str,
        key: Option<Key>,
        level: palabre_ai::Level,
    ) -> Result<Option<String>, AppError> {
        let level = level.to_string();
        match self.exec(id, Op::Hint { key, level }).await? {
            Answer::Hint(best) => Ok(best),
            other => Err(unexpected(&other)),
        }
    }

    /// Opens a live connection: alone, on the owner's own channel; in a
    /// cluster, on this node's relay of the game's states (in place before
    /// the owner is asked for the state now, so nothing falls between). A
    /// member is present until the subscription's presence is dropped.
    pub async fn subscribe(&self, id: &str, key: Option<Key>) -> Result<Subscription, AppError> {
        let Some(cluster) = &self.0.cluster else {
            return loop {
                let owner = match self.route(id).await? {
                    Route::Here(owner) => owner,
                    Route::Full => return Err(full()),
                    Route::There(_) => unreachable!("no cluster, no other node"),
                };
                let key = key.clone();
                let subscribe = |reply| Command::Subscribe {
                    key,
                    counted: true,
                    reply,
                };
                if let Some(answer) = ask(&owner, subscribe).await {
                    break answer;
                }
            };
        };
        let updates = cluster.watch(id).await?;
        match self.exec(id, Op::Subscribe { key }).await? {
            Answer::Subscribed { role, now } => {
                // The guard first: a caller gone during the report drops
                // it, and the count it holds is given back.
                let presence = Presence::new(self.clone(), id, role);
                if let Some(role) = role {
                    self.0.held.count(id, role, true);
                    self.report(id).await;
                }
                Ok(Subscription {
                    presence,
                    now,
                    updates,
                })
            }
            other => Err(unexpected(&other)),
        }
    }

    /// A live connection of `role` closed (its [`Presence`] was dropped).
    pub async fn leave(&self, id: &str, role: Role) {
        if self.0.cluster.is_some() {
            self.0.held.count(id, role, false);
            return self.report(id).await;
        }
        let _ = self.exec(id, Op::Leave { role }).await;
    }

    /// Tells the owner of `id` this node's count of its connections. One
    /// that does not arrive is made good by the next ([`super::REPORT_EVERY`]).
    async fn report(&self, id: &str) {
        let report = self.0.held.report(id);
        let from = self.0.instance.clone();
        if let Err(e) = self.exec(id, Op::Present { from, report }).await {
            tracing::debug!("game {id}: reporting presence: {}", e.public_message());
        }
    }

    /// Repeats every game's report: the owner may have changed, or missed one.
    pub async fn report_all(&self) {
        let ids = self.0.held.games();
        futures_util::stream::iter(ids)
            .for_each_concurrent(16, |id| async move { self.report(&id).await })
            .await;
    }

    /// Whether game `id` exists: its owner is here, or it is stored.
    pub async fn exists(&self, id: &str) -> Result<bool, AppError> {
        if !plausible(id) {
            return Ok(false);
        }
        Ok(self.local(id).is_some() || self.0.store.exists(id).await?)
    }

    /// Runs a read of the game: on its owner here, or (when another node
    /// owns it) on a copy loaded from the store.
    pub async fn read<T: Send + 'static>(
        &self,
        id: &str,
        f: impl Fn(&Game) -> T + Send + Sync + 'static,
    ) -> Result<T, AppError> {
        if let Some(game) = self.finished_copy(id).await {
            return Ok(f(&game));
        }
        let f = Arc::new(f);
        let deadline = Instant::now() + FIND_OWNER;
        loop {
            match self.route(id).await? {
                Route::Here(owner) => {
                    let f = Arc::clone(&f);
                    let read = ask(&owner, |reply| {
                        Command::Read(Box::new(move |g| {
                            let _ = reply.send(g.map(|g| f(g)));
                        }))
                    });
                    match read.await {
                        Some(answer) => return answer,
                        None if Instant::now() < deadline => tokio::time::sleep(RETRY).await,
                        None => return Err(AppError::Moved),
                    }
                }
                Route::There(_) | Route::Full => return Ok(f(&self.stored_copy(id).await?)),
            }
        }
    }

    /// Game `id` as stored, for a read when no owner here can answer.
    async fn stored_copy(&self, id: &str) -> Result<Game, AppError> {
        let (row, moves, members) = self.0.store.load(id).await?.ok_or(AppError::NotFound)?;
        Ok(Game::replay(row, &moves, members))
    }

    /// Game `id` as stored, if it is over and no owner holds it, here or
    /// on another node (which answers from memory, with who is connected;
    /// its lease names it): nothing can happen to it that a read must
    /// wait for, so reading the archive starts no owners (they would fill
    /// memory for `idle` each). Anything unusual (not found, unreadable,
    /// damaged) takes the owner's way, which answers it properly.
    async fn finished_copy(&self, id: &str) -> Option<Game> {
        if !plausible(id) || self.local(id).is_some() || self.known_holder(id).is_some() {
            return None;
        }
        let Ok(Some(holder)) = self.0.store.finished_holder(id, now_ms()).await else {
            return None;
        };
        // Another node's owner holds it: it knows who is connected.
        if let (Some((node, until)), Some(cluster)) = (holder, &self.0.cluster)
            && *node != *cluster.node
        {
            self.remember_holder(id, &node, until);
            return None;
        }
        let game = self.stored_copy(id).await.ok()?;
        (game.status() == Status::Finished && game.row.damaged.is_none()).then_some(game)
    }

    /// Wakes the owner of `id` (the machine may be to move, a clock may
    /// have fallen): here, taking the lease if it is free; a game owned
    /// by another node is left to it.
    pub async fn wake(&self, id: &str) {
        self.tell(id, Command::Wake).await;
    }

    /// Sends a command that has no answer to the owner of `id` if it is
    /// (or can become) this node's.
    pub async fn tell(&self, id: &str, command: Command) {
        if let Ok(Route::Here(owner)) = self.route(id).await {
            let _ = owner.try_send(command);
        }
    }

    /// Stores a new game (with its first member) and starts its owner.
    pub async fn create(&self, row: GameRow, first: Option<Member>) -> Result<(), AppError> {
        if let Some(cluster) = &self.0.cluster {
            cluster.check()?;
        }
        if !self.has_room() {
            return Err(full());
        }
        let game = Game::replay(row, &[], first.iter().cloned().collect());
        if game.machine_to_move() && !self.0.thinker.has_room(Lane::for_level(game.row.level)) {
            return Err(AppError::Busy(crate::thinker::RETRY_AFTER_S));
        }
        self.0
            .store
            .create(&game.row, first.as_ref(), &game.summary())
            .await?;
        let id = game.row.id.clone();
        let fence = match &self.0.cluster {
            None => None,
            Some(cluster) => {
                let now = now_ms();
                match self
                    .0
                    .store
                    .acquire(&id, &cluster.node, now, now + LEASE_MS)
                    .await?
                {
                    Holder::Me(epoch) => Some(Fence {
                        node: Arc::clone(&cluster.node),
                        epoch,
                    }),
                    // Someone asked for it already: the owner will load it.
                    _ => return Ok(()),
                }
            }
        };
        self.start(&id, Start::Ready(Box::new(game)), fence);
        Ok(())
    }

    /// Stores `game`, finished elsewhere (a browser's offline game), with
    /// its moves. No owner starts: nothing more can happen to it, and a
    /// read loads it like any stored game. `false` when a game with its id
    /// is stored already (the same upload sent twice).
    pub async fn import_finished(&self, game: &Game) -> Result<bool, AppError> {
        if let Some(cluster) = &self.0.cluster {
            cluster.check()?;
        }
        let id = &game.row.id;
        if self.0.store.exists(id).await? {
            return Ok(false);
        }
        let last = game.summary();
        let moves = game.play.moves();
        let n = moves.len();
        let steps: Vec<(String, Summary)> = moves
            .into_iter()
            .enumerate()
            .map(|(i, m)| {
                // The end by the position comes with the last move; an end by
                // the people (resignation, agreement) after it.
                let after = if i + 1 == n && game.row.ended.is_none() {
                    last
                } else {
                    Summary {
                        status: Status::Playing,
                        ply: i + 1,
                        result: None,
                        machine_due: false,
                        deadline_ms: None,
                        clock_credit_ms: 0,
                    }
                };
                (m, after)
            })
            .collect();
        match self.0.store.create_finished(&game.row, &steps, &last).await {
            Ok(()) => Ok(true),
            // Two uploads of one game racing: the second finds the first's.
            Err(_) if self.0.store.exists(id).await? => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Wakes the games where the machine is to move (after a restart).
    pub async fn wake_machine_games(&self) -> Result<usize, AppError> {
        let ids = self.0.store.machine_due(10_000).await?;
        for id in &ids {
            self.wake(id).await;
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
                    Ok(ids) => {
                        for id in &ids {
                            games.tell(id, Command::Flag).await;
                        }
                    }
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

/// The refusal when this node holds as many games as it may: nothing was
/// done, and owners leave memory as their games fall idle.
fn full() -> AppError {
    AppError::Unavailable(crate::error::UNAVAILABLE_RETRY_S)
}

fn state_json(g: &Game) -> Result<Arc<str>, AppError> {
    serde_json::to_string(&super::view::state(g))
        .map(Arc::from)
        .map_err(|e| AppError::Internal(e.into()))
}

fn unexpected(answer: &Answer) -> AppError {
    AppError::Internal(anyhow::anyhow!("an owner answered {answer:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::domain::Opponent;
    use crate::state::AppState;

    #[tokio::test]
    async fn an_owner_that_died_is_replaced_by_the_next_command() {
        let games = AppState::open(&Config::testing()).await.unwrap().games;
        let id = "0123456789ab";
        games
            .create(GameRow::yote_for_test(id, Opponent::Local), None)
            .await
            .unwrap();
        assert!(games.state(id).await.is_ok());
        // The owner dies (a panic would do this): its inbox closes while
        // it is still the one listed.
        let dead = {
            let (tx, rx) = mpsc::channel(1);
            drop(rx);
            tx
        };
        games.0.owners.lock().unwrap().get_mut(id).unwrap().inbox = dead;
        let state = tokio::time::timeout(FIND_OWNER / 2, games.state(id)).await;
        assert!(
            matches!(state, Ok(Ok(_))),
            "a new owner answers at once: {state:?}"
        );
        let live = tokio::time::timeout(FIND_OWNER / 2, games.subscribe(id, None)).await;
        assert!(matches!(live, Ok(Ok(_))), "a live socket finds it too");
    }

    /// Whether red's first member shows as present in game `id`.
    async fn red_online(games: &Games, id: &str) -> bool {
        let state: serde_json::Value =
            serde_json::from_str(&games.state(id).await.unwrap()).unwrap();
        state["teams"]["red"][0]["online"] == true
    }

    #[tokio::test]
    async fn a_subscription_dropped_before_its_stream_began_gives_the_presence_back() {
        let games = AppState::open(&Config::testing()).await.unwrap().games;
        let id = "0123456789ac";
        let awa = Member {
            side: Side::Red,
            position: 0,
            name: "Awa".into(),
            seat_hash: crate::seats::seat_hash("awa-seat"),
            account: None,
            bot: false,
        };
        games
            .create(GameRow::yote_for_test(id, Opponent::Online), Some(awa))
            .await
            .unwrap();
        let sub = games
            .subscribe(id, Some(Key::Seat("awa-seat".into())))
            .await
            .unwrap();
        assert!(red_online(&games, id).await, "subscribing counts");
        // What a request dropped between its subscription and its stream
        // (the client gone, an error on the way) does: no one says leave.
        drop(sub);
        for _ in 0..100 {
            if !red_online(&games, id).await {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the member stayed present after their subscription was dropped");
    }
}
