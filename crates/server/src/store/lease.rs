//! Leases: in a cluster, the node that owns a game holds its lease, renews
//! it every second, and writes only while it holds it. Taking a lease that
//! belonged to another node raises its epoch; every write of an owner
//! checks, in its own transaction, that its node still holds the lease at
//! its epoch (on PostgreSQL with `FOR SHARE`, so a takeover waits for that
//! write to commit and then loads it). An owner that paused past its lease
//! can therefore never write over its successor.
//!
//! A lease also names the start of its node (`run`, drawn when the store
//! opens, which a process does once): a node restarted under its name takes its games
//! back at once but under a new epoch, and a second process given the same
//! name by mistake fences the first out rather than share its fence. Each
//! start renews, releases and writes only under its own leases.

use std::collections::HashSet;
use std::sync::Arc;

use sqlx::AnyConnection;

use super::{Backend, Store};

/// What a write must prove: the node and the epoch of its lease (and that
/// this start of the node holds it: the store knows its own run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    pub node: Arc<str>,
    pub epoch: i64,
}

/// Why a write did not happen.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("this node no longer holds the game's lease")]
    LeaseLost,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// Who holds a game's lease now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// This node, at this epoch.
    Me(i64),
    /// Another node, whose lease runs until `expires_ms`.
    Other { node: String, expires_ms: i64 },
    /// No such game.
    Missing,
}

/// Ids per renewal statement.
const RENEW_CHUNK: usize = 500;

/// A start's number: random, so that no two starts share one, and never 0,
/// the number of the leases written before starts were told apart.
pub(super) fn new_run() -> i64 {
    use rand::Rng;
    rand::thread_rng().gen_range(1..=i64::MAX)
}

impl Store {
    /// Checks, inside a write's transaction, that `fence` still holds.
    pub(super) async fn fenced(
        &self,
        c: &mut AnyConnection,
        id: &str,
        fence: Option<&Fence>,
    ) -> Result<(), StoreError> {
        let Some(fence) = fence else { return Ok(()) };
        let lock = match self.backend {
            Backend::Postgres => " FOR SHARE",
            Backend::Sqlite => "",
        };
        let sql =
            format!("SELECT epoch FROM leases WHERE game_id = $1 AND node = $2 AND run = $3{lock}");
        let epoch: Option<i64> = sqlx::query_scalar(&sql)
            .bind(id)
            .bind(&*fence.node)
            .bind(self.run)
            .fetch_optional(c)
            .await?;
        if epoch == Some(fence.epoch) {
            Ok(())
        } else {
            Err(StoreError::LeaseLost)
        }
    }

    /// Takes the lease of `id` for `node` until `until_ms` if it is free,
    /// expired at `now_ms`, or already this node's; else names its holder.
    /// The epoch stays only if this very start held it: another start of
    /// `node` (an earlier one, or a twin) is fenced out like another node.
    pub async fn acquire(
        &self,
        id: &str,
        node: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> sqlx::Result<Holder> {
        let taken: Option<i64> = sqlx::query_scalar(
            "INSERT INTO leases (game_id, node, run, epoch, expires_ms) \
             SELECT $1, $2, $5, 1, $3 WHERE EXISTS (SELECT 1 FROM games WHERE id = $1) \
             ON CONFLICT (game_id) DO UPDATE SET \
             epoch = CASE WHEN leases.node = excluded.node AND leases.run = excluded.run \
                          THEN leases.epoch ELSE leases.epoch + 1 END, \
             node = excluded.node, run = excluded.run, expires_ms = excluded.expires_ms \
             WHERE leases.node = excluded.node OR leases.expires_ms < $4 \
             RETURNING epoch",
        )
        .bind(id)
        .bind(node)
        .bind(until_ms)
        .bind(now_ms)
        .bind(self.run)
        .fetch_optional(&self.writer)
        .await?;
        if let Some(epoch) = taken {
            return Ok(Holder::Me(epoch));
        }
        let holder: Option<(String, i64)> =
            sqlx::query_as("SELECT node, expires_ms FROM leases WHERE game_id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        match holder {
            Some((node, expires_ms)) => Ok(Holder::Other { node, expires_ms }),
            // No game, or its lease was released between the two statements
            // (the caller's next try takes it).
            None => Ok(Holder::Missing),
        }
    }

    /// Extends this start's leases of `ids` to `until_ms`; returns the ids
    /// whose lease it still holds.
    pub async fn renew(
        &self,
        node: &str,
        ids: &[String],
        until_ms: i64,
    ) -> sqlx::Result<HashSet<String>> {
        let mut held = HashSet::new();
        for chunk in ids.chunks(RENEW_CHUNK) {
            let places: Vec<String> = (4..chunk.len() + 4).map(|n| format!("${n}")).collect();
            let sql = format!(
                "UPDATE leases SET expires_ms = $1 WHERE node = $2 AND run = $3 \
                 AND game_id IN ({}) RETURNING game_id",
                places.join(", ")
            );
            let mut query = sqlx::query_scalar::<_, String>(&sql)
                .bind(until_ms)
                .bind(node)
                .bind(self.run);
            for id in chunk {
                query = query.bind(id.clone());
            }
            held.extend(query.fetch_all(&self.writer).await?);
        }
        Ok(held)
    }

    /// Gives up every lease of this start of `node` (a clean shutdown).
    pub async fn release_all(&self, node: &str) -> sqlx::Result<u64> {
        let done = sqlx::query("DELETE FROM leases WHERE node = $1 AND run = $2")
            .bind(node)
            .bind(self.run)
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected())
    }

    /// Games that need an owner (the machine is to move or a clock runs)
    /// and have none: no lease, or one that expired by `now_ms`.
    pub async fn orphans(&self, now_ms: i64, limit: i64) -> sqlx::Result<Vec<String>> {
        sqlx::query_scalar(
            "SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id \
             WHERE g.status = 'playing' AND (g.machine_due = 1 OR g.deadline_ms IS NOT NULL) \
             AND (l.game_id IS NULL OR l.expires_ms < $1) LIMIT $2",
        )
        .bind(now_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
    }
}
