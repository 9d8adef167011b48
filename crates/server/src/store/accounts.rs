//! Accounts, their sessions and personal tokens. Names are unique in lower
//! case; passwords and tokens are stored as hashes only.

use sqlx::any::AnyArguments;
use sqlx::any::AnyRow;
use sqlx::query::Query;
use sqlx::{Any, Row};

use super::{Backend, Store, now};

/// An account as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRow {
    pub id: i64,
    pub username: String,
    pub password_hash: String,
    pub bot: bool,
    pub auth_epoch: i64,
    pub created_at: i64,
}

/// A personal API token, without its secret.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct TokenRow {
    pub id: String,
    pub description: String,
    pub scopes: Vec<String>,
    pub created_at: i64,
}

/// What a deleted account leaves as the name on its games.
pub const DELETED_NAME: &str = "[supprimé]";

const ACCOUNT_COLUMNS: &str = "id, username, password_hash, bot, auth_epoch, created_at";

fn account(r: &AnyRow) -> sqlx::Result<AccountRow> {
    Ok(AccountRow {
        id: r.try_get("id")?,
        username: r.try_get("username")?,
        password_hash: r.try_get("password_hash")?,
        bot: r.try_get::<i64, _>("bot")? != 0,
        auth_epoch: r.try_get("auth_epoch")?,
        created_at: r.try_get("created_at")?,
    })
}

fn token(r: &AnyRow) -> sqlx::Result<TokenRow> {
    let scopes: String = r.try_get("scopes")?;
    Ok(TokenRow {
        id: r.try_get("id")?,
        description: r.try_get("description")?,
        scopes: scopes.split_whitespace().map(str::to_owned).collect(),
        created_at: r.try_get("created_at")?,
    })
}

/// Whether `e` is a broken uniqueness constraint (a name taken).
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_unique_violation())
}

impl Store {
    /// A new account; fails with a unique violation if the name is taken.
    pub async fn create_account(&self, username: &str, password_hash: &str) -> sqlx::Result<i64> {
        sqlx::query_scalar(
            "INSERT INTO accounts (username, username_key, password_hash, created_at) \
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(username)
        .bind(username.to_lowercase())
        .bind(password_hash)
        .bind(now())
        .fetch_one(&self.writer)
        .await
    }

    /// The account named `username`, whatever its case.
    pub async fn account_named(&self, username: &str) -> sqlx::Result<Option<AccountRow>> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key = $1");
        sqlx::query(&sql)
            .bind(username.to_lowercase())
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(account)
            .transpose()
    }

