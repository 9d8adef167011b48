//! `palabre arena` as a researcher runs it: a short match, its report, and
//! the `--records` file that lets the games be studied afterwards.

use assert_cmd::Command;
use palabre_rules::{Outcome, Record, yote};
use serde_json::Value;

/// Replays an engine-protocol line `position yote fen F moves M ...`.
fn replay(line: &str) -> Record<yote::Position> {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&words[..3], ["position", "yote", "fen"], "{line}");
    let split = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let start: yote::Position = words[3..split].join(" ").parse().unwrap();
    let moves = words.get(split + 1..).unwrap_or(&[]);
    Record::replay(start, moves).unwrap()
}

#[test]
fn records_every_game_with_a_result_its_moves_reach() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.jsonl");
    let out = Command::cargo_bin("palabre")
        .unwrap()
        .args(["arena", "yote", "--a", "intermediaire", "--b", "greedy"])
        .args(["--games", "4", "--movetime", "50", "--threads", "2"])
        .arg("--records")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("4 games"), "{report}");
    let lines: Vec<Value> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    let mut games: Vec<u64> = lines.iter().map(|g| g["game"].as_u64().unwrap()).collect();
    games.sort_unstable();
    assert_eq!(games, [0, 1, 2, 3]);
    for g in &lines {
        let record = replay(g["position"].as_str().unwrap());
        // A moves first in the even games; the arena opens with two random
        // plies, so the first mover of the played game is Red.
        let a_is_red = g["a_first"].as_bool().unwrap();
        let expected = match record.outcome() {
            Some(Outcome::Win { winner, .. }) => {
                if (winner == yote::Color::Red) == a_is_red {
                    1.0
                } else {
                    0.0
                }
            }
            Some(Outcome::Draw { .. }) => 0.5,
            None => panic!("an unfinished game was recorded: {g}"),
        };
        assert_eq!(g["score"].as_f64(), Some(expected), "{g}");
        assert!(!g["reason"].as_str().unwrap().is_empty());
    }
}

#[test]
fn refuses_a_records_file_it_cannot_create() {
    let out = Command::cargo_bin("palabre")
        .unwrap()
        .args([
            "arena", "yote", "--a", "debutant", "--b", "greedy", "--games", "1",
        ])
        .args(["--records", "/nonexistent-dir/games.jsonl"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("records"), "{err}");
}

/// The p50 move time of a side, from the report's `X move time: p50 …` line.
fn median_ms(report: &str, side: &str) -> f64 {
    let line = report
        .lines()
        .find(|l| l.starts_with(&format!("{side} move time")))
        .unwrap_or_else(|| panic!("no {side} move time in {report}"));
    let p50 = line
        .split("p50 ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    let (number, unit) = p50.split_at(p50.find(|c: char| c.is_alphabetic()).unwrap());
    let scale = match unit {
        "ns" => 1e-6,
        "µs" => 1e-3,
        "ms" => 1.0,
        "s" => 1e3,
        other => panic!("unit {other}"),
    };
    number.parse::<f64>().unwrap() * scale
}

#[test]
fn the_reference_player_takes_each_sides_own_time() {
    let out = Command::cargo_bin("palabre")
        .unwrap()
        .args(["arena", "yote", "--a", "reference", "--b", "reference"])
        .args(["--games", "2", "--movetime", "4", "--b-movetime", "40"])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("A = reference vs B = reference, 2 games"));
    // The reference searches until its deadline, so each median sits near
    // its own budget.
    let (a, b) = (median_ms(&report, "A"), median_ms(&report, "B"));
    assert!(a < 5.0 && b > 20.0, "A {a} ms, B {b} ms: {report}");
}

#[test]
fn the_reference_player_plays_yote_only() {
    let out = Command::cargo_bin("palabre")
        .unwrap()
        .args(["arena", "nsolo", "--a", "reference", "--b", "greedy"])
        .args(["--games", "1", "--movetime", "10"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Yoté only"), "{err}");
}
