//! The flag: one timer a game sleeps until the running clock would reach
//! zero, then ends the game on time if no move came meanwhile.

use std::sync::Arc;

use crate::actions::end_game;
use crate::clock::now_ms;
use crate::session::{Ended, sides};
use crate::state::{AppState, SharedSession};

/// (Re)arms the game's timer for the clock that runs now.
pub async fn watch_flag(app: &AppState, session: &SharedSession) {
    let mut s = session.lock().await;
    if let Some(old) = s.flag_timer.take() {
        old.abort();
    }
    let (Some(running), Some(clocks)) = (s.running_clock(), s.clocks) else {
        return;
    };
    let Some(deadline) = clocks.deadline(running) else {
        return;
    };
    let ply = s.play.ply();
    let (app, shared) = (app.clone(), Arc::clone(session));
    let task = tokio::spawn(async move {
        let wait = (deadline - now_ms()).max(0) as u64;
        tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
        let mut s = shared.lock().await;
        if s.play.ply() != ply || s.result().is_some() {
            return;
        }
        let loser = s.play.turn();
        let [a, b] = sides(&s.row.game);
        let winner = if loser == a { b } else { a };
        s.flag_timer = None;
        if let Err(e) = end_game(
            &app,
            &mut s,
            Ended {
                winner: Some(winner.to_owned()),
                reason: "timeout".into(),
            },
        )
        .await
        {
            tracing::error!("ending {} on time: {e}", s.row.id);
        }
    });
    s.flag_timer = Some(task.abort_handle());
}
