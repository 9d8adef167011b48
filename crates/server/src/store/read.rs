//! The reads: a game to load, the lists, and what the timers look for.
//! Every list is one indexed query with a limit.

use super::rows::{
    GAME_COLUMNS, LIST_COLUMNS, game_row, listing, member, numbered_move, stored_move,
};
use super::{GameRow, Listing, Member, Store, StoredMove};
use crate::domain::Opponent;

impl Store {
    /// A game with its moves and members.
    pub async fn load(
        &self,
        id: &str,
    ) -> sqlx::Result<Option<(GameRow, Vec<StoredMove>, Vec<Member>)>> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let Some(r) = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let row = game_row(&r)?;
        let moves = sqlx::query(
            "SELECT ply, notation, played_at_ms, clock_ms FROM moves WHERE game_id = $1 \
             ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(stored_move)
        .collect::<sqlx::Result<_>>()?;
        Ok(Some((row, moves, self.seats(id).await?)))
    }

    /// Whether game `id` is stored.
    pub async fn exists(&self, id: &str) -> sqlx::Result<bool> {
        let found: Option<i64> = sqlx::query_scalar("SELECT 1 FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(found.is_some())
    }

    /// Whether game `id` is stored and over (a cheap test before a load),
    /// and if so the node whose lease on it runs past `now_ms`, with the
    /// lease's end (a cluster's owner, which knows who is connected).
    pub async fn finished_holder(
        &self,
        id: &str,
        now_ms: i64,
    ) -> sqlx::Result<Option<Option<(String, i64)>>> {
        let found: Option<(Option<String>, Option<i64>)> = sqlx::query_as(
            "SELECT l.node, l.expires_ms FROM games g \
             LEFT JOIN leases l ON l.game_id = g.id AND l.expires_ms > $2 \
             WHERE g.id = $1 AND g.status = 'finished'",
        )
        .bind(id)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(found.map(|(node, until)| node.zip(until)))
    }

    pub async fn seats(&self, id: &str) -> sqlx::Result<Vec<Member>> {
        sqlx::query(
            "SELECT side, position, name, seat_hash, account_id, bot FROM seats WHERE game_id = $1 \
             ORDER BY side, position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(member)
        .collect()
    }

    /// Online games waiting for players or being played, newest first. One
    /// scan of the `games_open` index per status, each stopping at `limit`.
    /// A challenge's game waits only for its challenged player (an accept
    /// that failed half-way leaves it waiting): no one else is offered it.
    pub async fn lobby(&self, limit: i64) -> sqlx::Result<Vec<Listing>> {
        let newest = |status: &str, only: &str| {
            format!(
                "SELECT * FROM (SELECT {LIST_COLUMNS}, created_at FROM games \
                 WHERE opponent = 'online' AND status = '{status}' {only} \
                 ORDER BY created_at DESC LIMIT $1) AS {status}"
            )
        };
        let open = "AND NOT EXISTS (SELECT 1 FROM challenges c WHERE c.id = games.id)";
        let sql = format!(
            "{} UNION ALL {} ORDER BY created_at DESC, id LIMIT $1",
            newest("waiting", open),
            newest("playing", "")
        );
        self.listed(&sql, &[limit]).await
    }

    /// Finished games, the most recently finished first.
    pub async fn records(&self, limit: i64) -> sqlx::Result<Vec<Listing>> {
        let sql = format!(
            "SELECT {LIST_COLUMNS} FROM games WHERE status = 'finished' \
             ORDER BY finished_at DESC, id LIMIT $1"
        );
        self.listed(&sql, &[limit]).await
    }

    /// The games of an account, the most recently changed first.
    pub async fn account_games(&self, account: i64, limit: i64) -> sqlx::Result<Vec<Listing>> {
        let sql = format!(
            "SELECT {LIST_COLUMNS} FROM games WHERE account_id = $1 \
             OR id IN (SELECT game_id FROM seats WHERE account_id = $1) \
             ORDER BY updated_at DESC, COALESCE(started_at_ms, 0) DESC, id LIMIT $2"
        );
        self.listed(&sql, &[account, limit]).await
    }

    /// The listings `sql` selects, with the members of the online ones.
    async fn listed(&self, sql: &str, binds: &[i64]) -> sqlx::Result<Vec<Listing>> {
        let mut query = sqlx::query(sql);
        for b in binds {
            query = query.bind(*b);
        }
        let rows = query.fetch_all(&self.pool).await?;
        let mut list = rows.iter().map(listing).collect::<sqlx::Result<Vec<_>>>()?;
        let online: Vec<&str> = list
            .iter()
            .filter(|l| l.opponent == Opponent::Online)
            .map(|l| l.id.as_str())
            .collect();
        if online.is_empty() {
            return Ok(list);
        }
        let places: Vec<String> = (1..=online.len()).map(|n| format!("${n}")).collect();
        let sql = format!(
            "SELECT game_id, side, position, name, seat_hash, account_id, bot FROM seats \
             WHERE game_id IN ({}) \
             ORDER BY game_id, side, position",
            places.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for id in &online {
            query = query.bind(id.to_string());
        }
        for r in query.fetch_all(&self.pool).await? {
            let id: String = sqlx::Row::try_get(&r, "game_id")?;
            if let Some(l) = list.iter_mut().find(|l| l.id == id) {
                l.members.push(member(&r)?);
            }
        }
        Ok(list)
    }

    /// Games whose running clock has fallen by `now_ms`.
    pub async fn fallen_flags(&self, now_ms: i64, limit: i64) -> sqlx::Result<Vec<String>> {
        sqlx::query_scalar(
            "SELECT id FROM games WHERE deadline_ms IS NOT NULL AND deadline_ms <= $1 \
             AND status = 'playing' LIMIT $2",
        )
        .bind(now_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
    }

    /// Games where the machine is to move.
    pub async fn machine_due(&self, limit: i64) -> sqlx::Result<Vec<String>> {
        sqlx::query_scalar(
            "SELECT id FROM games WHERE machine_due = 1 AND status = 'playing' LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await
    }

    /// Every stored move of a game, with its ply (for checks and tools).
    pub async fn moves(&self, id: &str) -> sqlx::Result<Vec<(usize, String)>> {
        sqlx::query("SELECT ply, notation FROM moves WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(numbered_move)
            .collect()
    }
}
