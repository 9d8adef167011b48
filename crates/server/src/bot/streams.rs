//! Streams of newline-delimited JSON: an account's events and a game's
//! states, as lichess's Bot API sends them. A blank line every few seconds
//! keeps a quiet stream open (and finds out that its reader left). A stream
//! counts as a live connection of its address, and a reader that stops
//! reading is given up once a line has waited too long.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;

use crate::guards::SocketPlace;

/// Lines a stream holds before its writer waits for the reader.
const BUFFER: usize = 16;
/// A quiet stream sends an empty line this often.
pub const KEEP_ALIVE: Duration = Duration::from_secs(7);

/// Where a stream's writer puts its lines; `false` once the reader is gone
/// or has not taken a line for `within`.
#[derive(Debug, Clone)]
pub struct Lines {
    tx: mpsc::Sender<Result<Bytes, Infallible>>,
    within: Duration,
}

impl Lines {
    async fn put(&self, bytes: Bytes) -> bool {
        matches!(
            tokio::time::timeout(self.within, self.tx.send(Ok(bytes))).await,
            Ok(Ok(()))
        )
    }

    pub async fn send(&self, line: &str) -> bool {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.put(Bytes::from(bytes)).await
    }

    pub async fn keep_alive(&self) -> bool {
        self.put(Bytes::from_static(b"\n")).await
    }
}

/// An NDJSON response whose lines come from a writer task started by
/// `write`; the task's sends fail once the client goes away or stops
/// reading for `within`, and its connection `place` is freed when it ends.
pub fn ndjson<F, Fut>(place: SocketPlace, within: Duration, write: F) -> Response
where
    F: FnOnce(Lines) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let (tx, rx) = mpsc::channel(BUFFER);
    let task = write(Lines { tx, within });
    tokio::spawn(async move {
        task.await;
        drop(place);
    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Limits;
    use crate::guards::{ClientIp, Guards};

    #[tokio::test]
    async fn a_reader_that_never_reads_is_given_up_and_its_place_freed() {
        let guards = Guards::new(Limits::default());
        let place = guards
            .open_socket(ClientIp("10.0.0.1".parse().unwrap()))
            .unwrap();
        let (done, sent) = tokio::sync::oneshot::channel();
        // The response's body is never read.
        let _response = ndjson(place, Duration::from_millis(50), |lines| async move {
            let mut n = 0;
            while lines.send("{}").await {
                n += 1;
            }
            let _ = done.send(n);
        });
        let sent = tokio::time::timeout(Duration::from_secs(5), sent)
            .await
            .expect("the writer gives up")
            .unwrap();
        assert_eq!(
            sent, BUFFER,
            "the buffer filled, then the next line waited in vain"
        );
        for _ in 0..100 {
            if guards.sockets() == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the stream's connection place was not freed");
    }
}
