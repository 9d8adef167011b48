//! Serving connections: HTTP/1.1 with a header-read timeout (which also
//! closes kept-alive connections that stay silent), a cap on open
//! connections, the peer's address for the per-address limits, and a
//! graceful stop: no new connections, the current requests finish.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

use crate::config::Limits;

/// Time given to requests in progress when the server stops.
const GRACE: Duration = Duration::from_secs(10);

/// Serves `router` on `listener` until `stop` completes.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: &Limits,
    stop: impl Future<Output = ()>,
) {
    let places = Arc::new(Semaphore::new(limits.connections));
    let graceful = GracefulShutdown::new();
    let mut http = auto::Builder::new(TokioExecutor::new());
    http.http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let http = http.http1_only();
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, say: wait rather than spin.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Ok(place) = Arc::clone(&places).try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service =
            router
                .clone()
                .map_request(move |mut req: hyper::Request<hyper::body::Incoming>| {
                    req.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                    req
                });
        let http = http.clone();
        let watcher = graceful.watcher();
        let first_byte = limits.header_timeout;
        tokio::spawn(async move {
            // hyper's header timeout starts with the first byte; a client
            // that sends nothing at all is dropped here.
            let mut byte = [0u8; 1];
            if !matches!(
                tokio::time::timeout(first_byte, stream.peek(&mut byte)).await,
                Ok(Ok(1..))
            ) {
                return;
            }
            let connection = http
                .serve_connection_with_upgrades(
                    TokioIo::new(stream),
                    TowerToHyperService::new(service),
                )
                .into_owned();
            let _ = watcher.watch(connection).await;
            drop(place);
        });
    }
    drop(listener);
    if tokio::time::timeout(GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("some requests were still running after {GRACE:?}");
    }
}
