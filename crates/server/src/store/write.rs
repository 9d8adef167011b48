//! The writes, each called by a game's owner only. Statements use `$n`
//! placeholders, which both SQLite and PostgreSQL read.

use sqlx::AnyConnection;

use super::{Fence, GameRow, Member, Store, StoreError, Summary, now};
use crate::domain::{Ended, Side};

async fn insert_game(c: &mut AnyConnection, g: &GameRow, s: &Summary) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO games (id, game, size, start_fen, opponent, level, human, seat_hash, \
         team_size, time_control, started_at_ms, created_at, updated_at, status, ply, machine_due, \
         deadline_ms, account_id, rated, rating_min, rating_max) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         $18, $19, $20, $21)",
    )
    .bind(&g.id)
    .bind(g.kind.as_str())
    .bind(i64::from(g.size))
    .bind(&g.start_fen)
    .bind(g.opponent.as_str())
    .bind(g.level.to_string())
    .bind(g.human.map(Side::as_str))
    .bind(&g.seat_hash)
    .bind(i64::from(g.team_size))
    .bind(g.time_control.to_string())
    .bind(g.started_at_ms)
    .bind(now())
    .bind(now())
    .bind(s.status.as_str())
    .bind(s.ply as i64)
    .bind(i64::from(s.machine_due))
    .bind(s.deadline_ms)
    .bind(g.account)
    .bind(i64::from(g.rated))
    .bind(g.rating_range.map(|r| r.0))
    .bind(g.rating_range.map(|r| r.1))
    .execute(c)
    .await?;
    Ok(())
}

async fn insert_member(c: &mut AnyConnection, id: &str, m: &Member) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO seats (game_id, side, position, name, seat_hash, account_id, bot) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(m.side.as_str())
    .bind(i64::from(m.position))
    .bind(&m.name)
    .bind(&m.seat_hash)
    .bind(m.account)
    .bind(i64::from(m.bot))
    .execute(c)
    .await?;
    Ok(())
}

/// Writes the summary; `finished_at` keeps the first time a result appeared.
async fn write_summary(c: &mut AnyConnection, id: &str, s: &Summary) -> sqlx::Result<()> {
    let winner = s.result.and_then(|r| r.winner).map(Side::as_str);
    let reason = s.result.map(|r| r.reason.as_str());
    sqlx::query(
        "UPDATE games SET status = $1, ply = $2, result_winner = $3, result_reason = $4, \
         finished_at = CASE WHEN $4 IS NULL THEN NULL ELSE COALESCE(finished_at, $5) END, \
         machine_due = $6, deadline_ms = $7, clock_credit_ms = $8, updated_at = $5 WHERE id = $9",
    )
    .bind(s.status.as_str())
    .bind(s.ply as i64)
    .bind(winner)
    .bind(reason)
    .bind(now())
    .bind(i64::from(s.machine_due))
    .bind(s.deadline_ms)
    .bind(s.clock_credit_ms)
    .bind(id)
    .execute(c)
    .await?;
    Ok(())
}

async fn set_started(c: &mut AnyConnection, id: &str, at_ms: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET started_at_ms = $1 WHERE id = $2")
        .bind(at_ms)
        .bind(id)
        .execute(c)
        .await?;
    Ok(())
}

