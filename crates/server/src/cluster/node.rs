//! A node's own duties in the cluster: answering the commands other nodes
//! forward for the games it owns, renewing its leases every second (an
//! owner whose lease was taken stops at once), and giving an owner to the
//! games that need one (the machine is to move, a clock runs) whose node
//! died.

use std::sync::Arc;

use futures_util::StreamExt;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::wire::{Forwarded, Reply, WireError};
use super::{Cluster, LEASE_MS, RENEW, alive_subject, node_subject};
use crate::clock::now_ms;
use crate::game::{Command, Games};

/// Games given an owner per sweep at most.
const ORPHANS_PER_SWEEP: i64 = 200;

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
/// theirs, and wake the games that need an owner and have none.
pub fn keep_leases(games: Games, cluster: Arc<Cluster>, stop: CancellationToken) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(RENEW);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                () = stop.cancelled() => break,
            }
            renew(&games, &cluster).await;
            adopt_orphans(&games).await;
        }
    })
}

async fn renew(games: &Games, cluster: &Cluster) {
    let since = tokio::time::Instant::now();
    let ids = games.local_ids();
    if ids.is_empty() {
        return;
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
        }
        Err(e) => tracing::warn!("renewing leases: {e}"),
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
