//! The Yoté endgame tables against a plain exhaustive search, their indexing,
//! and the conversion of their wins within the DTC.

use std::collections::HashMap;

use palabre_ai::tables::{self, Entry, Material, Tables, Wdl};
use palabre_rules::Outcome;
use palabre_rules::yote::{Color, Position, QUIET_LIMIT, Setup};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn built(max: u8) -> (tempfile::TempDir, Tables) {
    built_with(max, tables::BuildOptions::default())
}

fn built_with(max: u8, options: tables::BuildOptions) -> (tempfile::TempDir, Tables) {
    let dir = tempfile::tempdir().unwrap();
    tables::build_with(dir.path(), max, options, |_, _| {}).unwrap();
    let tables = Tables::open(dir.path()).unwrap();
    (dir, tables)
}

fn position(red: u32, black: u32, turn: Color, quiet: u8) -> Position {
    Position::try_from(Setup {
        balls: [red, black],
        reserve: [0, 0],
        turn,
        quiet,
    })
    .unwrap()
}

/// A random position with `mover` and `other` balls, reserves empty.
fn random_position(rng: &mut SmallRng, mover: u32, other: u32, quiet: u8) -> Position {
    let mut holes: Vec<u32> = (0..25).collect();
    holes.shuffle(rng);
    let set = |hs: &[u32]| hs.iter().fold(0, |acc, h| acc | 1 << h);
    let (a, b) = (
        set(&holes[..mover as usize]),
        set(&holes[mover as usize..(mover + other) as usize]),
    );
    let turn = if rng.r#gen() {
        Color::Red
    } else {
        Color::Black
    };
    match turn {
        Color::Red => position(a, b, turn, quiet),
        Color::Black => position(b, a, turn, quiet),
    }
}

/// The exact value for the side to move (1 win, 0 draw, −1 loss) by
/// exhaustive search over positions *and* quiet counts, using only the rules
/// crate. Quiet moves raise the count and captures remove balls, so the
/// search graph has no cycle.
fn exhaustive(position: Position, memo: &mut HashMap<Position, i8>) -> i8 {
    if let Some(&v) = memo.get(&position) {
        return v;
    }
    let value = match position.outcome() {
        Some(Outcome::Win { winner, .. }) => {
            if winner == position.turn() {
                1
            } else {
                -1
            }
        }
        Some(Outcome::Draw { .. }) => 0,
        None => position
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = position;
                child.play_unchecked(m);
                -exhaustive(child, memo)
            })
            .max()
            .expect("a position that is not over has a move"),
    };
    memo.insert(position, value);
    value
}

fn as_number(wdl: Wdl) -> i8 {
    match wdl {
        Wdl::Loss => -1,
        Wdl::Draw => 0,
        Wdl::Win => 1,
    }
}

fn with_quiet(p: Position, quiet: u8) -> Position {
    position(p.balls(Color::Red), p.balls(Color::Black), p.turn(), quiet)
}

#[test]
fn probes_agree_with_an_exhaustive_search() {
    let handle = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let (_dir, tables) = built(4);
            let mut rng = SmallRng::seed_from_u64(7);
            let mut memo = HashMap::new();
            let mut seen = [0u32; 3];
            let mut thresholds = 0;
            for round in 0..400 {
                let total = 2 + round % 3;
                let mover = rng.gen_range(1..total);
                // Four balls: stay within 16 quiet plies of the limit so the
                // exhaustive search stays small; fewer: any count.
                let low = if total == 4 { QUIET_LIMIT - 16 } else { 0 };
                let quiet = rng.gen_range(low..=QUIET_LIMIT);
                let p = random_position(&mut rng, mover, total - mover, quiet);
                if p.outcome().is_some() {
                    continue;
                }
                let probe = tables.probe(&p).unwrap();
                let truth = exhaustive(p, &mut memo);
                assert_eq!(as_number(probe.wdl), truth, "{p}: {probe:?}");
                seen[(truth + 1) as usize] += 1;
                // The DTC is the exact budget the result needs: one ply less
                // of budget and it is a draw.
                if let Some(d) = probe.entry.dtc().filter(|&d| QUIET_LIMIT - d >= low) {
                    let sign = if matches!(probe.entry, Entry::Win(_)) {
                        1
                    } else {
                        -1
                    };
                    assert_eq!(
                        exhaustive(with_quiet(p, QUIET_LIMIT - d), &mut memo),
                        sign,
                        "{p}"
                    );
                    assert_eq!(
                        exhaustive(with_quiet(p, QUIET_LIMIT - d + 1), &mut memo),
                        0,
                        "{p}"
                    );
                    thresholds += 1;
                }
            }
            assert!(
                seen.iter().all(|&n| n > 10),
                "wins, draws and losses all met: {seen:?}"
            );
            assert!(thresholds > 50, "{thresholds} DTCs checked");
        })
        .unwrap();
    handle.join().unwrap();
}

