//! What a record shows: its last move (for the live page's animation) and
//! every position with the move that led to it (for the replay viewer).

use palabre_rules::Record;
use serde::Serialize;
use serde_json::{Value, json};

use crate::drawn::Drawn;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LastMove {
    pub ply: usize,
    pub by: String,
    #[serde(rename = "move")]
    pub notation: String,
    pub animation: Value,
}

/// The record's last move, from the position it was played in.
pub fn last_move<P: Drawn>(record: &Record<P>) -> Option<LastMove> {
    let ply = record.ply().checked_sub(1)?;
    let before = record.position_at(ply)?;
    let m = record.moves().last()?;
    Some(LastMove {
        ply,
        by: before.turn().to_string(),
        notation: m.to_string(),
        animation: before.animation(m),
    })
}

/// Every position of a record, with the move that led to it.
pub fn frames<P: Drawn>(record: &Record<P>) -> Vec<Value> {
    (0..=record.ply())
        .filter_map(|ply| {
            let pos = record.position_at(ply)?;
            let last = ply.checked_sub(1).and_then(|prev| {
                let before = record.position_at(prev)?;
                let m = &record.moves()[prev];
                Some(json!({
                    "ply": prev, "by": before.turn().to_string(), "move": m.to_string(),
                    "animation": before.animation(m),
                }))
            });
            let mut frame = json!({ "ply": ply, "fen": pos.to_string(), "turn": pos.turn().to_string(), "last": last });
            frame[P::NAME] = pos.board();
            Some(frame)
        })
        .collect()
}
