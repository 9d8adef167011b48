//! A node's own duties in the cluster: answering the commands other nodes
//! forward for the games it owns, renewing its leases every second (an
//! owner whose lease was taken stops at once, and every owner stops when
//! the leases cannot be renewed), and giving an owner to the games that
//! need one (the machine is to move, a clock runs) whose node died; and
//! repeating its count of the live connections it holds to each game's
//! owner, who forgets a node that falls silent.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::wire::{Forwarded, Reply, WireError};
use super::{Cluster, LEASE_MS, RENEW, alive_subject, node_subject};
use crate::clock::now_ms;
use crate::game::{Command, Games, REPORT_EVERY};

/// Games given an owner per sweep at most.
const ORPHANS_PER_SWEEP: i64 = 200;

/// How long this node's owners outlive the last renewal of its leases. A
/// node that cannot reach the database cannot learn that its leases expired
/// and passed to other nodes; its owners would go on answering reads and
/// publishing states from memory. They stop one renewal short of the lease,
/// so before any other node can take their games, even one whose clock runs
/// a second ahead of this one's.
const OWNERS_OUTLIVE_RENEWAL: Duration =
    Duration::from_millis(LEASE_MS as u64 - RENEW.as_millis() as u64);

/// How long a renewal may go on once the owners stopped, so that the next
/// one is tried (a database gone silent may never answer).
const RENEWAL_TIMEOUT: Duration = Duration::from_millis(LEASE_MS as u64);

/// Answers the commands forwarded to this node, each in its own task, and
/// the other nodes' question whether it lives.
pub async fn answer(games: Games, cluster: Arc<Cluster>) -> anyhow::Result<JoinHandle<()>> {
    let mut requests = cluster.nats.subscribe(node_subject(&cluster.node)).await?;
    let mut alive = cluster.nats.subscribe(alive_subject(&cluster.node)).await?;
    cluster.nats.flush().await?;
    let nats = cluster.nats.clone();
    tokio::spawn(async move {
        while let Some(question) = alive.next().await {
            if let Some(reply_to) = question.reply {
                let _ = nats.publish(reply_to, Vec::new().into()).await;
            }
        }
    });
    Ok(tokio::spawn(async move {
        while let Some(message) = requests.next().await {
            let Some(reply_to) = message.reply.clone() else {
                continue;
            };
            let games = games.clone();
            let cluster = Arc::clone(&cluster);
            tokio::spawn(async move {
                let reply: Reply = match serde_json::from_slice::<Forwarded>(&message.payload) {
                    Ok(f) => games
                        .here(&f.game, f.op)
                        .await
                        .map_err(|e| WireError::from(&e)),
                    Err(e) => Err(WireError::from(&crate::error::AppError::BadRequest(
                        e.to_string(),
                    ))),
                };
                match serde_json::to_vec(&reply) {
                    Ok(body) => {
                        if let Err(e) = cluster.nats.publish(reply_to, body.into()).await {
                            tracing::warn!("answering a forwarded command: {e}");
                        }
                    }
                    Err(e) => tracing::error!("an answer does not serialise: {e}"),
                }
            });
        }
    }))
}

/// Every second: renew this node's leases, stop the owners that lost
/// theirs (all of them when the renewals fail for too long), and wake the
/// games that need an owner and have none.
pub fn keep_leases(games: Games, cluster: Arc<Cluster>, stop: CancellationToken) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(RENEW);
        // The leases held then ran a whole lease on from this instant.
        let mut renewed = Instant::now();
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                () = stop.cancelled() => break,
            }
            let since = Instant::now();
            if renew_or_stop(&games, &cluster, since, renewed + OWNERS_OUTLIVE_RENEWAL).await {
                renewed = since;
            }
            adopt_orphans(&games).await;
        }
    })
}

/// Every few seconds: tells each game's owner again how many connections
/// this node holds to it (the owner may be new, or may have missed a
/// report, and it forgets reports that are not renewed).
pub fn report_presence(games: Games, stop: CancellationToken) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(REPORT_EVERY);
        loop {
            tokio::select! {
                _ = tick.tick() => games.report_all().await,
                () = stop.cancelled() => break,
            }
        }
    })
}

/// Renews the leases of the games owned here; if that has not succeeded
/// by `stale_at`, stops every owner here, and gives the renewal a little
/// longer. Whether the leases were renewed.
async fn renew_or_stop(
    games: &Games,
    cluster: &Cluster,
    since: Instant,
    stale_at: Instant,
) -> bool {
    let renewal = renew(games, cluster, since);
    tokio::pin!(renewal);
    match tokio::time::timeout_at(stale_at, &mut renewal).await {
        Ok(true) => true,
        Ok(false) => {
            if Instant::now() >= stale_at {
                stop_owners(games);
            }
            false
        }
        Err(_) => {
            stop_owners(games);
            tokio::time::timeout(RENEWAL_TIMEOUT, renewal)
                .await
                .unwrap_or(false)
        }
    }
}

/// Renews the leases of the games owned here and stops the owners whose
/// lease was taken; false if the database did not answer.
async fn renew(games: &Games, cluster: &Cluster, since: Instant) -> bool {
    let ids = games.local_ids();
    if ids.is_empty() {
        return true;
    }
    match games
        .store()
        .renew(&cluster.node, &ids, now_ms() + LEASE_MS)
        .await
    {
        Ok(held) => {
            for id in ids.iter().filter(|id| !held.contains(*id)) {
                if games.started_before(id, since) {
                    tracing::warn!("game {id}: another node took its lease; its owner here stops");
                    games.tell_local(id, Command::Lost);
                }
            }
            true
        }
        Err(e) => {
            tracing::warn!("renewing leases: {e}");
            false
        }
    }
}

/// Stops every owner here: their leases may be expiring unrenewed. The
/// next command for each game goes the ordinary way, through the lease
/// (refused while the database is away, or sent to the game's new node).
fn stop_owners(games: &Games) {
    let ids = games.local_ids();
    if ids.is_empty() {
        return;
    }
    tracing::warn!(
        "leases not renewed for {:?}: the {} owners here stop",
        OWNERS_OUTLIVE_RENEWAL,
        ids.len()
    );
    for id in &ids {
        // An owner whose inbox is full misses this; the next renewal
        // that fails tells it again.
        games.tell_local(id, Command::Lost);
    }
}

async fn adopt_orphans(games: &Games) {
    match games.store().orphans(now_ms(), ORPHANS_PER_SWEEP).await {
        Ok(ids) => {
            for id in ids {
                games.wake(&id).await;
            }
        }
        Err(e) => tracing::warn!("looking for games without owner: {e}"),
    }
}
