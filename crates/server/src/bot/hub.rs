//! Each account's events (challenges, games starting and ending), for the
//! event streams open on this node.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::broadcast;

/// Events an account's streams keep before the slowest skip some.
const BACKLOG: usize = 64;

/// The event channels of the accounts whose streams are open here.
#[derive(Debug, Default)]
pub struct Hub {
    channels: Mutex<HashMap<i64, broadcast::Sender<Arc<str>>>>,
}

impl Hub {
    /// Tells `account`'s open streams; nothing if none is open.
    pub fn send(&self, account: i64, event: &Value) {
        let mut channels = self.channels.lock().expect("hub");
        if let Some(tx) = channels.get(&account)
            && tx.send(Arc::from(event.to_string())).is_err()
        {
            channels.remove(&account);
        }
    }

    /// A new stream of `account`'s events.
    pub fn subscribe(&self, account: i64) -> broadcast::Receiver<Arc<str>> {
        let mut channels = self.channels.lock().expect("hub");
        channels.retain(|_, tx| tx.receiver_count() > 0);
        channels
            .entry(account)
            .or_insert_with(|| broadcast::channel(BACKLOG).0)
            .subscribe()
    }
}
