//! [`Drawn`]: one trait over both games, so that code showing a game (the
//! server's state, the browser engine's local games) is written once.

use std::collections::BTreeMap;

use palabre_rules::nsolo::{self, Step};
use palabre_rules::{GamePosition, yote};
use serde_json::{Value, json};

use crate::board::{NsoloBoard, YoteBoard};
use crate::legal::{self, Legal};

/// A position as a page draws it.
pub trait Drawn: GamePosition {
    /// The board, as the state's `yote` or `nsolo` member.
    fn board(&self) -> Value;
    /// Every legal move, compactly.
    fn legal(&self) -> Vec<Legal>;
    /// Why the side to move's other places refuse a tap, by place name
    /// (`legal` is this position's own list, whose origins need no word).
    fn refusals(&self, legal: &[Legal]) -> BTreeMap<String, &'static str>;
    /// What `m` does from this position, for the animation.
    fn animation(&self, m: &Self::Move) -> Value;
}

impl Drawn for yote::Position {
    fn board(&self) -> Value {
        serde_json::to_value(YoteBoard::of(self)).unwrap_or_default()
    }

    fn legal(&self) -> Vec<Legal> {
        legal::yote_legal(self)
    }

    fn refusals(&self, legal: &[Legal]) -> BTreeMap<String, &'static str> {
        legal::yote_refusals(self, legal)
    }

    fn animation(&self, m: &yote::Move) -> Value {
        let (kind, from, to, second) = legal::yote_parts(*m);
        json!({
            "kind": kind,
            "from": from.map(|s| s.to_string()),
            "to": to.to_string(),
            "jumped": m.jumped().map(|s| s.to_string()),
            "second": second.flatten(),
        })
    }
}

impl Drawn for nsolo::Position {
    fn board(&self) -> Value {
        serde_json::to_value(NsoloBoard::of(self)).unwrap_or_default()
    }

    fn legal(&self) -> Vec<Legal> {
        legal::nsolo_legal(self)
    }

    fn refusals(&self, legal: &[Legal]) -> BTreeMap<String, &'static str> {
        legal::nsolo_refusals(self, legal)
    }

    fn animation(&self, m: &nsolo::Move) -> Value {
        let steps: Vec<Value> = self
            .trace(m)
            .unwrap_or_default()
            .into_iter()
            .map(|s| match s {
                Step::Lift { pit, count, relay } => {
                    json!({"lift": pit.to_string(), "count": count, "relay": relay})
                }
                Step::Drop { pit } => json!({"drop": pit.to_string()}),
                Step::Capture { pit, count } => json!({"capture": pit.to_string(), "count": count}),
                Step::Bonus { pit, count } => json!({"bonus": pit.to_string(), "count": count}),
            })
            .collect();
        json!({ "steps": steps })
    }
}