async fn insert_move(
    c: &mut AnyConnection,
    id: &str,
    ply: usize,
    notation: &str,
    clock_ms: Option<i64>,
    s: &Summary,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO moves (game_id, ply, notation, played_at, played_at_ms, clock_ms, \
         status, result_winner, result_reason, machine_due, deadline_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(id)
    .bind(ply as i64)
    .bind(notation)
    .bind(now())
    .bind(crate::clock::now_ms())
    .bind(clock_ms)
    .bind(s.status.as_str())
    .bind(s.result.and_then(|r| r.winner).map(Side::as_str))
    .bind(s.result.map(|r| r.reason.as_str()))
    .bind(i64::from(s.machine_due))
    .bind(s.deadline_ms)
    .execute(c)
    .await?;
    Ok(())
}

impl Store {
    /// A new game and its first member, together.
    pub async fn create(
        &self,
        g: &GameRow,
        first: Option<&Member>,
        s: &Summary,
    ) -> sqlx::Result<()> {
        let mut tx = self.writer.begin().await?;
        insert_game(&mut tx, g, s).await?;
        if let Some(m) = first {
            insert_member(&mut tx, &g.id, m).await?;
        }
        tx.commit().await
    }

    /// A finished game played elsewhere (in a browser, offline): its row,
    /// every move with the summary after it, its end and its final summary,
    /// together.
    pub async fn create_finished(
        &self,
        g: &GameRow,
        moves: &[(String, Summary)],
        last: &Summary,
    ) -> sqlx::Result<()> {
        let mut tx = self.writer.begin().await?;
        let start = Summary {
            status: crate::domain::Status::Playing,
            ply: 0,
            result: None,
            machine_due: false,
            deadline_ms: None,
            clock_credit_ms: 0,
        };
        insert_game(&mut tx, g, &start).await?;
        for (ply, (notation, after)) in moves.iter().enumerate() {
            insert_move(&mut tx, &g.id, ply, notation, None, after).await?;
        }
        if let Some(ended) = &g.ended {
            sqlx::query("UPDATE games SET ended_winner = $1, ended_reason = $2 WHERE id = $3")
                .bind(ended.winner.map(Side::as_str))
                .bind(ended.reason.as_str())
                .bind(&g.id)
                .execute(&mut *tx)
                .await?;
        }
        write_summary(&mut tx, &g.id, last).await?;
        tx.commit().await
    }

    /// A rematch of `old`: the new game, its first member and the link,
    /// together; refused (changing nothing) if `old` has a rematch already.
    pub async fn create_rematch(
        &self,
        old: &str,
        fence: Option<&Fence>,
        g: &GameRow,
        first: &Member,
        s: &Summary,
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        self.fenced(&mut tx, old, fence).await?;
        let linked =
            sqlx::query("UPDATE games SET rematch_id = $1 WHERE id = $2 AND rematch_id IS NULL")
                .bind(&g.id)
                .bind(old)
                .execute(&mut *tx)
                .await?;
        if linked.rows_affected() != 1 {
            let e = sqlx::Error::Protocol(format!("game {old} has a rematch already"));
            return Err(e.into());
        }
        insert_game(&mut tx, g, s).await?;
        insert_member(&mut tx, &g.id, first).await?;
        Ok(tx.commit().await?)
    }

    /// Records the move played at `ply` (with the mover's clock after it)
    /// and the game's summary after it (copied to the games row by a
    /// trigger, in the same statement); fails, changing nothing, if that ply
    /// already exists. Unfenced, that is one statement; fenced, one
    /// transaction with the lease check.
    pub async fn append_move(
        &self,
        id: &str,
        fence: Option<&Fence>,
        ply: usize,
        notation: &str,
        clock_ms: Option<i64>,
        s: &Summary,
    ) -> Result<(), StoreError> {
        debug_assert_eq!(s.ply, ply + 1);
        if fence.is_none() {
            return Ok(insert_move(
                &mut *self.writer.acquire().await?,
                id,
                ply,
                notation,
                clock_ms,
                s,
            )
            .await?);
        }
        let mut tx = self.writer.begin().await?;
        self.fenced(&mut tx, id, fence).await?;
        insert_move(&mut tx, id, ply, notation, clock_ms, s).await?;
        Ok(tx.commit().await?)
    }

    /// Deletes the moves from `ply` on (a take-back).
    pub async fn take_back(
        &self,
        id: &str,
        fence: Option<&Fence>,
        ply: usize,
        s: &Summary,
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        self.fenced(&mut tx, id, fence).await?;
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
            .bind(id)
            .bind(ply as i64)
            .execute(&mut *tx)
            .await?;
        write_summary(&mut tx, id, s).await?;
        Ok(tx.commit().await?)
    }

    /// Records an end the position does not show, with the summary.
    pub async fn end(
        &self,
        id: &str,
        fence: Option<&Fence>,
        ended: &Ended,
        s: &Summary,
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        self.fenced(&mut tx, id, fence).await?;
        sqlx::query("UPDATE games SET ended_winner = $1, ended_reason = $2 WHERE id = $3")
            .bind(ended.winner.map(Side::as_str))
            .bind(ended.reason.as_str())
            .bind(id)
            .execute(&mut *tx)
            .await?;
        write_summary(&mut tx, id, s).await?;
        Ok(tx.commit().await?)
    }

    /// A new member; `started_at_ms` when their arrival starts the game.
    pub async fn join(
        &self,
        id: &str,
        fence: Option<&Fence>,
        m: &Member,
        started_at_ms: Option<i64>,
        s: &Summary,
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        self.fenced(&mut tx, id, fence).await?;
        insert_member(&mut tx, id, m).await?;
        if let Some(at) = started_at_ms {
            set_started(&mut tx, id, at).await?;
        }
        write_summary(&mut tx, id, s).await?;
        Ok(tx.commit().await?)
    }

    /// Writes the summary alone, if the lease still holds: a running
    /// clock's credit, given back after an outage of the bus.
    pub async fn save_summary(
        &self,
        id: &str,
        fence: Option<&Fence>,
        s: &Summary,
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        self.fenced(&mut tx, id, fence).await?;
        write_summary(&mut tx, id, s).await?;
        Ok(tx.commit().await?)
    }

    /// Starts a game whose teams are not full.
    pub async fn start(
        &self,
        id: &str,
        fence: Option<&Fence>,
        at_ms: i64,
        s: &Summary,
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await?;
        self.fenced(&mut tx, id, fence).await?;
        set_started(&mut tx, id, at_ms).await?;
        write_summary(&mut tx, id, s).await?;
        Ok(tx.commit().await?)
    }

    /// Quarantines a game whose moves do not replay.
    pub async fn mark_damaged(&self, id: &str, why: &str) -> sqlx::Result<()> {
        sqlx::query(
            "UPDATE games SET status = 'damaged', damaged = $1, machine_due = 0, \
             deadline_ms = NULL WHERE id = $2",
        )
        .bind(why)
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(())
    }
}
