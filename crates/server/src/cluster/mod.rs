//! Several Palabre nodes on one PostgreSQL database and one NATS server.
//! Each game has one owner in the whole cluster: the node holding its lease
//! in the database ([`crate::store::Fence`]) runs the game's owner task;
//! any other node forwards the game's commands to it by NATS request-reply
//! and relays the states it publishes to its own live connections.
//!
//! - [`wire`]: what crosses between nodes.
//! - [`node`]: answering forwarded commands, renewing leases, and taking
//!   over the games of a node that died.
//!
//! Subjects: `palabre.node.<node>` carries the commands for a node's games;
//! `palabre.game.<id>` carries every state of a game, in the order its
//! owner published them.

pub mod node;
mod outbox;
pub mod wire;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::connection::State;
use async_nats::{Client, Event, RequestErrorKind};
use futures_util::StreamExt;
use tokio::sync::{broadcast, watch};

use crate::clock::now_ms;
use crate::error::{AppError, UNAVAILABLE_RETRY_S};
use outbox::Outbox;
use wire::{Answer, Forwarded, Op, Reply};

/// How long a lease lasts without renewal: a dead node's games are taken
/// over after at most this (plus a sweep).
pub const LEASE_MS: i64 = 3_000;
/// How often a node renews its leases and looks for games without owner.
pub const RENEW: Duration = Duration::from_millis(1_000);
/// How long a forwarded command may wait for the owner's answer.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(10);
/// A forwarded command unanswered this long makes the node ask whether its
/// owner node still lives: NATS drops a request that reaches a node as it
/// dies, and nobody would answer it before `FORWARD_TIMEOUT`.
const STILL_THERE_AFTER: Duration = Duration::from_secs(1);
/// How long the owner node has to say it lives.
const STILL_THERE_TIMEOUT: Duration = Duration::from_secs(2);
/// States a relay keeps for its slowest live connection.
const RELAY_BACKLOG: usize = 64;

/// The subject that carries the states of game `id`.
fn game_subject(id: &str) -> String {
    format!("palabre.game.{id}")
}

/// The subject that carries the commands for the games of `node`.
pub fn node_subject(node: &str) -> String {
    format!("palabre.node.{node}")
}

/// The subject on which `node` answers that it lives (outside the games'
/// commands, so a busy game does not delay the answer).
pub fn alive_subject(node: &str) -> String {
    format!("palabre.alive.{node}")
}

