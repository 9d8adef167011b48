//! A server killed with SIGKILL in the middle of games keeps every move it
//! acknowledged, and the games go on after a restart.

mod support;

use serde_json::json;
use support::{Server, legal};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_moves_survive_sigkill() {
    let mut s = Server::start(&[]);
    let mut games = Vec::new();
    for _ in 0..3 {
        let (id, red, black) = s.online_pair().await;
        let state = s.state(&id).await;
        games.push((id, [red, black], state, Vec::new()));
    }
    for round in 0..12 {
        for (id, seats, state, acked) in games.iter_mut() {
            let m = legal(state, 0);
            let (status, next) = s
                .post(
                    &format!("/api/games/{id}/moves"),
                    json!({"move": m, "ply": round}),
                    Some(&seats[round % 2]),
                )
                .await;
            assert_eq!(status, 201, "{next}");
            acked.push(m);
            *state = next;
        }
    }
    s.restart(); // SIGKILL: no shutdown, no flush
    for (id, seats, _, acked) in &games {
        let state = s.state(id).await;
        assert_eq!(
            state["moves"],
            json!(acked),
            "every acknowledged move is back, none doubled"
        );
        let m = legal(&state, 0);
        let (status, _) = s
            .post(
                &format!("/api/games/{id}/moves"),
                json!({"move": m, "ply": acked.len()}),
                Some(&seats[acked.len() % 2]),
            )
            .await;
        assert_eq!(status, 201, "the game goes on");
    }
}
