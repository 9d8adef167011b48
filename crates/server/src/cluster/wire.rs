//! What nodes say to each other over NATS: a request for the node that owns
//! a game, and its answer. An error crosses as its status, code and message,
//! so the client sees exactly what the owner said.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::domain::Side;
use crate::error::AppError;
use crate::game::{Action, Done, Report};
use crate::seats::{Key, Role};

/// A command for a game, sent to the node that owns it.
#[derive(Debug, Serialize, Deserialize)]
pub struct Forwarded {
    pub game: String,
    pub op: Op,
}

/// What can be asked of a game's owner, in a form that crosses the network.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Op {
    Act {
        key: Option<Key>,
        action: Action,
    },
    Join {
        joiner: crate::game::Joiner,
        side: Option<Side>,
    },
    /// A live connection opens (on the asking node): its role and the state
    /// now. The asking node counts it, and reports with `Present`.
    Subscribe {
        key: Option<Key>,
    },
    Leave {
        role: Role,
    },
    /// A node's count of its own connections to the game.
    Present {
        from: String,
        report: Report,
    },
    State,
    /// A hint, searched on the owner's node.
    Hint {
        key: Option<Key>,
        level: String,
    },
}

/// The owner's answer to an [`Op`].
#[derive(Debug, Serialize, Deserialize)]
pub enum Answer {
    Acted {
        done: Done,
        state: Arc<str>,
    },
    Joined {
        seat: String,
        side: Side,
        state: Arc<str>,
    },
    Subscribed {
        role: Option<Role>,
        now: Arc<str>,
    },
    State(Arc<str>),
    Hint(Option<String>),
    Done,
}

/// An error as it crosses between nodes.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireError {
    pub status: u16,
    pub code: String,
    pub message: String,
    pub retry_after: Option<u64>,
}

impl From<&AppError> for WireError {
    fn from(e: &AppError) -> WireError {
        WireError {
            status: e.status().as_u16(),
            code: e.code().to_owned(),
            message: e.public_message(),
            retry_after: e.retry_after(),
        }
    }
}

impl From<WireError> for AppError {
    fn from(e: WireError) -> AppError {
        if e.code == "moved" {
            return AppError::Moved;
        }
        AppError::Relayed {
            status: e.status,
            code: e.code,
            message: e.message,
            retry_after: e.retry_after,
        }
    }
}

pub type Reply = Result<Answer, WireError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_owner_error_reaches_the_client_unchanged() {
        let e = AppError::StalePly {
            current: 4,
            given: 3,
        };
        let wire: WireError = (&e).into();
        let back: AppError =
            serde_json::from_str::<WireError>(&serde_json::to_string(&wire).unwrap())
                .unwrap()
                .into();
        assert_eq!(back.status(), e.status());
        assert_eq!(back.code(), "stale_ply");
        assert_eq!(back.to_string(), e.to_string());
        let moved: AppError = WireError::from(&AppError::Moved).into();
        assert!(matches!(moved, AppError::Moved));
    }

    #[test]
    fn a_move_crosses_as_json() {
        let op = Op::Act {
            key: Some(crate::seats::Key::Seat("s".into())),
            action: Action::Move {
                notation: "c3".into(),
                ply: 0,
            },
        };
        let text = serde_json::to_string(&op).unwrap();
        match serde_json::from_str::<Op>(&text).unwrap() {
            Op::Act {
                action: Action::Move { notation, ply },
                ..
            } => assert_eq!((notation.as_str(), ply), ("c3", 0)),
            other => panic!("{other:?}"),
        }
    }
}
