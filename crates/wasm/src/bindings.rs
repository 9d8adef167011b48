//! The worker's API: JSON strings in, one JSON string out, either the
//! answer or `{"error": {"code", "message"}}` with the server's error codes.
//! A game goes in as its record and comes back changed with its new state:
//! `{"game": LocalGame, "state": State}`; the worker stores the record.

use palabre_ai::{Level, SearchLimit};
use serde_json::{Value, json};
use std::time::Duration;
use wasm_bindgen::prelude::*;

use crate::local::{Kind, LocalError, LocalGame, NewGame};
use crate::machine::{Machine, default_depth};
use crate::state;

fn parse<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, LocalError> {
    serde_json::from_str(text).map_err(|e| LocalError::new("bad_request", format!("{what}: {e}")))
}

/// What bounds a search from JavaScript: a time above 0, else a depth above
/// 0 (at most 64), else nothing (the caller's default).
fn limit(movetime_ms: u32, depth: u32) -> Option<SearchLimit> {
    if movetime_ms > 0 {
        Some(SearchLimit::MoveTime(Duration::from_millis(u64::from(
            movetime_ms,
        ))))
    } else if depth > 0 {
        Some(SearchLimit::Depth(depth.min(64)))
    } else {
        None
    }
}

/// A changed game and its state.
fn answer(game: &LocalGame) -> Result<Value, LocalError> {
    Ok(json!({ "game": game, "state": state::state(game)? }))
}

fn respond(result: Result<Value, LocalError>) -> String {
    match result {
        Ok(v) => v.to_string(),
        Err(e) => json!({ "error": e }).to_string(),
    }
}

/// Runs `f` on the game read from `game`, then answers with it.
fn change(
    game: &str,
    f: impl FnOnce(&mut LocalGame) -> Result<(), LocalError>,
) -> Result<Value, LocalError> {
    let mut g: LocalGame = parse(game, "game")?;
    f(&mut g)?;
    answer(&g)
}

/// The engine a worker keeps: one at a time thinks.
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct Engine {
    machine: Machine,
}

#[wasm_bindgen]
impl Engine {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Engine {
        Engine::default()
    }

    /// A new game from `{"id","game","size","opponent","level","side","seed"}`.
    pub fn create(&self, spec: &str) -> String {
        respond(parse::<NewGame>(spec, "new game").and_then(|s| answer(&LocalGame::new(&s)?)))
    }

    /// The state of a stored game.
    pub fn state(&self, game: &str) -> String {
        respond(change(game, |_| Ok(())))
    }

    /// The person's move at `ply`.
    pub fn play(&self, game: &str, mv: &str, ply: usize) -> String {
        respond(change(game, |g| g.play(mv, ply)))
    }

    /// The machine's move, if it is to move: `{"game","state","move"}`.
    pub fn reply(&mut self, game: &str) -> String {
        let mut played = None;
        let result = change(game, |g| {
            played = self.machine.reply(g)?;
            Ok(())
        });
        respond(result.map(|mut v| {
            v["move"] = json!(played);
            v
        }))
    }

    /// A suggested move for the person to move: `{"move"}`.
    pub fn hint(&mut self, game: &str) -> String {
        respond(
            parse::<LocalGame>(game, "game")
                .and_then(|g| self.machine.hint(&g))
                .map(|m| json!({ "move": m })),
        )
    }

    pub fn take_back(&self, game: &str) -> String {
        respond(change(game, LocalGame::take_back))
    }

    /// Resigns for `side` (on one screen) or for the person.
    pub fn resign(&self, game: &str, side: Option<String>) -> String {
        respond(change(game, |g| g.resign(side.as_deref())))
    }

    /// `offer`, `accept` or `decline`.
    pub fn draw(&mut self, game: &str, action: &str) -> String {
        respond(change(game, |g| self.machine.draw(g, action)))
    }

    /// Every position with the move that led to it, as the server's replay.
    pub fn frames(&self, game: &str) -> String {
        respond(parse::<LocalGame>(game, "game").and_then(|g| state::frames(&g)))
    }

    /// Judges every move: `each` gets one JSON line a ply as it is ready.
    /// A `movetime_ms` above 0 bounds each position by time, else `depth`
    /// (0: Confirmé's depth).
    pub fn analyse(
        &self,
        game: &str,
        depth: u32,
        movetime_ms: u32,
        each: &js_sys::Function,
    ) -> String {
        let run = |g: LocalGame| {
            let limit =
                limit(movetime_ms, depth).unwrap_or(SearchLimit::Depth(default_depth(g.game)));
            self.machine.analyse(&g, limit, |line| {
                let _ = each.call1(&JsValue::NULL, &JsValue::from_str(&line.to_string()));
            })?;
            Ok(json!({ "done": true }))
        };
        respond(parse::<LocalGame>(game, "game").and_then(run))
    }

    /// Searches the position after `moves` (a JSON list) from `start` of
    /// `game` at `level`, for at most `movetime_ms` (0: the level's own
    /// time) or to `depth` (0: the level's own depth).
    pub fn think(
        &mut self,
        game: &str,
        start: &str,
        moves: &str,
        level: &str,
        movetime_ms: u32,
        depth: u32,
    ) -> String {
        let mut run = || {
            let kind: Kind = parse(&json!(game).to_string(), "game")?;
            let moves: Vec<String> = parse(moves, "moves")?;
            let level: Level = level
                .parse()
                .map_err(|_| LocalError::new("bad_request", format!("no level {level}")))?;
            self.machine
                .think(kind, start, &moves, level, limit(movetime_ms, depth))
        };
        respond(run())
    }

    /// The benchmark positions searched to their depths: nodes and ms each.
    pub fn bench(&self) -> String {
        self.machine.bench().to_string()
    }
}
