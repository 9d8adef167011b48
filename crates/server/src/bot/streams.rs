//! Streams of newline-delimited JSON: an account's events and a game's
//! states, as lichess's Bot API sends them. A blank line every few seconds
//! keeps a quiet stream open (and finds out that its reader left).

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;

/// Lines a stream holds before its writer waits for the reader.
const BUFFER: usize = 16;
/// A quiet stream sends an empty line this often.
pub const KEEP_ALIVE: Duration = Duration::from_secs(7);

/// Where a stream's writer puts its lines; `false` once the reader is gone.
#[derive(Debug, Clone)]
pub struct Lines(mpsc::Sender<Result<Bytes, Infallible>>);

impl Lines {
    pub async fn send(&self, line: &str) -> bool {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.0.send(Ok(Bytes::from(bytes))).await.is_ok()
    }

    pub async fn keep_alive(&self) -> bool {
        self.0.send(Ok(Bytes::from_static(b"\n"))).await.is_ok()
    }
}

/// An NDJSON response whose lines come from a writer task started by
/// `write`; the task's sends fail once the client goes away.
pub fn ndjson<F, Fut>(write: F) -> Response
where
    F: FnOnce(Lines) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let (tx, rx) = mpsc::channel(BUFFER);
    tokio::spawn(write(Lines(tx)));
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}
