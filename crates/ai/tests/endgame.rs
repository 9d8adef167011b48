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
    expert_with(p, tables, &Params::default())
}

fn expert_with(p: &Position, tables: Option<Arc<Tables>>, params: &Params) -> Thought {
    let req = Request {
        position: AnyPosition::Yote(*p),
        history: Vec::new(),
        level: Level::Expert,
        limits: Limits::new().with(SearchLimit::Depth(3)),
        seed: 7,
        tables,
        ponder: Default::default(),
    };
    think(
        &req,
        params,
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

/// A Red-to-move position of `red` and `black` random balls, reserves empty.
fn random_position(rng: &mut rand::rngs::SmallRng, red: usize, black: usize) -> Position {
    use rand::seq::SliceRandom;
    let mut holes: Vec<u32> = (0..25).collect();
    holes.shuffle(rng);
    let set = |hs: &[u32]| hs.iter().fold(0, |acc, h| acc | 1 << h);
    Position::try_from(Setup {
        balls: [set(&holes[..red]), set(&holes[red..red + black])],
        reserve: [0, 0],
        turn: Color::Red,
        quiet: 0,
    })
    .unwrap()
}

/// The tables' value after `m`, for the side that played it (1, 0, −1), or
/// `None` where they do not cover it.
fn table_value_after(tables: &Tables, p: &Position, m: palabre_rules::yote::Move) -> Option<i8> {
    let mut child = *p;
    child.play_unchecked(m);
    if child.material(child.turn()) == 0 {
        return Some(1);
    }
    let probe = tables.probe(&child).ok()?;
    Some(match probe.wdl {
        tables::Wdl::Win => -1,
        tables::Wdl::Draw => 0,
        tables::Wdl::Loss => 1,
    })
}

#[test]
fn the_search_reads_the_tables_below_the_root() {
    use palabre_ai::score::WIN_BOUND;
    use rand::SeedableRng;
    let (_dir, tables) = built(5);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    let mut seen = 0;
    for _ in 0..300 {
        // Seven balls: beyond the tables, but a capture leads into them.
        let p = random_position(&mut rng, 4, 3);
        if p.outcome().is_some() {
            continue;
        }
        let wins = p
            .legal_moves()
            .iter()
            .any(|&m| m.is_capture() && table_value_after(&tables, &p, m) == Some(1));
        if !wins {
            continue;
        }
        seen += 1;
        // A capture into a table win: the search scores it as one, in the
        // tables' band just below its own forced wins.
        let with = expert(&p, Some(Arc::clone(&tables)));
        assert!(
            with.score > WIN_BOUND - 300 && with.score < WIN_BOUND,
            "{p}: a table win below the root, scored {}",
            with.score
        );
        // Without them the same search finds a real win or a heuristic
        // score, never one in that band.
        let without = expert(&p, None);
        let band = WIN_BOUND - 300..WIN_BOUND;
        assert!(!band.contains(&without.score), "{p}: {}", without.score);
    }
    assert!(seen >= 5, "only {seen} positions with a winning capture");
}

/// How many of the opponent's replies to `m` the tables call lost for it.
fn traps(tables: &Tables, p: &Position, m: palabre_rules::yote::Move) -> usize {
    let mut child = *p;
    child.play_unchecked(m);
    let replies = tables.choices(&child).unwrap();
    replies
        .iter()
        .filter(|r| r.wdl == tables::Wdl::Loss)
        .count()
}

#[test]
fn in_a_drawn_ending_expert_keeps_the_draw_with_the_most_traps() {
    let (_dir, tables) = built(4);
    let material = Material::new(2, 2).unwrap();
    // The first drawn 2v2 position where the tables' first drawing move is
    // not the one that leaves the most losing replies.
    let found = (0..material.size()).find_map(|i| {
        let (red, black) = material.unindex(i);
        let p = Position::try_from(Setup {
            balls: [red, black],
            reserve: [0, 0],
            turn: Color::Red,
            quiet: 0,
        })
        .ok()?;
        if tables.probe(&p).ok()?.wdl != tables::Wdl::Draw {
            return None;
        }
        let drawing: Vec<_> = tables
            .choices(&p)
            .ok()?
            .into_iter()
            .filter(|c| c.wdl == tables::Wdl::Draw)
            .map(|c| (c.mv, traps(&tables, &p, c.mv)))
            .collect();
        let most = drawing.iter().map(|d| d.1).max()?;
        (drawing[0].1 < most).then_some((p, drawing, most))
    });
    let (p, drawing, most) = found.expect("a drawn 2v2 with a better trap than the first draw");
    let mut params = Params {
        yote_table_swindle: false,
        ..Params::default()
    };
    let plain = expert_with(&p, Some(Arc::clone(&tables)), &params);
    assert_eq!(
        yote_move(&plain),
        drawing[0].0,
        "without it: the tables' first move"
    );
    params.yote_table_swindle = true;
    let swindle = yote_move(&expert_with(&p, Some(Arc::clone(&tables)), &params));
    let chosen = drawing.iter().find(|d| d.0 == swindle);
    assert_eq!(
        chosen.map(|d| d.1),
        Some(most),
        "{p}: {swindle} among {drawing:?}"
    );
}