#[test]
fn indices_round_trip() {
    let mut rng = SmallRng::seed_from_u64(3);
    for material in Material::up_to(9) {
        for _ in 0..200 {
            let i = rng.gen_range(0..material.size());
            let (mover, other) = material.unindex(i);
            assert_eq!(mover & other, 0);
            assert_eq!(Material::of(mover, other), Some(material));
            assert_eq!(material.index(mover, other), i, "{material} {i}");
        }
    }
    // Walking a whole material meets every index once, in order.
    let material = Material::new(2, 3).unwrap();
    let mut next = 0;
    tables::index::for_each(
        material,
        0..tables::index::binomial(25, 2),
        |i, mover, other| {
            assert_eq!(i, next);
            assert_eq!(material.index(mover, other), i);
            next += 1;
        },
    );
    assert_eq!(next, material.size());
    assert_eq!(material.size(), 300 * 1771);
}

#[test]
fn stored_bytes_decode_to_entries() {
    for e in [
        Entry::Draw,
        Entry::Win(1),
        Entry::Win(120),
        Entry::Loss(1),
        Entry::Loss(120),
    ] {
        assert_eq!(Entry::decode(e.encode()), Some(e));
    }
    assert_eq!(Entry::decode(121), None);
    assert_eq!(Entry::decode(128), None);
    assert_eq!(Entry::Win(10).under_quiet(110), Wdl::Win);
    assert_eq!(Entry::Win(10).under_quiet(111), Wdl::Draw);
    assert_eq!(Entry::Loss(1).under_quiet(120), Wdl::Draw);
}

/// Plays from `p` until a capture or the end: the winner by the table's best
/// move, the loser by `defend`. Returns the plies played and the last position.
fn convert(
    tables: &Tables,
    mut p: Position,
    mut defend: impl FnMut(&Position) -> palabre_rules::yote::Move,
) -> (u8, Position) {
    let winner = p.turn();
    for ply in 1..=QUIET_LIMIT {
        let m = if p.turn() == winner {
            tables
                .best_move(&p)
                .unwrap()
                .expect("a won position has a move")
                .mv
        } else {
            defend(&p)
        };
        p.play_unchecked(m);
        if m.is_capture() || p.outcome().is_some() {
            return (ply, p);
        }
    }
    panic!("no capture within 120 plies");
}

#[test]
fn table_wins_are_converted_within_their_dtc() {
    let (_dir, tables) = built(5);
    let mut rng = SmallRng::seed_from_u64(11);
    let mut longest = 0;
    for material in Material::up_to(5) {
        let entries = tables.entries(material).unwrap();
        // The longest wins of the material, and a few random ones.
        let best = entries.iter().filter_map(|&b| match Entry::decode(b) {
            Some(Entry::Win(d)) => Some(d),
            _ => None,
        });
        let Some(top) = best.max() else { continue };
        let mut picks: Vec<usize> = entries
            .iter()
            .enumerate()
            .filter(|(_, b)| Entry::decode(**b) == Some(Entry::Win(top)))
            .map(|(i, _)| i)
            .take(3)
            .collect();
        picks.extend((0..3).map(|_| rng.gen_range(0..entries.len())));
        for i in picks {
            let Some(Entry::Win(d)) = Entry::decode(entries[i]) else {
                continue;
            };
            let (mover, other) = material.unindex(i as u64);
            let start = position(mover, other, Color::Red, 0);
            longest = longest.max(d);
            let mut seeded = SmallRng::seed_from_u64(i as u64);
            let random = |p: &Position| *p.legal_moves().choose(&mut seeded).unwrap();
            let stubborn = |p: &Position| tables.best_move(p).unwrap().unwrap().mv;
            for (plies, end) in [
                convert(&tables, start, random),
                convert(&tables, start, stubborn),
            ] {
                assert!(plies <= d, "{start}: dtc {d}, converted in {plies}");
                let won = match end.outcome() {
                    Some(Outcome::Win { winner, .. }) => winner == Color::Red,
                    Some(Outcome::Draw { .. }) => false,
                    // A capture by either side: the winner still wins.
                    None if end.turn() == Color::Red => tables.probe(&end).unwrap().wdl == Wdl::Win,
                    None => tables.probe(&end).unwrap().wdl == Wdl::Loss,
                };
                assert!(won, "{start} → {end}: the win was kept");
            }
        }
    }
    assert!(longest > 3, "long wins were tried (longest {longest})");
}

