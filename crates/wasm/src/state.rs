//! A local game's state in the shape of the server's (`GET /api/games/{id}`,
//! docs/api.md), built with the same view code: the page draws both alike.
//! The members that only online games fill (teams, clocks, offers of a
//! take-back) are present and empty.

use std::collections::BTreeMap;

use palabre_rules::Record;
use palabre_view::{Drawn, last_move};
use serde_json::{Value, json};

use crate::local::{LocalError, LocalGame, Opponent};
use crate::record::{AnyRecord, both};

/// The game's state as the page reads it.
pub fn state(game: &LocalGame) -> Result<Value, LocalError> {
    let record = game.record()?;
    let result = game.result()?;
    let machine_to_move = game.machine_to_move()?;
    let playing = result.is_none();
    let players: BTreeMap<&str, &str> = game
        .game
        .sides()
        .into_iter()
        .map(|s| {
            let who = if game.machine.as_deref() == Some(s) {
                "machine"
            } else {
                "human"
            };
            (s, who)
        })
        .collect();
    let mut state = json!({
        "id": game.id,
        "local": true,
        "game": game.game,
        "size": game.size,
        "opponent": game.opponent,
        "level": if game.opponent == Opponent::Machine { game.level.as_str() } else { "" },
        "players": players,
        "ply": record.ply(),
        "turn": record.turn(),
        "moves": game.moves,
        "thinking": playing && machine_to_move,
        "result": result,
        "draw_offer": game.draw_offer,
        "draw_declined": game.draw_declined,
        "takeback_offer": null,
        "takeback_declined": false,
        "status": if playing { "playing" } else { "finished" },
        "time_control": "none",
        "team_size": 1,
        "clocks": null,
        "running": null,
        "rematch": null,
    });
    let open = playing && !machine_to_move;
    both!(&record, r => drawn(&mut state, r, open));
    Ok(state)
}

/// The members that depend on the game: the board, the legal moves and
/// refusals (only when a person is to move), the last move.
fn drawn<P: Drawn>(state: &mut Value, record: &Record<P>, open: bool) {
    let pos = record.position();
    let legal = if open { pos.legal() } else { Vec::new() };
    let refusals = if open {
        pos.refusals(&legal)
    } else {
        BTreeMap::new()
    };
    state["fen"] = json!(pos.to_string());
    state[P::NAME] = pos.board();
    state["legal"] = serde_json::to_value(&legal).unwrap_or_default();
    state["refusals"] = json!(refusals);
    state["last"] = serde_json::to_value(last_move(record)).unwrap_or_default();
}

/// Every position of the game with the move that led to it, as the
/// server's `/replay` answers, for the move list and the analysis board.
pub fn frames(game: &LocalGame) -> Result<Value, LocalError> {
    let record = game.record()?;
    let frames = match &record {
        AnyRecord::Yote(r) => palabre_view::frames(r),
        AnyRecord::Nsolo(r) => palabre_view::frames(r),
    };
    Ok(json!({ "game": game.game, "size": game.size, "frames": frames }))
}
