//! A member's presence in a game, held by one live connection (a socket, a
//! Bot API game stream). The owner counts it when the connection subscribes
//! and hands it out as this guard; dropping the guard takes it back,
//! whichever way the connection ends: normally, on an error, or with its
//! request dropped half-way (a client gone before its stream began). A
//! release that each caller had to remember was missed on those paths, and
//! the member stayed present for good.

use super::Games;
use crate::seats::Role;

#[derive(Debug)]
pub struct Presence {
    /// Whose presence, in which game; `None` for a spectator, who counts
    /// for nobody, and once handed over.
    held: Option<(Games, String, Role)>,
}

impl Presence {
    pub(super) fn new(games: Games, id: &str, role: Option<Role>) -> Presence {
        Presence {
            held: role.map(|role| (games, id.to_owned(), role)),
        }
    }

    /// The role the connection plays as, if any.
    pub fn role(&self) -> Option<Role> {
        self.held.as_ref().map(|(_, _, role)| *role)
    }

    /// Gives up the release to whoever takes the role on: the node a
    /// forwarded subscription came from holds a guard of its own.
    pub(super) fn hand_over(mut self) -> Option<Role> {
        self.held.take().map(|(_, _, role)| role)
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        let Some((games, id, role)) = self.held.take() else {
            return;
        };
        // Drop cannot wait: the leave goes out on a task of its own. With
        // no runtime left, the owners and their counts are gone too.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { games.leave(&id, role).await });
        }
    }
}
