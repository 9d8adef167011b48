//! The machine in the browser: its move at a game's level, hints, its
//! answer to a draw offer, the analysis of a game and the benchmark, all
//! through the AI crate as on the server. One search at a time runs in the
//! worker's only thread; it ends by its own limits.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use palabre_ai::analysis::{self, Analysable, PlyReport};
use palabre_ai::level::GameKind;
use palabre_ai::nsolo::Nsolo;
use palabre_ai::player::{self, DrawOffer, Request};
use palabre_ai::tt::Table;
use palabre_ai::yote::Yote;
use palabre_ai::{Level, Limits, Params, SearchLimit};
use palabre_rules::{GamePosition, Record};
use serde_json::{Value, json};

use crate::local::{Kind, LocalError, LocalGame, Opponent};
use crate::record::AnyRecord;

/// A hint searches this long at most, as on the server.
const HINT_MS: u64 = 1000;

/// The engine: its tunables and its transposition table, kept between
/// searches so that the memory is taken once.
#[derive(Debug)]
pub struct Machine {
    params: Params,
    tt: Table,
}

impl Default for Machine {
    fn default() -> Machine {
        Machine::new(Params::default())
    }
}

impl Machine {
    pub fn new(params: Params) -> Machine {
        let tt = Table::new(params.tt_bits);
        Machine { params, tt }
    }

    fn think_on(&mut self, req: &Request) -> player::Thought {
        player::think(
            req,
            &self.params,
            &mut self.tt,
            &AtomicBool::new(false),
            |_| {},
        )
    }

    /// The machine's move when it is to move, played on `game`; `None` when
    /// it is not its turn or the game is over.
    pub fn reply(&mut self, game: &mut LocalGame) -> Result<Option<String>, LocalError> {
        if game.result()?.is_some() || !game.machine_to_move()? {
            return Ok(None);
        }
        let level: Level = game
            .level
            .parse()
            .map_err(|_| LocalError::new("bad_request", format!("no level {}", game.level)))?;
        let mut record = game.record()?;
        let (position, history) = record.for_ai();
        let req = Request {
            position,
            history,
            level,
            limits: Limits::new(),
            seed: game.seed ^ record.ply() as u64,
            tables: None,
            ponder: Default::default(),
        };
        let Some(best) = self.think_on(&req).best else {
            return Ok(None);
        };
        let text = best.to_string();
        game.push(&mut record, &text)?;
        Ok(Some(text))
    }

    /// A search of the position after `moves` from `start` at `level`,
    /// capped by `limit`: `{"move", "score", "depth", "nodes", "ms"}` (the
    /// engine protocol's `go`, for matches against the native engine).
    pub fn think(
        &mut self,
        kind: Kind,
        start: &str,
        moves: &[String],
        level: Level,
        limit: Option<SearchLimit>,
    ) -> Result<Value, LocalError> {
        let (position, history) = AnyRecord::replay(kind, start, moves)?.for_ai();
        let mut limits = Limits::new();
        if let Some(limit) = limit {
            limits = limits.with(limit);
        }
        let req = Request {
            position,
            history,
            level,
            limits,
            seed: moves.len() as u64,
            tables: None,
            ponder: Default::default(),
        };
        let t = self.think_on(&req);
        Ok(json!({
            "move": t.best.map(|m| m.to_string()),
            "score": t.score,
            "depth": t.depth,
            "nodes": t.nodes,
            "ms": t.elapsed.as_secs_f64() * 1e3,
        }))
    }

    /// A move for the person to move, as Confirmé would play it.
    pub fn hint(&mut self, game: &LocalGame) -> Result<String, LocalError> {
        if game.result()?.is_some() {
            return Err(LocalError::new("game_over", "the game is over"));
        }
        if game.machine_to_move()? {
            return Err(LocalError::new("not_your_turn", "it is the machine's turn"));
        }
        let (position, history) = game.record()?.for_ai();
        let req = Request {
            position,
            history,
            level: Level::Confirme,
            limits: Limits::new().with(SearchLimit::MoveTime(Duration::from_millis(HINT_MS))),
            seed: 0,
            tables: None,
            ponder: Default::default(),
        };
        self.think_on(&req)
            .best
            .map(|m| m.to_string())
            .ok_or_else(|| LocalError::new("game_over", "no move to suggest"))
    }

    /// A draw offer or answer: against the machine, only an offer, which it
    /// accepts when it judges itself worse (as on the server); on one
    /// screen, between the people.
    pub fn draw(&mut self, game: &mut LocalGame, action: &str) -> Result<(), LocalError> {
        if game.opponent == Opponent::Local {
            return game.draw_between_people(action);
        }
        if action != "offer" {
            return Err(LocalError::new(
                "no_draw_offer",
                "the machine offers no draw",
            ));
        }
        if game.result()?.is_some() {
            return Err(LocalError::new("game_over", "the game is over"));
        }
        let record = game.record()?;
        let (position, history) = record.for_ai();
        let offer = DrawOffer {
            machine_to_move: game.machine_to_move()?,
            ply: record.ply(),
        };
        if player::accepts_draw(&position, &history, &self.params, offer) {
            game.agree_draw();
        } else {
            game.draw_declined = true;
        }
        Ok(())
    }

    /// Judges every move of `game`, calling `each` with one line a ply
    /// (`{"ply","move","eval","best","mark"}` as `palabre analyse` prints,
    /// plus `best_eval`, `loss` and `depth`).
    pub fn analyse(
        &self,
        game: &LocalGame,
        limit: SearchLimit,
        mut each: impl FnMut(Value),
    ) -> Result<(), LocalError> {
        let limits = Limits::new().with(limit);
        let params = &self.params;
        match game.record()? {
            AnyRecord::Yote(r) => {
                analyse(&Yote::new(params.clone()), &r, &limits, params, &mut each)
            }
            AnyRecord::Nsolo(r) => {
                analyse(&Nsolo::new(params.clone()), &r, &limits, params, &mut each)
            }
        }
        Ok(())
    }

    /// The benchmark: every position of [`palabre_ai::bench`] to its depth.
    pub fn bench(&self) -> Value {
        let lines: Vec<Value> = palabre_ai::bench::positions()
            .filter_map(|(game, fen, depth)| {
                let c = palabre_ai::bench::run_one(game, fen, depth, &self.params).ok()?;
                Some(
                    json!({"game": game, "fen": fen, "depth": depth, "nodes": c.nodes,
                            "ms": c.time.as_secs_f64() * 1e3}),
                )
            })
            .collect();
        json!(lines)
    }
}

/// The analysis's default depth for `kind`, as `palabre analyse` uses.
pub fn default_depth(kind: Kind) -> u32 {
    analysis::default_depth(match kind {
        Kind::Yote => GameKind::Yote,
        Kind::Nsolo => GameKind::Nsolo,
    })
}

fn analyse<P: GamePosition, G: Analysable<P>>(
    game: &G,
    record: &Record<P>,
    limits: &Limits,
    params: &Params,
    each: &mut impl FnMut(Value),
) {
    analysis::analyse_each(game, record, limits, params, |r| each(line(&r)));
}

fn line<M: std::fmt::Display>(r: &PlyReport<M>) -> Value {
    json!({
        "ply": r.ply,
        "move": r.played.to_string(),
        "eval": r.eval,
        "best": r.best.to_string(),
        "mark": r.mark.map(|m| m.as_str()),
        "best_eval": r.best_eval,
        "loss": r.loss,
        "depth": r.depth,
    })
}
