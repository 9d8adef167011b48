//! Who is asking: a guest, or an account signed in by its session cookie
//! or by a personal token (`Authorization: Bearer plb_…`). A seat is also a
//! bearer secret; tokens are told apart by their prefix.

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use tower_sessions::Session;

use super::session::signed_in;
use crate::error::AppError;
use crate::seats::{Key, bearer, seat_hash};
use crate::state::AppState;
use crate::store::AccountRow;

/// How personal tokens begin.
pub const TOKEN_PREFIX: &str = "plb_";

/// A signed-in account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: i64,
    pub username: String,
    pub bot: bool,
    /// The token's scopes when signed in by a token; `None` by a session.
    pub scopes: Option<Vec<String>>,
}

impl Account {
    fn new(row: AccountRow, scopes: Option<Vec<String>>) -> Account {
        Account {
            id: row.id,
            username: row.username,
            bot: row.bot,
            scopes,
        }
    }

    /// Whether a token may do what `scope` names (a session may do all).
    pub fn may(&self, scope: &str) -> bool {
        self.scopes
            .as_ref()
            .is_none_or(|s| s.iter().any(|s| s == scope))
    }
}

/// The account behind a request, if any.
#[derive(Debug, Clone, Default)]
pub struct Viewer(pub Option<Account>);

impl Viewer {
    /// The account, or `sign_in_required`.
    pub fn account(&self) -> Result<&Account, AppError> {
        self.0.as_ref().ok_or(AppError::SignInRequired)
    }

    pub fn id(&self) -> Option<i64> {
        self.0.as_ref().map(|a| a.id)
    }

    /// What shows who acts in a game: a seat in the `Authorization` header
    /// first, else the signed-in account.
    pub fn key(&self, headers: &HeaderMap) -> Option<Key> {
        match bearer(headers) {
            Some(seat) if !seat.starts_with(TOKEN_PREFIX) => Some(Key::Seat(seat)),
            _ => self.id().map(Key::Account),
        }
    }
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Viewer, AppError> {
        if let Some(token) = bearer(&parts.headers).filter(|t| t.starts_with(TOKEN_PREFIX)) {
            let (row, scopes) = app
                .store()
                .token_account(&seat_hash(&token))
                .await?
                .ok_or(AppError::BadToken)?;
            let scopes = scopes.split_whitespace().map(str::to_owned).collect();
            return Ok(Viewer(Some(Account::new(row, Some(scopes)))));
        }
        let Some(session) = parts.extensions.get::<Session>() else {
            return Ok(Viewer::default());
        };
        let Some(signed) = signed_in(session).await? else {
            return Ok(Viewer::default());
        };
        match app.store().account(signed.id).await? {
            Some(row) if row.auth_epoch == signed.epoch => {
                Ok(Viewer(Some(Account::new(row, None))))
            }
            _ => Ok(Viewer::default()),
        }
    }
}
