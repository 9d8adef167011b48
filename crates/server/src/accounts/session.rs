//! Sessions: `tower-sessions` keeps the cookie (`palabre_session`, HttpOnly,
//! SameSite=Lax) and this module keeps the records in the games' database,
//! so that a session survives a restart and every node of a cluster reads
//! it. A session holds the account and the account's password epoch: a new
//! password ends the sessions made before it.
//!
//! Writes made with the cookie are checked against cross-site requests:
//! a browser names the page that sent them (`Origin`, `Sec-Fetch-Site`), and
//! a request from another site is refused with `csrf`. Programs that are
//! not browsers send neither header and use tokens, not cookies, anyway.

use axum::extract::Request;
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use tower_sessions::cookie::SameSite;
use tower_sessions::session::{Id, Record};
use tower_sessions::session_store::{self, SessionStore};
use tower_sessions::{Expiry, Session, SessionManagerLayer};

use crate::error::AppError;
use crate::store::Store;

/// The session cookie's name.
pub const COOKIE: &str = "palabre_session";
/// A session ends after this long without a request.
const IDLE_DAYS: i64 = 30;
/// Where the signed-in account is kept in the session.
const ACCOUNT: &str = "account";

/// The signed-in account of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedIn {
    pub id: i64,
    pub epoch: i64,
}

/// Session records in the store.
#[derive(Debug, Clone)]
pub struct DbSessions(pub Store);

fn backend(e: impl std::fmt::Display) -> session_store::Error {
    session_store::Error::Backend(e.to_string())
}

#[async_trait::async_trait]
impl SessionStore for DbSessions {
    async fn save(&self, record: &Record) -> session_store::Result<()> {
        let data = serde_json::to_string(&record.data)
            .map_err(|e| session_store::Error::Encode(e.to_string()))?;
        self.0
            .save_session(
                &record.id.to_string(),
                &data,
                record.expiry_date.unix_timestamp(),
            )
            .await
            .map_err(backend)
    }

    async fn load(&self, id: &Id) -> session_store::Result<Option<Record>> {
        let Some((data, expires_at)) = self
            .0
            .load_session(&id.to_string())
            .await
            .map_err(backend)?
        else {
            return Ok(None);
        };
        let data =
            serde_json::from_str(&data).map_err(|e| session_store::Error::Decode(e.to_string()))?;
        let expiry_date = OffsetDateTime::from_unix_timestamp(expires_at)
            .map_err(|e| session_store::Error::Decode(e.to_string()))?;
        Ok(Some(Record {
            id: *id,
            data,
            expiry_date,
        }))
    }

    async fn delete(&self, id: &Id) -> session_store::Result<()> {
        self.0
            .delete_session(&id.to_string())
            .await
            .map_err(backend)
    }
}

/// The layer that gives every request its (lazily loaded) session.
pub fn layer(store: Store) -> SessionManagerLayer<DbSessions> {
    SessionManagerLayer::new(DbSessions(store))
        .with_name(COOKIE)
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        // Served over plain HTTP on a machine of one's own; behind TLS the
        // proxy marks it.
        .with_secure(false)
        .with_expiry(Expiry::OnInactivity(time::Duration::days(IDLE_DAYS)))
}

fn session_error(e: tower_sessions::session::Error) -> AppError {
    AppError::Internal(anyhow::anyhow!("session: {e}"))
}

/// The account signed in on `session`, as the session says.
pub async fn signed_in(session: &Session) -> Result<Option<SignedIn>, AppError> {
    session.get(ACCOUNT).await.map_err(session_error)
}

/// Signs `account` in on a new session id (no fixation of an old one).
pub async fn sign_in(session: &Session, account: SignedIn) -> Result<(), AppError> {
    session.cycle_id().await.map_err(session_error)?;
    session
        .insert(ACCOUNT, account)
        .await
        .map_err(session_error)
}

/// Ends the session: its record is deleted and the cookie cleared.
pub async fn sign_out(session: &Session) -> Result<(), AppError> {
    session.flush().await.map_err(session_error)
}

fn has_session_cookie(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .any(|c| {
            c.trim_start()
                .split_once('=')
                .is_some_and(|(name, _)| name == COOKIE)
        })
}

/// Whether a browser says the request comes from a page of this site:
/// `Sec-Fetch-Site` where the browser sends it (a same-origin write may then
/// carry `Origin: null`, as the site's `no-referrer` policy asks), else an
/// `Origin` that is the request's own host.
fn same_site_request(headers: &HeaderMap) -> bool {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = text("sec-fetch-site") {
        return site == "same-origin" || site == "none";
    }
    match (text(header::ORIGIN.as_str()), text(header::HOST.as_str())) {
        (None, _) => true,
        (Some(origin), Some(host)) => origin
            .split_once("://")
            .is_some_and(|(scheme, rest)| (scheme == "http" || scheme == "https") && rest == host),
        (Some(_), None) => false,
    }
}

/// Refuses a cookie-carrying write sent by another site's page.
pub async fn csrf(req: Request, next: Next) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe && has_session_cookie(req.headers()) && !same_site_request(req.headers()) {
        return AppError::Csrf.into_response();
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn only_this_sites_pages_and_programs_pass() {
        let host = ("host", "127.0.0.1:8080");
        assert!(same_site_request(&headers(&[host])));
        assert!(same_site_request(&headers(&[
            host,
            ("origin", "http://127.0.0.1:8080")
        ])));
        assert!(!same_site_request(&headers(&[
            host,
            ("origin", "https://evil.example")
        ])));
        assert!(!same_site_request(&headers(&[host, ("origin", "null")])));
        assert!(!same_site_request(&headers(&[
            host,
            ("sec-fetch-site", "cross-site")
        ])));
        assert!(!same_site_request(&headers(&[
            host,
            ("sec-fetch-site", "same-site")
        ])));
        let null_same = [host, ("origin", "null"), ("sec-fetch-site", "same-origin")];
        assert!(same_site_request(&headers(&null_same)));
        let evil = [
            host,
            ("origin", "https://evil.example"),
            ("sec-fetch-site", "cross-site"),
        ];
        assert!(!same_site_request(&headers(&evil)));
        assert!(has_session_cookie(&headers(&[(
            "cookie",
            "a=1; palabre_session=xyz"
        )])));
        assert!(!has_session_cookie(&headers(&[(
            "cookie",
            "other=palabre_session"
        )])));
    }
}