/// Refuses to start as `node` while a running node answers for that name:
/// both would take every command sent to it. (Each start's leases are
/// fenced apart anyway, see [`crate::store::Fence`].) A subscriber that
/// does not answer is a process frozen or dying: this start goes on, and
/// its leases fence that one out.
async fn name_is_free(nats: &Client, node: &str) -> anyhow::Result<()> {
    let ask = async_nats::Request::new().timeout(Some(STILL_THERE_TIMEOUT));
    match nats.send_request(alive_subject(node), ask).await {
        Ok(_) => anyhow::bail!(
            "a running node is named {node} already: give each node its own --node name"
        ),
        Err(e) if e.kind() == RequestErrorKind::NoResponders => Ok(()),
        Err(e) if e.kind() == RequestErrorKind::TimedOut => {
            tracing::warn!("a node named {node} is listed but silent: this start replaces it");
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

/// Keeps when the bus was lost, until it is back.
fn note_bus(down: &watch::Sender<Option<i64>>, event: &Event) {
    match event {
        Event::Connected => {
            down.send_if_modified(|since| since.take().is_some());
        }
        Event::Disconnected | Event::Closed => {
            down.send_if_modified(|since| since.is_none() && since.replace(now_ms()).is_none());
        }
        _ => {}
    }
}

/// Why a forwarded command got no answer.
#[derive(Debug)]
pub enum ForwardError {
    /// Nobody listens for that node: it is gone, its leases will expire.
    NoOwner,
    /// The answer from the owner node.
    Refused(AppError),
}

/// This node's place in the cluster.
pub struct Cluster {
    pub node: Arc<str>,
    nats: Client,
    /// Publications go through one task, so a game's leave in the order made.
    outbox: Arc<Outbox>,
    relays: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    /// Since when (ms since the epoch) this node has lost the bus; `None`
    /// while it is connected.
    down_since: watch::Receiver<Option<i64>>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cluster({})", self.node)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.outbox.close();
    }
}

impl Cluster {
    /// Connects to NATS as `node` (a random name if none is given).
    pub async fn connect(url: &str, node: Option<String>) -> anyhow::Result<Arc<Cluster>> {
        let node: Arc<str> = Arc::from(
            node.unwrap_or_else(|| crate::seats::random_token(4))
                .as_str(),
        );
        anyhow::ensure!(
            !node.is_empty() && node.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
            "a node name is letters, digits and dashes"
        );
        let (down, down_since) = watch::channel(None);
        let down = Arc::new(down);
        let nats = async_nats::ConnectOptions::new()
            .event_callback(move |event| {
                let down = Arc::clone(&down);
                async move { note_bus(&down, &event) }
            })
            .name(format!("palabre-{node}"))
            .connection_timeout(Duration::from_secs(5))
            .request_timeout(Some(FORWARD_TIMEOUT))
            .connect(url)
            .await?;
        name_is_free(&nats, &node).await?;
        let outbox = Arc::new(Outbox::default());
        let (publisher, queue) = (nats.clone(), Arc::clone(&outbox));
        tokio::spawn(async move {
            while let Some((subject, json)) = queue.next().await {
                let payload = json.as_bytes().to_vec();
                if let Err(e) = publisher.publish(subject, payload.into()).await {
                    tracing::warn!("publishing a state: {e}");
                }
            }
        });
        Ok(Arc::new(Cluster {
            node,
            nats,
            outbox,
            relays: Mutex::default(),
            down_since,
        }))
    }

    /// Since when this node has lost the bus, and each change: owners stop
    /// their clocks while nobody can reach them.
    pub fn outages(&self) -> watch::Receiver<Option<i64>> {
        self.down_since.clone()
    }

    /// Whether the bus is up; commands are refused while it is not.
    pub fn healthy(&self) -> bool {
        self.nats.connection_state() == State::Connected
    }

    /// `503` unless the bus is up.
    pub fn check(&self) -> Result<(), AppError> {
        if self.healthy() {
            Ok(())
        } else {
            Err(AppError::Unavailable(UNAVAILABLE_RETRY_S))
        }
    }

    /// Publishes a state of game `id` to every node's relay.
    pub fn publish(&self, id: &str, json: &Arc<str>) {
        self.outbox.push(game_subject(id), Arc::clone(json));
    }

    /// Sends `op` to the node that owns `game` and waits for its answer.
    pub async fn forward(&self, node: &str, game: &str, op: Op) -> Result<Answer, ForwardError> {
        let body = serde_json::to_vec(&Forwarded {
            game: game.to_owned(),
            op,
        })
        .map_err(|e| ForwardError::Refused(AppError::Internal(e.into())))?;
        let request = self.nats.request(node_subject(node), body.into());
        tokio::pin!(request);
        let answered = tokio::select! {
            answered = &mut request => answered,
            () = tokio::time::sleep(STILL_THERE_AFTER) => {
                if !self.lives(node).await {
                    return Err(ForwardError::NoOwner);
                }
                request.await
            }
        };
        let answer = match answered {
            Ok(answer) => answer,
            Err(e) if e.kind() == RequestErrorKind::NoResponders => {
                return Err(ForwardError::NoOwner);
            }
            Err(e) => {
                tracing::warn!("forwarding to node {node}: {e}");
                return Err(ForwardError::Refused(AppError::Unavailable(
                    UNAVAILABLE_RETRY_S,
                )));
            }
        };
        match serde_json::from_slice::<Reply>(&answer.payload) {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(e)) => Err(ForwardError::Refused(e.into())),
            Err(e) => Err(ForwardError::Refused(AppError::Internal(e.into()))),
        }
    }

    /// Whether `node` still answers. Only a node nobody listens for is
    /// gone: a slow answer counts as living, and its command goes on.
    async fn lives(&self, node: &str) -> bool {
        let ask = async_nats::Request::new().timeout(Some(STILL_THERE_TIMEOUT));
        match self.nats.send_request(alive_subject(node), ask).await {
            Err(e) if e.kind() == RequestErrorKind::NoResponders => {
                tracing::warn!("node {node} is gone: a command sent to it is tried elsewhere");
                false
            }
            _ => true,
        }
    }

    /// Forgets the relay `tx` of game `id` if nobody reads it (or `always`);
    /// under the lock, so that [`Cluster::watch`] never joins a relay that stops.
    fn drop_relay(&self, id: &str, tx: &broadcast::Sender<Arc<str>>, always: bool) -> bool {
        let mut relays = self.relays.lock().expect("relays");
        if !always && tx.receiver_count() > 0 {
            return false;
        }
        if relays.get(id).is_some_and(|t| t.same_channel(tx)) {
            relays.remove(id);
        }
        true
    }

    /// The states of game `id` as its owner publishes them, wherever it
    /// runs. One NATS subscription per game serves every live connection
    /// of this node; it is in place (flushed) before this returns.
    pub async fn watch(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<broadcast::Receiver<Arc<str>>, AppError> {
        if let Some(tx) = self.relays.lock().expect("relays").get(id) {
            return Ok(tx.subscribe());
        }
        let unavailable = |e: &dyn std::fmt::Display| {
            tracing::warn!("watching game {id}: {e}");
            AppError::Unavailable(UNAVAILABLE_RETRY_S)
        };
        let mut sub = self
            .nats
            .subscribe(game_subject(id))
            .await
            .map_err(|e| unavailable(&e))?;
        self.nats.flush().await.map_err(|e| unavailable(&e))?;
        let (tx, rx) = {
            let mut relays = self.relays.lock().expect("relays");
            if let Some(tx) = relays.get(id) {
                return Ok(tx.subscribe());
            }
            let (tx, rx) = broadcast::channel(RELAY_BACKLOG);
            relays.insert(id.to_owned(), tx.clone());
            (tx, rx)
        };
        let me = Arc::clone(self);
        let id = id.to_owned();
        tokio::spawn(async move {
            let mut check = tokio::time::interval(Duration::from_secs(5));
            loop {
                tokio::select! {
                    message = sub.next() => match message {
                        Some(m) => match std::str::from_utf8(&m.payload) {
                            Ok(text) => drop(tx.send(Arc::from(text))),
                            Err(e) => tracing::warn!("game {id}: a state that is not text: {e}"),
                        },
                        None => break,
                    },
                    _ = check.tick() => if me.drop_relay(&id, &tx, false) {
                        break;
                    },
                }
            }
            me.drop_relay(&id, &tx, true);
            let _ = sub.unsubscribe().await;
        });
        Ok(rx)
    }
}
