//! `palabre arena` as a researcher runs it: a short match, its report, and
//! the `--records` file that lets the games be studied afterwards.

mod ponder_log;

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

/// Runs `palabre arena ARGS --records FILE`; the report and the recorded
/// games.
fn arena_with_records(args: &str) -> (String, Vec<Value>) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.jsonl");
    let out = Command::cargo_bin("palabre")
        .unwrap()
        .arg("arena")
        .args(args.split_whitespace())
        .arg("--records")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (String::from_utf8(out.stdout).unwrap(), lines)
}

#[test]
fn records_every_game_with_a_result_its_moves_reach() {
    let (report, lines) =
        arena_with_records("yote --a intermediaire --b greedy --games 4 --movetime 50 --threads 2");
    assert!(report.contains("4 games"), "{report}");
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

/// Runs `palabre arena ARGS`, which must fail, and returns what it said.
fn arena_error(args: &str) -> String {
    let out = Command::cargo_bin("palabre")
        .unwrap()
        .arg("arena")
        .args(args.split_whitespace())
        .output()
        .unwrap();
    assert!(!out.status.success(), "{args}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn refuses_a_records_file_it_cannot_create() {
    let err = arena_error(
        "yote --a debutant --b greedy --games 1 --records /nonexistent-dir/games.jsonl",
    );
    assert!(err.contains("records"), "{err}");
}

/// An engine command that logs every line the arena sends it to `log`, then
/// hands it on to `palabre engine`.
#[cfg(unix)]
fn logging_engine(dir: &std::path::Path, name: &str) -> (String, std::path::PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let log = dir.join(format!("{name}.log"));
    let script = dir.join(format!("{name}.sh"));
    let bin = assert_cmd::cargo::cargo_bin("palabre");
    std::fs::write(
        &script,
        format!(
            // One log a process: two games at once (--jobs 2) appending to
            // one file could interleave their lines mid-line.
            "#!/bin/sh\ntee -a \"{}.$$\" | exec '{}' engine\n",
            log.display(),
            bin.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    (format!("engine:{}", script.display()), log)
}

/// The lines an engine was sent, one list a process.
#[cfg(unix)]
fn logged(log: &std::path::Path) -> Vec<Vec<String>> {
    let prefix = format!("{}.", log.file_name().unwrap().to_string_lossy());
    let mut all = Vec::new();
    for file in std::fs::read_dir(log.parent().unwrap()).unwrap() {
        let file = file.unwrap();
        if file.file_name().to_string_lossy().starts_with(&prefix) {
            let text = std::fs::read_to_string(file.path()).unwrap();
            all.push(text.lines().map(str::to_owned).collect());
        }
    }
    all
}

/// The budgets of the `go` commands in an engine's logs (one a process).
#[cfg(unix)]
fn budgets(log: &std::path::Path) -> Vec<String> {
    logged(log)
        .into_iter()
        .flatten()
        .filter(|l| l.starts_with("go "))
        .collect()
}

#[cfg(unix)]
#[test]
fn each_side_is_asked_to_move_in_its_own_time() {
    let dir = tempfile::tempdir().unwrap();
    let (a, a_log) = logging_engine(dir.path(), "a");
    let (b, b_log) = logging_engine(dir.path(), "b");
    let out = Command::cargo_bin("palabre")
        .unwrap()
        .args(["arena", "yote", "--a", &a, "--b", &b])
        .args(["--games", "2", "--movetime", "7", "--b-movetime", "40"])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("2 games"), "{report}");
    let (a, b) = (budgets(&a_log), budgets(&b_log));
    assert!(!a.is_empty() && !b.is_empty(), "A {a:?}, B {b:?}");
    assert!(a.iter().all(|g| g == "go movetime 7"), "A was asked {a:?}");
    assert!(b.iter().all(|g| g == "go movetime 40"), "B was asked {b:?}");
}

#[cfg(unix)]
#[test]
fn a_node_budget_is_passed_on_and_replays_a_match_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let (a, a_log) = logging_engine(dir.path(), "a");
    let args = format!("yote --a {a} --b reference --games 2 --nodes 3000 --b-nodes 500 --jobs 2");
    let (_, first) = arena_with_records(&args);
    let go = budgets(&a_log);
    assert!(
        !go.is_empty() && go.iter().all(|g| g == "go nodes 3000"),
        "A was asked {go:?}"
    );
    // No clock anywhere: the same match again plays the same moves.
    let (_, again) = arena_with_records(&args);
    assert_eq!(moves(&first), moves(&again));
}

/// The moves of a match's records, game by game.
fn moves(games: &[Value]) -> Vec<String> {
    let mut lines: Vec<(u64, String)> = games
        .iter()
        .map(|g| (g["game"].as_u64().unwrap(), g["position"].to_string()))
        .collect();
    lines.sort();
    lines.into_iter().map(|(_, l)| l).collect()
}

/// Panics if a game of `games` was lost by a forfeit: a move the engine
/// did not mean, such as the answer of a ponder read as its move.
fn assert_no_forfeit(games: &[Value]) {
    for g in games {
        let reason = g["reason"].as_str().unwrap();
        assert!(
            !["illegal", "malformed", "no move", "time"]
                .iter()
                .any(|f| reason.starts_with(f)),
            "{g}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_ponder_within_the_other_side_s_node_budget_replays_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let (a, a_log) = logging_engine(dir.path(), "a");
    let args = format!("yote --a {a} --b reference --games 4 --nodes 3000 --b-nodes 500 --ponder");
    let (_, first) = arena_with_records(&format!("{args} --jobs 2"));
    assert_no_forfeit(&first);
    let sent: Vec<String> = logged(&a_log).into_iter().flatten().collect();
    let go: Vec<&String> = sent.iter().filter(|l| l.starts_with("go")).collect();
    assert!(go.iter().any(|g| *g == "go ponder nodes 500"), "{go:?}");
    assert!(
        go.iter()
            .all(|g| *g == "go nodes 3000" || *g == "go ponder nodes 500"),
        "{go:?}"
    );
    // A ponder on a node budget is waited for, never cut short.
    assert!(!sent.iter().any(|l| l == "stop"), "{sent:?}");
    // Each game starts afresh, whichever game its engine played before:
    // one game at a time, each engine plays all four in turn.
    let (_, again) = arena_with_records(&format!("{args} --jobs 1"));
    assert_eq!(moves(&first), moves(&again));
}

#[cfg(unix)]
#[test]
fn a_timed_ponder_ends_when_the_engine_s_turn_comes() {
    let dir = tempfile::tempdir().unwrap();
    let (a, a_log) = logging_engine(dir.path(), "a");
    let args = format!("yote --a {a} --b greedy --games 2 --movetime 20 --ponder");
    let (report, games) = arena_with_records(&args);
    assert!(report.contains("2 games"), "{report}");
    assert_no_forfeit(&games);
    let sent = logged(&a_log).concat();
    // The next command after each ponder stops it (or ends the match),
    // within its game: every game starts with `newgame`.
    for then in ponder_log::after_each_stop(&sent, "go ponder") {
        assert!(
            then.first()
                .is_some_and(|l| l.starts_with("position ") || l == "newgame"),
            "{sent:?}"
        );
    }
    assert_eq!(
        sent.iter().filter(|l| *l == "newgame").count(),
        2,
        "{sent:?}"
    );
}

#[test]
fn only_expert_or_an_engine_can_ponder() {
    for level in ["confirme", "greedy", "reference"] {
        let err = arena_error(&format!(
            "yote --a {level} --b greedy --ponder --games 1 --movetime 5"
        ));
        assert!(err.contains("cannot ponder"), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn expert_in_the_arena_ponders_as_the_engine_does() {
    let dir = tempfile::tempdir().unwrap();
    let (engine, _) = logging_engine(dir.path(), "a");
    let args = |a: &str, ponder: &str| {
        format!("yote --a {a} --b reference --games 2 --nodes 3000 --b-nodes 20000 {ponder}")
    };
    let (_, inside) = arena_with_records(&args("expert", "--ponder"));
    let (_, outside) = arena_with_records(&args(&engine, "--ponder"));
    assert_no_forfeit(&inside);
    // The same search, on the same table filled by the same ponder.
    assert_eq!(moves(&inside), moves(&outside));
    // And the ponder is read: without it, Expert plays other moves.
    let (_, unpondered) = arena_with_records(&args("expert", ""));
    assert_ne!(moves(&inside), moves(&unpondered));
}

#[test]
fn expert_s_timed_ponder_in_the_arena_ends_when_its_turn_comes() {
    // A ponder with no budget runs until stopped: were it not stopped at
    // Expert's turn, the next move would wait for it for ever.
    let (report, games) =
        arena_with_records("yote --a expert --b greedy --games 2 --movetime 20 --ponder");
    assert!(report.contains("A wins 2"), "{report}");
    assert_no_forfeit(&games);
}

/// The clock (ms) in each `go clock MS inc INC` of `go`, checking the
/// increment.
#[cfg(unix)]
fn clocks(go: &[String], inc: u64) -> Vec<u64> {
    go.iter()
        .map(|g| {
            let w: Vec<&str> = g.split_whitespace().collect();
            assert_eq!((w[1], w[3], w.len()), ("clock", "inc", 5), "{g}");
            assert_eq!(w[4].parse::<u64>().unwrap(), inc, "{g}");
            w[2].parse().unwrap()
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn each_side_plays_on_its_own_clock() {
    let dir = tempfile::tempdir().unwrap();
    let (a, a_log) = logging_engine(dir.path(), "a");
    let (b, b_log) = logging_engine(dir.path(), "b");
    let args = format!("yote --a {a} --b {b} --games 1 --clock 4000+50 --b-clock 1500+20");
    let (report, _) = arena_with_records(&args);
    assert!(report.contains("1 games"), "{report}");
    let (a, b) = (clocks(&budgets(&a_log), 50), clocks(&budgets(&b_log), 20));
    assert_eq!((a[0], b[0]), (4000, 1500), "A {a:?}, B {b:?}");
    // Each side's clock is charged what its move took and gains only its
    // own increment: it never rises by more.
    assert!(a.windows(2).all(|w| w[1] <= w[0] + 50), "A {a:?}");
    assert!(b.windows(2).all(|w| w[1] <= w[0] + 20), "B {b:?}");
    // Charged: some move of each side took a millisecond or more.
    assert!(a.windows(2).any(|w| w[1] < w[0] + 50), "A {a:?}");
    assert!(b.windows(2).any(|w| w[1] < w[0] + 20), "B {b:?}");
}

#[cfg(unix)]
#[test]
fn a_side_out_of_time_loses() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    // An engine that always thinks 50 ms, whatever it is told.
    let script = dir.path().join("slow.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh
while read -r l; do case \"$l\" in go*) sleep 0.05;; esac; \
             echo \"$l\"; done | exec '{}' engine\n",
            assert_cmd::cargo::cargo_bin("palabre").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let slow = format!("engine:{}", script.display());
    let args = format!("yote --a {slow} --b greedy --games 2 --clock 10+5 --b-clock 60000");
    let (report, games) = arena_with_records(&args);
    assert!(report.contains("A wins 0, draws 0, losses 2"), "{report}");
    assert!(report.contains("endings: time 2"), "{report}");
    for g in &games {
        assert_eq!(
            (g["reason"].as_str(), g["score"].as_f64()),
            (Some("time"), Some(0.0))
        );
    }
}

#[test]
fn the_reference_player_plays_both_games() {
    for game in ["yote", "nsolo"] {
        let out = Command::cargo_bin("palabre")
            .unwrap()
            .args(["arena", game, "--a", "reference", "--b", "greedy"])
            .args(["--games", "2", "--nodes", "3000"])
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{report}");
        assert!(
            report.contains("A = reference vs B = greedy, 2 games"),
            "{report}"
        );
    }
}

#[test]
fn the_sampling_player_plays_a_match_and_beats_greedy() {
    // A playout budget replays exactly, so the two games are always the
    // same; plain Monte-Carlo tree search wins both against one-ply greed.
    let out = Command::cargo_bin("palabre")
        .unwrap()
        .args(["arena", "yote", "--a", "uct", "--b", "greedy"])
        .args(["--games", "2", "--nodes", "2000"])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(
        report.contains("A = uct vs B = greedy, 2 games"),
        "{report}"
    );
    assert!(report.contains("A wins 2, draws 0, losses 0"), "{report}");
}

#[test]
fn the_sampling_player_plays_yote_only() {
    let err = arena_error("nsolo --a uct --b greedy --games 1 --movetime 10");
    assert!(err.contains("the uct player plays Yoté only"), "{err}");
}

#[test]
fn no_random_yote_opening_hands_the_next_side_a_capture() {
    let (_, games) =
        arena_with_records("yote --a greedy --b greedy --games 60 --movetime 1 --seed 7");
    assert_eq!(games.len(), 60);
    for g in &games {
        let record = replay(g["position"].as_str().unwrap());
        // Plies 0 and 1 are the arena's random opening.
        let after = record.position_at(2).unwrap();
        assert_eq!(after.jumps_for(after.turn()), 0, "{g}");
    }
}

#[test]
fn opening_plies_sets_the_random_moves_both_games_of_a_pair_share() {
    // From the start position on a node budget nothing is random: every
    // game with A first is the same game.
    let (_, games) = arena_with_records(
        "yote --a expert --b reference --games 4 --nodes 500 --opening-plies 0 --seed 3",
    );
    let by_game = moves(&games);
    assert_eq!(by_game[0], by_game[2]);
    assert_eq!(by_game[1], by_game[3]);
    // Five random plies: both games of a pair open with the same five,
    // and A moving first after them means A plays Black.
    let (_, games) =
        arena_with_records("yote --a expert --b reference --games 4 --nodes 500 --opening-plies 5");
    let lines: Vec<String> = moves(&games)
        .iter()
        .map(|l| serde_json::from_str::<String>(l).unwrap())
        .collect();
    let opening = |line: &str| -> Vec<String> {
        let (_, moves) = line.split_once(" moves ").unwrap();
        moves.split_whitespace().take(5).map(String::from).collect()
    };
    assert_eq!(opening(&lines[0]), opening(&lines[1]));
    assert_eq!(opening(&lines[2]), opening(&lines[3]));
    assert_ne!(opening(&lines[0]), opening(&lines[2]));
    for g in &games {
        assert_eq!(g["opening_plies"].as_u64(), Some(5), "{g}");
        let record = replay(g["position"].as_str().unwrap());
        let a_is_black = g["a_first"].as_bool().unwrap();
        let expected = match record.outcome() {
            Some(Outcome::Win { winner, .. }) => {
                f64::from(u8::from((winner == yote::Color::Black) == a_is_black))
            }
            Some(Outcome::Draw { .. }) => 0.5,
            None => panic!("an unfinished game was recorded: {g}"),
        };
        assert_eq!(g["score"].as_f64(), Some(expected), "{g}");
    }
    let err = arena_error("yote --a greedy --b greedy --games 1 --opening-plies 13");
    assert!(err.contains("opening-plies"), "{err}");
}

/// An engine command: a shell script running `each` for every line the
/// arena sends (`$l`).
#[cfg(unix)]
fn engine_script(dir: &std::path::Path, name: &str, each: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join(format!("{name}.sh"));
    let text = format!("#!/bin/sh\nwhile read -r l; do {each}; done\n");
    std::fs::write(&script, text).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("engine:{}", script.display())
}

/// An engine command running `body`, cases of a shell `case` over the
/// lines the arena sends, that answers `isready` as every engine must.
#[cfg(unix)]
fn scripted_engine(dir: &std::path::Path, name: &str, body: &str) -> String {
    let each = format!("case \"$l\" in isready) echo readyok;; {body} esac");
    engine_script(dir, name, &each)
}

/// `palabre arena ARGS` within a minute: its report, which must say it
/// ended.
fn arena_within_a_minute(args: &str) -> String {
    let out = Command::cargo_bin("palabre")
        .unwrap()
        .arg("arena")
        .args(args.split_whitespace())
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{args}: {report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    report
}

#[cfg(unix)]
#[test]
fn an_engine_that_never_answers_loses_each_game_and_the_match_ends() {
    let dir = tempfile::tempdir().unwrap();
    let silent = scripted_engine(dir.path(), "silent", "");
    let report = arena_within_a_minute(&format!(
        "yote --a {silent} --b greedy --games 2 --movetime 20"
    ));
    assert!(report.contains("A wins 0, draws 0, losses 2"), "{report}");
    assert!(
        report.contains("endings: engine gave no answer in time 2"),
        "{report}"
    );
    // On a clock, its time runs out.
    let report = arena_within_a_minute(&format!(
        "yote --a greedy --b {silent} --games 2 --clock 200+10"
    ));
    assert!(report.contains("A wins 2, draws 0, losses 0"), "{report}");
    assert!(report.contains("endings: time 2"), "{report}");
}

#[cfg(unix)]
#[test]
fn an_engine_that_never_gets_ready_loses_each_game_and_the_match_ends() {
    let dir = tempfile::tempdir().unwrap();
    // It reads every line and answers none, not even `isready`.
    let deaf = engine_script(dir.path(), "deaf", ":");
    let report = arena_within_a_minute(&format!(
        "yote --a {deaf} --b greedy --games 2 --movetime 20"
    ));
    assert!(report.contains("A wins 0, draws 0, losses 2"), "{report}");
    assert!(
        report.contains("endings: engine gave no answer in time 2"),
        "{report}"
    );
}

#[cfg(unix)]
#[test]
fn an_engine_that_crashes_loses_the_game_and_is_started_again() {
    let dir = tempfile::tempdir().unwrap();
    let crashing = scripted_engine(dir.path(), "crashing", "go*) exit 3;;");
    let report = arena_within_a_minute(&format!(
        "yote --a greedy --b {crashing} --games 4 --movetime 20"
    ));
    assert!(report.contains("A wins 4, draws 0, losses 0"), "{report}");
    assert!(
        report.contains("endings: engine closed its output 4"),
        "{report}"
    );
}
