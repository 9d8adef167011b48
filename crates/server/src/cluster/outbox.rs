//! The states waiting to go out on the bus: the latest of each game, in the
//! order their games asked. Every state is whole, so a newer state of a
//! game replaces one still waiting: while NATS is slow or away, the queue
//! holds one state per game in memory, not every state ever made, and a
//! game's states still leave in the order its owner made them.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

#[derive(Default)]
struct Waiting {
    /// Subjects in the order they first asked since they last went out.
    order: VecDeque<String>,
    latest: HashMap<String, Arc<str>>,
}

/// One publisher task drains it ([`Outbox::next`]); owners fill it.
#[derive(Default)]
pub struct Outbox {
    waiting: Mutex<Waiting>,
    ready: Notify,
    closed: AtomicBool,
}

impl Outbox {
    /// Queues `json` for `subject`, replacing a state of it still waiting.
    pub fn push(&self, subject: String, json: Arc<str>) {
        let mut w = self.waiting.lock().expect("outbox");
        if let Some(older) = w.latest.get_mut(&subject) {
            *older = json;
            return;
        }
        w.latest.insert(subject.clone(), json);
        w.order.push_back(subject);
        drop(w);
        self.ready.notify_one();
    }

    /// The next state to publish, if one waits.
    pub fn pop(&self) -> Option<(String, Arc<str>)> {
        let mut w = self.waiting.lock().expect("outbox");
        let subject = w.order.pop_front()?;
        let json = w
            .latest
            .remove(&subject)
            .expect("a queued subject has a state");
        Some((subject, json))
    }

    /// Waits for the next state to publish; `None` once closed.
    pub async fn next(&self) -> Option<(String, Arc<str>)> {
        loop {
            if self.closed.load(Ordering::Acquire) {
                return None;
            }
            if let Some(next) = self.pop() {
                return Some(next);
            }
            // A push or a close between `pop` and here leaves a permit: no
            // wake-up is lost.
            self.ready.notified().await;
        }
    }

    /// Ends the publisher: what still waits is dropped with the node.
    pub fn close(&self) {
        self.closed.store(true, Ordering::Release);
        self.ready.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(n: usize) -> Arc<str> {
        Arc::from(format!("{{\"ply\":{n}}}"))
    }

    #[test]
    fn a_slow_bus_keeps_one_state_a_game_the_latest_in_order() {
        let outbox = Outbox::default();
        for ply in 0..10_000 {
            outbox.push("palabre.game.a".into(), state(ply));
            if ply == 5 {
                outbox.push("palabre.game.b".into(), state(ply));
            }
        }
        assert_eq!(outbox.pop(), Some(("palabre.game.a".into(), state(9_999))));
        outbox.push("palabre.game.a".into(), state(10_000));
        assert_eq!(outbox.pop(), Some(("palabre.game.b".into(), state(5))));
        assert_eq!(outbox.pop(), Some(("palabre.game.a".into(), state(10_000))));
        assert_eq!(outbox.pop(), None);
    }

    #[tokio::test]
    async fn the_publisher_wakes_for_a_state_pushed_while_it_waits() {
        let outbox = Arc::new(Outbox::default());
        let waiting = tokio::spawn({
            let outbox = Arc::clone(&outbox);
            async move { outbox.next().await }
        });
        tokio::task::yield_now().await;
        outbox.push("palabre.game.a".into(), state(1));
        let got = tokio::time::timeout(std::time::Duration::from_secs(5), waiting).await;
        assert_eq!(
            got.unwrap().unwrap(),
            Some(("palabre.game.a".into(), state(1)))
        );
        let waiting = tokio::spawn({
            let outbox = Arc::clone(&outbox);
            async move { outbox.next().await }
        });
        outbox.close();
        let got = tokio::time::timeout(std::time::Duration::from_secs(5), waiting).await;
        assert_eq!(got.unwrap().unwrap(), None, "closing ends the publisher");
    }
}
