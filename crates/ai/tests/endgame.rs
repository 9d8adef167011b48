//! Expert with the Yoté endgame tables: it answers from them where they
//! cover the position, converts a table win before the 120-quiet-ply
//! counter runs out even with the tightest budget, and sees a win whose
//! budget is spent as the draw it is.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use palabre_ai::player::{AnyMove, AnyPosition, think};
use palabre_ai::tables::{self, Entry, Material, Tables};
use palabre_ai::tt::Table;
use palabre_ai::{Level, Limits, Params, Request, SearchLimit, Thought};
use palabre_rules::Outcome;
use palabre_rules::yote::{Color, Position, QUIET_LIMIT, Setup};

fn built(max: u8) -> (tempfile::TempDir, Arc<Tables>) {
    let dir = tempfile::tempdir().unwrap();
    tables::build(dir.path(), max, |_, _| {}).unwrap();
    let tables = Tables::open(dir.path()).unwrap();
    (dir, Arc::new(tables))
}

fn expert(p: &Position, tables: Option<Arc<Tables>>) -> Thought {
    let req = Request {
        position: AnyPosition::Yote(*p),
        history: Vec::new(),
        level: Level::Expert,
        limits: Limits::new().with(SearchLimit::Depth(3)),
        seed: 7,
        tables,
    };
    think(
        &req,
        &Params::default(),
        &mut Table::new(12),
        &AtomicBool::new(false),
        |_| {},
    )
}

fn yote_move(t: &Thought) -> palabre_rules::yote::Move {
    match t.best {
        Some(AnyMove::Yote(m)) => m,
        other => panic!("no Yoté move: {other:?}"),
    }
}

/// The longest table win of a material, Red to move, with `quiet` plies
/// already played without a capture.
fn longest_win(tables: &Tables, material: Material) -> (Position, u8) {
    let entries = tables.entries(material).unwrap();
    let (i, d) = entries
        .iter()
        .enumerate()
        .filter_map(|(i, &b)| match Entry::decode(b) {
            Some(Entry::Win(d)) => Some((i, d)),
            _ => None,
        })
        .max_by_key(|&(_, d)| d)
        .unwrap();
    let (red, black) = material.unindex(i as u64);
    let p = Position::try_from(Setup {
        balls: [red, black],
        reserve: [0, 0],
        turn: Color::Red,
        quiet: 0,
    })
    .unwrap();
    (p, d)
}

fn with_quiet(p: Position, quiet: u8) -> Position {
    let mut setup = p.setup();
    setup.quiet = quiet;
    Position::try_from(setup).unwrap()
}

#[test]
fn expert_converts_a_table_win_with_the_tightest_budget() {
    let (_dir, tables) = built(5);
    let (start, dtc) = longest_win(&tables, Material::new(3, 2).unwrap());
    assert!(dtc > 10, "a long win to convert (dtc {dtc})");
    let mut p = with_quiet(start, QUIET_LIMIT - dtc);
    for _ in 0..200 {
        if p.outcome().is_some() {
            break;
        }
        // Red: Expert with the tables; Black: Expert searching without them.
        let m = if p.turn() == Color::Red {
            let t = expert(&p, Some(Arc::clone(&tables)));
            assert_eq!(t.depth, 0, "{p}: answered from the tables");
            assert!(t.score > 0, "{p}: still winning");
            yote_move(&t)
        } else {
            yote_move(&expert(&p, None))
        };
        p.play_unchecked(m);
    }
    assert!(
        matches!(
            p.outcome(),
            Some(Outcome::Win {
                winner: Color::Red,
                ..
            })
        ),
        "{start} (quiet {}): Red's win was converted, ended {p} with {:?}",
        QUIET_LIMIT - dtc,
        p.outcome()
    );
}

#[test]
fn a_win_whose_budget_is_spent_is_a_draw_and_uncovered_positions_are_searched() {
    let (_dir, tables) = built(5);
    let (start, dtc) = longest_win(&tables, Material::new(3, 2).unwrap());
    let late = expert(
        &with_quiet(start, QUIET_LIMIT + 1 - dtc),
        Some(Arc::clone(&tables)),
    );
    assert_eq!((late.depth, late.score), (0, 0), "too late to win: a draw");
    let on_time = expert(
        &with_quiet(start, QUIET_LIMIT - dtc),
        Some(Arc::clone(&tables)),
    );
    assert_eq!(
        yote_move(&on_time),
        tables.best_move(&start).unwrap().unwrap().mv
    );
    // Balls in reserve: not in the tables, so Expert searches.
    let opening: Position = "5/5/2r2/5/5 11 12 b 1".parse().unwrap();
    let searched = expert(&opening, Some(tables));
    assert!(searched.depth > 0 && searched.nodes > 0);
}
