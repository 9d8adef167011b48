//! Who is present in a game: the members with a live connection (a socket,
//! a Bot API game stream) open.
//!
//! On a single node the owner counts each connection as it subscribes and
//! hands it out as a [`Presence`] guard; dropping the guard takes it back,
//! whichever way the connection ends: normally, on an error, or with its
//! request dropped half-way (a client gone before its stream began). A
//! release that each caller had to remember was missed on those paths, and
//! the member stayed present for good.
//!
//! In a cluster the connections are on every node, and counting them one
//! by one at the owner went wrong: a release lost with the bus, or with the
//! node that held the connection, kept a member present for good, and a new
//! owner (after a failover) saw nobody until each client reconnected. So
//! each node counts its own connections ([`Held`]) and reports the whole
//! count for a game to its owner: at once when it changes, and again every
//! [`REPORT_EVERY`]. The owner keeps each node's latest report
//! ([`Reports`]) and drops one that was not renewed for [`REPORT_LIFE`].

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::Games;
use crate::seats::Role;

/// How often a node repeats its reports.
pub const REPORT_EVERY: Duration = Duration::from_secs(5);
/// How long the owner believes a report that was not renewed: a node that
/// died, or lost the bus, no longer vouches for its connections.
pub const REPORT_LIFE: Duration = Duration::from_secs(15);

#[derive(Debug)]
pub struct Presence {
    /// The role the connection plays as; `None` for a spectator, who
    /// counts for nobody.
    role: Option<Role>,
    /// Where the release goes when the connection ends; `None` for a
    /// spectator, or for a role counted by another node.
    held: Option<(Games, String)>,
}

impl Presence {
    pub(super) fn new(games: Games, id: &str, role: Option<Role>) -> Presence {
        Presence {
            role,
            held: role.map(|_| (games, id.to_owned())),
        }
    }

    /// A role counted nowhere: the owner's answer to another node, which
    /// counts the connection itself.
    pub(super) fn uncounted(role: Option<Role>) -> Presence {
        Presence { role, held: None }
    }

    /// The role the connection plays as, if any.
    pub fn role(&self) -> Option<Role> {
        self.role
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        let (Some((games, id)), Some(role)) = (self.held.take(), self.role) else {
            return;
        };
        // Drop cannot wait: the leave goes out on a task of its own. With
        // no runtime left, the owners and their counts are gone too.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { games.leave(&id, role).await });
        }
    }
}

/// One node's count of its connections to one game, numbered so that the
/// owner keeps the latest when two arrive out of order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub seq: u64,
    pub members: Vec<(Role, usize)>,
}

/// This node's connections, by game and role (in a cluster).
#[derive(Debug, Default)]
pub struct Held {
    counts: Mutex<HashMap<String, HashMap<Role, usize>>>,
    seq: AtomicU64,
}

impl Held {
    /// Counts a connection of `role` to game `id` opening (`true`) or closing.
    pub fn count(&self, id: &str, role: Role, open: bool) {
        let mut counts = self.counts.lock().expect("held");
        let n = counts
            .entry(id.to_owned())
            .or_default()
            .entry(role)
            .or_default();
        *n = if open { *n + 1 } else { n.saturating_sub(1) };
    }

    /// The report of game `id` now; a game with no connection left is
    /// forgotten once its empty report is made.
    pub fn report(&self, id: &str) -> Report {
        let mut counts = self.counts.lock().expect("held");
        let members: Vec<(Role, usize)> = counts
            .get(id)
            .map(|roles| {
                roles
                    .iter()
                    .filter(|(_, n)| **n > 0)
                    .map(|(r, n)| (*r, *n))
                    .collect()
            })
            .unwrap_or_default();
        if members.is_empty() {
            counts.remove(id);
        }
        Report {
            seq: self.seq.fetch_add(1, Ordering::Relaxed) + 1,
            members,
        }
    }

    /// The games this node has connections to.
    pub fn games(&self) -> Vec<String> {
        self.counts.lock().expect("held").keys().cloned().collect()
    }
}

/// Every node's latest report on one game, as its owner keeps them.
#[derive(Debug, Default)]
pub struct Reports(HashMap<String, (Report, Instant)>);

impl Reports {
    /// Keeps `report` from node `from` unless a later one is already here.
    /// An empty report is kept too, until it runs out: its number is what
    /// turns away an older one still on its way.
    pub fn update(&mut self, from: String, report: Report, now: Instant) {
        if self
            .0
            .get(&from)
            .is_some_and(|(kept, _)| kept.seq >= report.seq)
        {
            return;
        }
        self.0.insert(from, (report, now + REPORT_LIFE));
    }

    /// Drops the reports not renewed in time; whether one of them held
    /// a connection.
    pub fn expire(&mut self, now: Instant) -> bool {
        let mut dropped = false;
        self.0.retain(|_, (report, until)| {
            let keep = *until > now;
            dropped |= !keep && !report.members.is_empty();
            keep
        });
        dropped
    }

    /// When the next report runs out.
    pub fn next_expiry(&self) -> Option<Instant> {
        self.0.values().map(|(_, until)| *until).min()
    }

    /// Whether some node reports a connection of `role`.
    pub fn holds(&self, role: Role) -> bool {
        self.0
            .values()
            .any(|(r, _)| r.members.iter().any(|(m, n)| *m == role && *n > 0))
    }

    /// Whether no node reports any connection.
    pub fn is_empty(&self) -> bool {
        self.0.values().all(|(r, _)| r.members.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Side;

    const RED: Role = Role::Member {
        side: Side::Red,
        position: 0,
    };

    #[test]
    fn a_node_reports_its_whole_count_and_forgets_an_empty_game() {
        let held = Held::default();
        held.count("g", RED, true);
        held.count("g", RED, true);
        held.count("g", RED, false);
        let first = held.report("g");
        assert_eq!(first.members, vec![(RED, 1)]);
        held.count("g", RED, false);
        let last = held.report("g");
        assert!(last.members.is_empty());
        assert!(last.seq > first.seq);
        assert!(held.games().is_empty(), "nothing left to repeat");
    }

    #[test]
    fn the_owner_keeps_the_latest_report_until_it_runs_out() {
        let now = Instant::now();
        let held = Held::default();
        held.count("g", RED, true);
        let present = held.report("g");
        held.count("g", RED, false);
        let gone = held.report("g");
        let mut reports = Reports::default();
        reports.update("b".into(), gone, now);
        reports.update("b".into(), present.clone(), now);
        assert!(
            !reports.holds(RED),
            "an older report arriving late changes nothing"
        );

        let mut reports = Reports::default();
        reports.update("b".into(), present, now);
        assert!(reports.holds(RED));
        assert!(!reports.expire(now + REPORT_LIFE / 2));
        assert_eq!(reports.next_expiry(), Some(now + REPORT_LIFE));
        assert!(reports.expire(now + REPORT_LIFE), "a node that fell silent");
        assert!(!reports.holds(RED) && reports.is_empty());
    }
}
