//! Perft suites driven by `tests/data/*.perft`: each line is a position
//! string followed by `; D<depth> <count>` pairs.

use palabre_rules::{nsolo, yote};

fn cases(text: &str) -> Vec<(String, Vec<(u32, u128)>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';').map(str::trim);
            let fen = parts.next().expect("position").to_owned();
            let expected = parts
                .map(|p| {
                    let (d, n) = p.split_once(' ').expect("D<depth> <count>");
                    (
                        d.trim_start_matches('D').parse().unwrap(),
                        n.parse().unwrap(),
                    )
                })
                .collect();
            (fen, expected)
        })
        .collect()
}

#[test]
fn yote_suite() {
    let suite = cases(include_str!("data/yote.perft"));
    assert!(suite.len() >= 10);
    for (fen, expected) in suite {
        let pos: yote::Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (depth, count) in expected {
            assert_eq!(
                u128::from(yote::perft(&pos, depth)),
                count,
                "{fen} depth {depth}"
            );
        }
    }
}

#[test]
fn nsolo_suite() {
    let suite = cases(include_str!("data/nsolo.perft"));
    assert!(suite.len() >= 10);
    for (fen, expected) in suite {
        let pos: nsolo::Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (depth, count) in expected {
            assert_eq!(nsolo::perft(&pos, depth), count, "{fen} depth {depth}");
        }
    }
}

/// Listing the moves and counting them agree, and listing yields distinct
/// canonical strings, on every suite position.
#[test]
fn listing_matches_counting() {
    for (fen, _) in cases(include_str!("data/nsolo.perft")) {
        let pos: nsolo::Position = fen.parse().unwrap();
        if pos.count_moves() > 200_000 {
            continue;
        }
        let listed: Vec<String> = pos.legal_moves().map(|m| m.to_string()).collect();
        let distinct: std::collections::HashSet<&String> = listed.iter().collect();
        assert_eq!(listed.len() as u128, pos.count_moves(), "{fen}");
        assert_eq!(distinct.len(), listed.len(), "{fen}");
    }
    for (fen, _) in cases(include_str!("data/yote.perft")) {
        let pos: yote::Position = fen.parse().unwrap();
        assert_eq!(pos.legal_moves().len() as u64, pos.count_moves(), "{fen}");
    }
}

/// A traced move drops exactly the stones it lifts and ends where the
/// position says, on every suite position's first legal moves.
#[test]
fn traces_account_for_every_stone() {
    use palabre_rules::nsolo::Step;
    for (fen, _) in cases(include_str!("data/nsolo.perft")) {
        let pos: nsolo::Position = fen.parse().unwrap();
        for m in pos.legal_moves().take(50) {
            let steps = pos.trace(&m).unwrap();
            let lifted: u32 = steps
                .iter()
                .map(|s| {
                    if let Step::Lift { count, .. } = s {
                        u32::from(*count)
                    } else {
                        0
                    }
                })
                .sum();
            let dropped = steps
                .iter()
                .filter(|s| matches!(s, Step::Drop { .. }))
                .count() as u32;
            assert_eq!(lifted, dropped, "{fen} {m}");
            let mut next = pos.clone();
            next.play(&m).unwrap();
            let removed: u32 = steps
                .iter()
                .map(|s| match s {
                    Step::Capture { count, .. } | Step::Bonus { count, .. } => u32::from(*count),
                    _ => 0,
                })
                .sum();
            let victim = pos.turn().other();
            assert_eq!(
                pos.stones(victim) - next.stones(victim),
                removed,
                "{fen} {m}"
            );
        }
    }
}
