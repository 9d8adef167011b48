//! What the account and rating tests share: an app in memory and a client
//! that keeps its session cookie, as a browser would.

#![allow(dead_code)]

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use palabre_server::{AppState, Config, Limits, app};
use serde_json::{Value, json};
use tower::ServiceExt;

pub async fn new_app(limits: Limits) -> Router {
    new_app_on(limits, None).await
}

/// An app on database `db` (in memory if `None`).
pub async fn new_app_on(limits: Limits, db: Option<String>) -> Router {
    let config = Config {
        limits,
        db,
        ..Config::testing()
    };
    app(AppState::open(&config).await.unwrap())
}

/// A fresh PostgreSQL database, or `None` (outside CI) when there is no
/// server.
pub async fn postgres() -> Option<String> {
    let base = std::env::var("PALABRE_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://root@127.0.0.1:5432/test".into());
    match palabre_server::store::scratch_postgres(&base).await {
        Ok(url) => Some(url),
        Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("PostgreSQL at {base} is required in CI: {e}")
        }
        Err(e) => {
            eprintln!("skipping PostgreSQL (no server at {base}): {e}");
            None
        }
    }
}

/// Runs `check` on an app in memory (SQLite), then on a fresh PostgreSQL
/// database.
#[macro_export]
macro_rules! on_both {
    ($name:ident, $check:ident) => {
        #[tokio::test]
        async fn $name() {
            $check(common::new_app(palabre_server::Limits::unlimited()).await).await;
            if let Some(url) = common::postgres().await {
                $check(common::new_app_on(palabre_server::Limits::unlimited(), Some(url)).await)
                    .await;
            }
        }
    };
}

/// A server in memory on port 0; its address, `127.0.0.1:PORT`.
pub async fn serve() -> String {
    serve_with(Limits::unlimited()).await
}

/// A server in memory on port 0 with `limits`; its address.
pub async fn serve_with(limits: Limits) -> String {
    serve_state(limits).await.0
}

/// A server in memory on port 0 with `limits`; its address and its state,
/// for a test that reaches into the store.
pub async fn serve_state(limits: Limits) -> (String, AppState) {
    let config = Config {
        limits,
        ..Config::testing()
    };
    let state = AppState::open(&config).await.unwrap();
    let router = app(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        palabre_server::net::serve(listener, router, &config.limits, std::future::pending()).await
    });
    (format!("127.0.0.1:{}", addr.port()), state)
}

pub fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

/// A client of the router with a cookie jar of one cookie.
#[derive(Clone)]
pub struct Client {
    app: Router,
    cookie: Option<String>,
    /// Sent as `Authorization: Bearer …` (a seat or a token).
    pub bearer: Option<String>,
}

impl Client {
    pub fn new(app: &Router) -> Client {
        Client {
            app: app.clone(),
            cookie: None,
            bearer: None,
        }
    }

    /// The answer's status, JSON body and `Retry-After`.
    pub async fn send(
        &mut self,
        method: &str,
        uri: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> (StatusCode, Value, Option<u64>) {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(cookie) = &self.cookie {
            req = req.header(header::COOKIE, cookie);
        }
        if let Some(bearer) = &self.bearer {
            req = req.header(header::AUTHORIZATION, format!("Bearer {bearer}"));
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let body = match body {
            Some(v) => {
                req = req.header(header::CONTENT_TYPE, "application/json");
                Body::from(v.to_string())
            }
            None => Body::empty(),
        };
        let res = self
            .app
            .clone()
            .oneshot(req.body(body).unwrap())
            .await
            .unwrap();
        for set in res.headers().get_all(header::SET_COOKIE) {
            let set = set.to_str().unwrap();
            let pair = set.split(';').next().unwrap().trim().to_owned();
            let gone = set.contains("Max-Age=0") || pair.ends_with('=');
            self.cookie = (!gone).then_some(pair);
        }
        let status = res.status();
        let retry = res
            .headers()
            .get(header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok()?.parse().ok());
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (status, value, retry)
    }

    pub async fn request(
        &mut self,
        method: &str,
        uri: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> (StatusCode, Value) {
        let (status, v, _) = self.send(method, uri, body, headers).await;
        (status, v)
    }

    pub async fn get(&mut self, uri: &str) -> (StatusCode, Value) {
        self.request("GET", uri, None, &[]).await
    }

    pub async fn post(&mut self, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        self.request("POST", uri, body, &[]).await
    }

    pub async fn sign_up(&mut self, username: &str, password: &str) -> (StatusCode, Value) {
        let body = json!({"username": username, "password": password});
        self.post("/api/account/signup", Some(body)).await
    }

    pub async fn log_in(&mut self, username: &str, password: &str) -> (StatusCode, Value) {
        let (status, v, _) = self.log_in_raw(username, password).await;
        (status, v)
    }

    pub async fn log_in_raw(
        &mut self,
        username: &str,
        password: &str,
    ) -> (StatusCode, Value, Option<u64>) {
        let body = json!({"username": username, "password": password});
        self.send("POST", "/api/account/login", Some(body), &[])
            .await
    }
}

/// Runs `sql` on `state`'s database: how a test makes a later write fail
/// (a trigger) or moves a stored time.
pub async fn exec(state: &AppState, sql: &str) {
    sqlx::query(sql)
        .execute(state.store().pool())
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}