#[test]
fn preloaded_tables_answer_without_their_files() {
    let (dir, tables) = built(4);
    let probe_all = |tables: &Tables| {
        let mut rng = SmallRng::seed_from_u64(7);
        (0..50)
            .map(|_| {
                let p = random_position(&mut rng, 2, 2, 0);
                tables.probe(&p).map(|probe| probe.wdl)
            })
            .collect::<Vec<_>>()
    };
    let lazy = Tables::open(dir.path()).unwrap();
    tables.preload().unwrap();
    for file in std::fs::read_dir(dir.path()).unwrap() {
        std::fs::remove_file(file.unwrap().path()).unwrap();
    }
    // Everything was read: the preloaded tables still answer, the lazy ones
    // find their files gone.
    let answers = probe_all(&tables);
    assert!(answers.iter().all(Result::is_ok), "{answers:?}");
    assert!(probe_all(&lazy).iter().all(Result::is_err));
}

#[test]
fn a_reachable_build_holds_the_even_materials_with_the_full_entries() {
    let (_all_dir, all) = built(6);
    let options = tables::BuildOptions {
        scope: tables::Scope::Reachable,
        ..Default::default()
    };
    let (_dir, reachable) = built_with(6, options);
    let names = |t: &Tables| {
        t.materials()
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&reachable), ["2v2", "2v4", "4v2"]);
    for m in reachable.materials() {
        assert!(
            reachable.entries(m).unwrap() == all.entries(m).unwrap(),
            "{m} differs from the full build"
        );
    }
    let odd = position(0b111, 0b1 << 12, Color::Red, 0);
    assert!(all.probe(&odd).is_ok());
    assert!(matches!(
        reachable.probe(&odd),
        Err(tables::TableError::Missing(_))
    ));
}

#[test]
fn the_tables_do_not_depend_on_how_the_work_is_split() {
    // One thread with whole tables in a block, against three threads on
    // blocks that split tables, shares and scan chunks unevenly.
    let build = |threads, block| {
        let options = tables::BuildOptions {
            threads,
            block,
            ..Default::default()
        };
        built_with(6, options)
    };
    let ((_one_dir, one), (_split_dir, split)) = (build(1, usize::MAX), build(3, 50_000));
    assert_eq!(one.materials(), split.materials());
    assert!(one.materials().iter().any(|&m| m.size() > 100_000));
    for m in one.materials() {
        assert!(
            one.entries(m).unwrap() == split.entries(m).unwrap(),
            "{m} differs"
        );
    }
}

#[test]
fn games_from_the_start_only_reach_even_materials() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut seen = 0;
    for _ in 0..300 {
        let mut pos = Position::default();
        while pos.outcome().is_none() {
            let (mover, other) = (pos.turn(), pos.turn().other());
            if pos.reserve(mover) == 0 && pos.reserve(other) == 0 {
                let m = Material::of(pos.balls(mover), pos.balls(other)).unwrap();
                assert!(m.reachable(), "{m} reached from the start");
                seen += 1;
            }
            let moves = pos.legal_moves();
            // Captures first half the time, so that games get to few balls.
            let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
            let m = match captures.choose(&mut rng) {
                Some(c) if rng.gen_bool(0.5) => **c,
                _ => *moves[..].choose(&mut rng).unwrap(),
            };
            pos.play_unchecked(m);
        }
    }
    assert!(seen > 1000, "only {seen} positions with empty reserves");
}
