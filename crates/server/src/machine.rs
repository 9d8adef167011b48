//! The machine's moves: when it is to move, its request goes to the worker
//! pool; the answer is stored, applied and broadcast, unless the game moved
//! on meanwhile (a take-back, a resignation).

use std::sync::Arc;
use std::time::Duration;

use palabre_ai::{Level, Limits, Request};

use crate::actions::{publish, record_result};
use crate::state::{AppState, SharedSession};

/// Starts the machine's search if it is to move and not already thinking.
pub async fn reply_if_due(app: &AppState, session: &SharedSession) {
    let mut s = session.lock().await;
    if !s.machine_to_move() || s.thinking {
        return;
    }
    let (position, history) = s.play.for_ai();
    let level: Level = s.row.level.parse().unwrap_or(Level::Debutant);
    let ply = s.play.ply();
    let seed = s.row.id.bytes().fold(ply as u64, |h, b| {
        h.wrapping_mul(31).wrapping_add(u64::from(b))
    });
    let request = Request {
        position,
        history,
        level,
        limits: Limits::new(),
        seed,
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    let stop = match app.pool.submit(request, move |thought| {
        let _ = tx.send(thought);
    }) {
        Ok(stop) => stop,
        Err(_) => {
            retry_later(app.clone(), Arc::clone(session));
            return;
        }
    };
    s.thinking = true;
    s.stop = Some(stop);
    publish(&s);
    drop(s);
    let app = app.clone();
    let session = Arc::clone(session);
    tokio::spawn(async move {
        let Ok(thought) = rx.await else { return };
        let mut s = session.lock().await;
        if s.play.ply() != ply || !s.machine_to_move() || !s.thinking {
            return;
        }
        s.thinking = false;
        s.stop = None;
        if let Some(m) = thought.best.map(|m| m.to_string()) {
            if let Err(e) = app.store.append_move(&s.row.id, ply, &m, None).await {
                tracing::error!("storing the machine's move {m} in {}: {e}", s.row.id);
                drop(s);
                retry_later(app, session);
                return;
            }
            if let Err(e) = s.play.play(&m) {
                tracing::error!("the machine's move {m} in {} was refused: {e:?}", s.row.id);
            }
            if let Err(e) = record_result(&app, &s).await {
                tracing::error!("recording the result of {}: {e}", s.row.id);
            }
        }
        publish(&s);
    });
}

/// The pool was full: ask again a little later.
fn retry_later(app: AppState, session: SharedSession) {
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(250)).await;
        Box::pin(reply_if_due(&app, &session)).await;
    });
}
