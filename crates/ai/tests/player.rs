//! Levels, draw offers, hints and the worker threads, as callers use them.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use palabre_ai::player::{AnyPosition, DrawOffer, accepts_draw, think};
use palabre_ai::pool::Pool;
use palabre_ai::tt::Table;
use palabre_ai::worker::{Report, Worker};
use palabre_ai::{AnyMove, Level, Limits, Params, Request, SearchLimit};
use palabre_rules::{nsolo, yote};

fn request(position: AnyPosition, level: Level, seed: u64) -> Request {
    Request {
        position,
        history: Vec::new(),
        level,
        limits: Limits::new(),
        seed,
        tables: None,
        ponder: Default::default(),
    }
}

fn yote(fen: &str) -> AnyPosition {
    AnyPosition::Yote(fen.parse().unwrap())
}

fn best(req: &Request) -> Option<AnyMove> {
    let mut tt = Table::new(14);
    think(
        req,
        &Params::default(),
        &mut tt,
        &AtomicBool::new(false),
        |_| {},
    )
    .best
}

#[test]
fn every_level_is_reproducible_from_its_seed() {
    let positions = [
        yote("1b3/3b1/4b/3r1/rb1r1 7 8 r 4"),
        AnyPosition::Nsolo(nsolo::Position::start(8).unwrap()),
    ];
    for pos in positions {
        for level in [Level::Debutant, Level::Intermediaire, Level::Confirme] {
            let moves: Vec<_> = (0..3)
                .map(|_| best(&request(pos.clone(), level, 42)))
                .collect();
            assert!(moves[0].is_some());
            assert!(moves.iter().all(|m| *m == moves[0]), "{level}: {moves:?}");
        }
    }
}

#[test]
fn debutant_varies_with_the_seed_but_takes_captures_most_of_the_time() {
    // Red can capture (b3xd3); Débutant should usually see it, not always.
    let pos = yote("5/5/1rb2/2b2/5 10 10 r 0");
    let takes = (0..200u64)
        .filter(|seed| matches!(best(&request(pos.clone(), Level::Debutant, *seed)), Some(AnyMove::Yote(m)) if m.is_capture()))
        .count();
    assert!((110..200).contains(&takes), "captured in {takes} of 200");
}

/// Whether the machine accepts, playing the side to move or the other one.
fn machine_accepts(fen: &str, machine_to_move: bool, ply: usize) -> bool {
    let offer = DrawOffer {
        machine_to_move,
        ply,
    };
    accepts_draw(&yote(fen), &[], &Params::default(), offer)
}

#[test]
fn the_machine_accepts_a_draw_only_when_it_is_worse() {
    // Red, to move, is up eight balls.
    let red_ahead = "r3r/5/2r2/5/b4 0 0 r 30";
    // Red, to move, is down eight balls.
    let red_behind = "b3b/5/2b2/5/r4 0 0 r 30";
    // The machine plays red, the side to move.
    assert!(!machine_accepts(red_ahead, true, 30), "ahead, on its turn");
    assert!(machine_accepts(red_behind, true, 30), "behind, on its turn");
    // The machine plays black; the human (red) offers on their own turn.
    assert!(
        machine_accepts(red_ahead, false, 30),
        "behind, human's turn"
    );
    assert!(
        !machine_accepts(red_behind, false, 30),
        "ahead, human's turn"
    );
}

#[test]
fn the_machine_refuses_a_draw_in_the_opening() {
    let start = "5/5/5/5/5 12 12 r 0";
    assert!(!machine_accepts(start, true, 0));
    assert!(!machine_accepts(start, false, 0));
    // Even when worse, too early is too early.
    assert!(!machine_accepts("b3b/5/2b2/5/r4 0 0 r 30", true, 5));
}

#[test]
fn a_hint_is_a_legal_move_for_the_side_to_move() {
    let pos: yote::Position = "1b3/3b1/4b/3r1/rb1r1 7 8 r 4".parse().unwrap();
    let Some(AnyMove::Yote(m)) =
        best(&request(AnyPosition::Yote(pos), Level::Expert, 0).with_movetime(200))
    else {
        panic!("no hint")
    };
    assert!(pos.legal_moves().contains(&m));
}

trait WithMovetime {
    fn with_movetime(self, ms: u64) -> Self;
}

impl WithMovetime for Request {
    fn with_movetime(mut self, ms: u64) -> Request {
        self.limits = self
            .limits
            .with(SearchLimit::MoveTime(Duration::from_millis(ms)));
        self
    }
}

#[test]
fn a_worker_reports_and_stops_on_request() {
    let worker = Worker::new(Params {
        tt_bits: 16,
        ..Params::default()
    });
    worker.think(request(yote("5/5/5/5/5 12 12 r 0"), Level::Expert, 0).with_movetime(60_000));
    let first = worker
        .reports()
        .recv_timeout(Duration::from_secs(10))
        .unwrap();
    assert!(matches!(first, Report::Info(_)));
    let asked = Instant::now();
    worker.stop();
    let done = loop {
        match worker
            .reports()
            .recv_timeout(Duration::from_secs(10))
            .unwrap()
        {
            Report::Done(thought) => break thought,
            Report::Info(_) => {}
        }
    };
    assert!(done.best.is_some());
    assert!(asked.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_pool_thinks_for_many_games_and_refuses_beyond_its_queue() {
    let pool = Pool::new(
        2,
        4,
        Params {
            tt_bits: 14,
            ..Params::default()
        },
    );
    let (tx, rx) = mpsc::channel();
    let mut accepted = 0;
    let mut refused = 0;
    for seed in 0..20 {
        let tx = tx.clone();
        let req = request(yote("5/5/5/5/5 12 12 r 0"), Level::Confirme, seed).with_movetime(300);
        match pool.submit(req, None, move |t| tx.send(t.best.is_some()).unwrap()) {
            Ok(_) => accepted += 1,
            Err(_) => refused += 1,
        }
    }
    assert!(
        accepted >= 4 && refused > 0,
        "accepted {accepted}, refused {refused}"
    );
    for _ in 0..accepted {
        assert!(rx.recv_timeout(Duration::from_secs(30)).unwrap());
    }
}