    pub async fn account(&self, id: i64) -> sqlx::Result<Option<AccountRow>> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = $1");
        sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(account)
            .transpose()
    }

    /// A new password; every session made before it ends.
    pub async fn set_password(&self, id: i64, password_hash: &str) -> sqlx::Result<i64> {
        sqlx::query_scalar(
            "UPDATE accounts SET password_hash = $1, auth_epoch = auth_epoch + 1 \
             WHERE id = $2 RETURNING auth_epoch",
        )
        .bind(password_hash)
        .bind(id)
        .fetch_one(&self.writer)
        .await
    }

    /// Makes an account with no games a bot; `false` if it has played.
    pub async fn make_bot(&self, id: i64) -> sqlx::Result<bool> {
        let done = sqlx::query(
            "UPDATE accounts SET bot = 1 WHERE id = $1 \
             AND NOT EXISTS (SELECT 1 FROM seats WHERE account_id = $1) \
             AND NOT EXISTS (SELECT 1 FROM games WHERE account_id = $1)",
        )
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes an account, its ratings and tokens. Its games stay, with
    /// [`DELETED_NAME`] for its name; the ids of those games are returned.
    pub async fn delete_account(&self, id: i64) -> sqlx::Result<Vec<String>> {
        let mut tx = self.writer.begin().await?;
        let games: Vec<String> = sqlx::query_scalar(
            "SELECT game_id FROM seats WHERE account_id = $1 \
             UNION SELECT id FROM games WHERE account_id = $1",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        sqlx::query("UPDATE seats SET name = $1, account_id = NULL, bot = 0 WHERE account_id = $2")
            .bind(DELETED_NAME)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE games SET account_id = NULL WHERE account_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM challenges WHERE challenger_id = $1 OR dest_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        for table in ["rating_history", "ratings", "tokens"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE account_id = $1"))
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("DELETE FROM accounts WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(games)
    }

    /// Stores a new token's hash unless the account already holds `cap`
    /// tokens; whether it was stored. The count and the insert are one
    /// statement, so requests racing for the last place cannot all take it.
    pub async fn create_token(
        &self,
        account: i64,
        id: &str,
        hash: &str,
        description: &str,
        scopes: &[String],
        cap: usize,
    ) -> sqlx::Result<bool> {
        let insert = sqlx::query(
            "INSERT INTO tokens (id, hash, account_id, description, scopes, created_at) \
             SELECT $1, $2, $3, $4, $5, $6 \
             WHERE (SELECT COUNT(*) FROM tokens WHERE account_id = $3) < $7",
        )
        .bind(id)
        .bind(hash)
        .bind(account)
        .bind(description)
        .bind(scopes.join(" "))
        .bind(now())
        .bind(cap as i64);
        self.insert_for_account(account, insert).await
    }

    /// Runs `insert`, a conditional insert that counts what `account`
    /// owns, behind any other holding the account's row, so that it sees
    /// the others' inserts (a row lock on PostgreSQL; SQLite has one
    /// writer anyway); whether it stored its row.
    pub(super) async fn insert_for_account<'q>(
        &self,
        account: i64,
        insert: Query<'q, Any, AnyArguments<'q>>,
    ) -> sqlx::Result<bool> {
        let mut tx = self.writer.begin().await?;
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT id FROM accounts WHERE id = $1 FOR UPDATE")
                .bind(account)
                .fetch_optional(&mut *tx)
                .await?;
        }
        let stored = insert.execute(&mut *tx).await?.rows_affected() == 1;
        tx.commit().await?;
        Ok(stored)
    }

    pub async fn tokens(&self, account: i64) -> sqlx::Result<Vec<TokenRow>> {
        sqlx::query(
            "SELECT id, description, scopes, created_at FROM tokens WHERE account_id = $1 \
             ORDER BY created_at, id",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(token)
        .collect()
    }

    /// Revokes a token of `account`; `false` if it has none by that id.
    pub async fn revoke_token(&self, account: i64, id: &str) -> sqlx::Result<bool> {
        let done = sqlx::query("DELETE FROM tokens WHERE account_id = $1 AND id = $2")
            .bind(account)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The account a token's hash belongs to, with the token's scopes.
    pub async fn token_account(&self, hash: &str) -> sqlx::Result<Option<(AccountRow, String)>> {
        let sql = "SELECT a.id, a.username, a.password_hash, a.bot, a.auth_epoch, a.created_at, \
             t.scopes FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.hash = $1";
        let row = sqlx::query(sql)
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((account(&r)?, r.try_get("scopes")?)))
            .transpose()
    }

    pub async fn load_session(&self, id: &str) -> sqlx::Result<Option<(String, i64)>> {
        let row =
            sqlx::query("SELECT data, expires_at FROM sessions WHERE id = $1 AND expires_at > $2")
                .bind(id)
                .bind(now())
                .fetch_optional(&self.pool)
                .await?;
        row.map(|r| Ok((r.try_get("data")?, r.try_get("expires_at")?)))
            .transpose()
    }

    pub async fn save_session(&self, id: &str, data: &str, expires_at: i64) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO sessions (id, data, expires_at) VALUES ($1, $2, $3) \
             ON CONFLICT (id) DO UPDATE SET data = excluded.data, expires_at = excluded.expires_at",
        )
        .bind(id)
        .bind(data)
        .bind(expires_at)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    pub async fn delete_session(&self, id: &str) -> sqlx::Result<()> {
        sqlx::query("DELETE FROM sessions WHERE id = $1")
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Forgets the sessions that have expired.
    pub async fn delete_expired_sessions(&self) -> sqlx::Result<u64> {
        let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now())
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected())
    }
}
