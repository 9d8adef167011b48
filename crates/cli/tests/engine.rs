//! `palabre engine` driven through its standard input, as another program
//! would drive it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use palabre_rules::{GamePosition, Record, nsolo, yote};

/// Sends `script` at once and returns every line the engine printed.
fn session(script: &str) -> Vec<String> {
    session_with(&[], script)
}

fn bestmoves(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect()
}

/// Panics unless `moves` are legal one after the other from `start`.
fn assert_legal<P: GamePosition>(start: P, moves: &[&str]) {
    if let Err(e) = Record::replay(start, moves) {
        panic!("{moves:?}: {e}");
    }
}

#[test]
fn answers_each_go_with_one_legal_bestmove() {
    let lines = session(
        "isready\nposition yote startpos moves c3 c4\ngo depth 3\n\
         position nsolo size 8 moves A1/C2:2\ngo level confirme movetime 200\n\
         position nsolo size 36\ngo movetime 300\n",
    );
    assert_eq!(lines[0], "readyok");
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 3, "{lines:?}");
    assert_legal(yote::Position::START, &["c3", "c4", best[0]]);
    assert_legal(nsolo::Position::start(8).unwrap(), &["A1/C2:2", best[1]]);
    assert_legal(nsolo::Position::start(36).unwrap(), &[best[2]]);
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 1 "))
        .unwrap();
    let words: Vec<&str> = info.split_whitespace().collect();
    assert_eq!(
        [words[2], words[3], words[5], words[7], words[9]],
        ["1", "score", "nodes", "nps", "pv"][..]
    );
}

#[test]
fn a_node_budget_stops_the_search_and_gives_the_same_move_each_time() {
    let go = "position yote startpos moves c3 c4 b3 d4\ngo nodes 20000\n";
    let lines = session(&format!("{go}{go}{go}"));
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 3, "{lines:?}");
    assert!(best.iter().all(|m| *m == best[0]), "{best:?}");
    // Each search reports the same iterations, node for node: only the
    // speed (nps) may differ.
    let searches: Vec<Vec<String>> = lines
        .split(|l| l.starts_with("bestmove"))
        .take(3)
        .map(|infos| {
            infos
                .iter()
                .map(|l| {
                    let w: Vec<&str> = l.split_whitespace().collect();
                    let nps = w.iter().position(|x| *x == "nps").unwrap();
                    [&w[..nps], &w[nps + 2..]].concat().join(" ")
                })
                .collect()
        })
        .collect();
    assert!(!searches[0].is_empty(), "{lines:?}");
    assert!(searches.iter().all(|s| *s == searches[0]), "{searches:?}");
    let errors = session("position yote startpos\ngo nodes many\nquit\n");
    assert!(errors.iter().any(|l| l.starts_with("error ")), "{errors:?}");
    let errors = session("position yote startpos\ngo inc 100\nquit\n");
    assert!(errors.iter().any(|l| l.starts_with("error ")), "{errors:?}");
}

#[test]
fn a_game_clock_gets_an_answer_for_either_game() {
    let lines = session(
        "position yote startpos moves c3 c4\ngo clock 300 inc 20\n\
         position nsolo size 8\ngo clock 200\nposition yote startpos\ngo clock 0\n",
    );
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 3, "{lines:?}");
    assert_legal(yote::Position::START, &["c3", "c4", best[0]]);
    assert_legal(nsolo::Position::start(8).unwrap(), &[best[1]]);
    // A clock already out still gets a move (the server decides the flag).
    assert_legal(yote::Position::START, &[best[2]]);
}

#[test]
fn reports_errors_and_keeps_running() {
    let lines = session(
        "bogus\nposition yote startpos moves c3 c3\nposition nsolo size 99\n\
         go level grandmaster\ngo\nposition yote startpos\ngo depth 1 level debutant\n",
    );
    let errors = lines.iter().filter(|l| l.starts_with("error ")).count();
    assert_eq!(errors, 5, "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("ply 1") && l.contains("c3")),
        "{lines:?}"
    );
    assert_eq!(bestmoves(&lines).len(), 1);
}

#[test]
fn says_none_when_the_game_is_over() {
    let repetition = "A8 D2/A1:1 B3/C1:1,C2:1 C8 A5/C1:1 D6 B7/C1:1 C3 A4 D5/A2:1,A3:1 \
        A8/C1:1 D1/A3:1 A5/C1:1 D2/A3:1 B3 C8 B5 D8/A1:2,A2:1 B8/C1:1,C3:2,C4:1 D2/A3:1,A4:1 A6 \
        D1/A5:1 B6/C1:1 D5 B2 D4 B5 D3 A1 D2 B4 C2 A2 D1 A3 C5 A4 C6 A5 D8 A6 D5 B6";
    let script = format!(
        "position yote fen 5/5/r4/r4/brr2 0 0 b 10\ngo\nposition nsolo size 8 moves {repetition}\ngo\n"
    );
    assert_eq!(bestmoves(&session(&script)), ["none", "none"]);
}

/// The info lines of each search, those before each `bestmove`.
fn infos_by_search(lines: &[String]) -> Vec<Vec<&str>> {
    let mut searches = vec![Vec::new()];
    for line in lines {
        if line.starts_with("info ") {
            searches.last_mut().unwrap().push(line.as_str());
        } else if line.starts_with("bestmove ") {
            searches.push(Vec::new());
        }
    }
    searches.pop();
    searches
}

#[test]
fn a_go_s_time_runs_from_when_it_was_sent() {
    // The second `go` waits behind the first search (at least 0.9 s of its
    // 2 s): its 500 ms are gone when it starts, so it answers at once,
    // with no iteration reported. Sent alone, it reports some.
    let position = "position yote startpos moves c3 c4\n";
    let queued = session(&format!("{position}go movetime 2000\ngo movetime 500\n"));
    assert_eq!(bestmoves(&queued).len(), 2, "{queued:?}");
    assert!(infos_by_search(&queued)[1].is_empty(), "{queued:?}");
    let alone = session(&format!("{position}go movetime 500\n"));
    assert!(!infos_by_search(&alone)[0].is_empty(), "{alone:?}");
}

#[test]
fn stop_answers_at_once() {
    let start = std::time::Instant::now();
    let lines = session("position yote startpos\ngo movetime 60000\nstop\nquit\n");
    assert_eq!(bestmoves(&lines).len(), 1);
    assert!(start.elapsed().as_secs() < 30, "stop was ignored");
}

#[test]
fn threads_are_set_by_flag_or_option_and_stop_still_answers() {
    let lines = session_with(
        &["--threads", "2"],
        "setoption threads 0\nsetoption threads\nsetoption hash 4\nsetoption yote_ball 120\n\
         position yote startpos moves c3 c4\ngo movetime 300\n\
         setoption threads 1\ngo depth 3\nsetoption threads 2\n\
         position nsolo size 8\ngo movetime 60000\nstop\nquit\n",
    );
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error ")).collect();
    assert_eq!(errors.len(), 3, "{lines:?}");
    assert!(errors[0].contains("threads: 1 to 64"), "{errors:?}");
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 3, "{lines:?}");
    assert_legal(yote::Position::START, &["c3", "c4", best[0]]);
    assert_legal(nsolo::Position::start(8).unwrap(), &[best[2]]);
}

/// `palabre engine ARGS`, its input and output piped.
fn engine(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_palabre"))
        .arg("engine")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `script` at once to `palabre engine ARGS` and returns what it printed.
fn session_with(args: &[&str], script: &str) -> Vec<String> {
    session_bytes(args, script.as_bytes())
}

/// [`session_with`] for a script that need not be text.
fn session_bytes(args: &[&str], script: &[u8]) -> Vec<String> {
    let mut child = engine(args);
    child.stdin.take().unwrap().write_all(script).unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    let lines = out.lines().map(Result::unwrap).collect();
    assert!(child.wait().unwrap().success());
    lines
}

/// `palabre tables <args> --dir <dir>`.
fn tables(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_palabre"))
        .arg("tables")
        .args(args)
        .arg("--dir")
        .arg(dir)
        .output()
        .unwrap()
}

#[test]
fn expert_answers_from_the_endgame_tables_when_given_them() {
    let dir = std::env::temp_dir().join(format!("palabre-engine-tables-{}", std::process::id()));
    let built = tables(&["build", "--max", "4"], &dir);
    assert!(built.status.success(), "{built:?}");
    // Three red balls against one black one: a won ending the tables solve.
    let fen = "5/5/1r3/1r1b1/1r3 0 0 r 0";
    let probe = tables(&["probe", "--fen", fen], &dir);
    let probe = String::from_utf8(probe.stdout).unwrap();
    let table_best = probe
        .lines()
        .find_map(|l| l.strip_prefix("best: "))
        .unwrap_or_else(|| panic!("no best move in {probe:?}"))
        .to_owned();
    let script = format!("position yote fen {fen}\ngo depth 2\n");
    let with = session_with(&["--tables", dir.to_str().unwrap()], &script);
    assert_eq!(bestmoves(&with), [table_best.as_str()], "{with:?}");
    assert!(
        with.iter().any(|l| l.starts_with("info depth 0")),
        "{with:?}"
    );
    let without = session_with(&[], &script);
    assert!(
        !without.iter().any(|l| l.starts_with("info depth 0")),
        "{without:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An engine started where `palabre tables build` (or `palabre serve`) left
/// the tables in `tables/` answers from them without being told.
#[test]
fn expert_finds_the_tables_in_the_default_directory() {
    let here = tempfile::tempdir().unwrap();
    let built = tables(&["build", "--max", "4"], &here.path().join("tables"));
    assert!(built.status.success(), "{built:?}");
    let script = "position yote fen 5/5/1r3/1r1b1/1r3 0 0 r 0\ngo depth 2\n";
    let session_in = |cwd: &std::path::Path| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_palabre"))
            .arg("engine")
            .current_dir(cwd)
            .env_remove("PALABRE_TABLES")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        let lines: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        (lines, String::from_utf8(out.stderr).unwrap())
    };
    let (found, _) = session_in(here.path());
    assert!(
        found.iter().any(|l| l.starts_with("info depth 0")),
        "{found:?}"
    );
    let elsewhere = tempfile::tempdir().unwrap();
    let (none, quiet) = session_in(elsewhere.path());
    assert!(
        !none.iter().any(|l| l.starts_with("info depth 0")),
        "{none:?}"
    );
    assert_eq!(quiet, "", "no tables is no warning");
    // Sets it was not asked to read and cannot read, a damaged table and a
    // `tables` that is no directory: it says so and plays without.
    let damaged = tempfile::tempdir().unwrap();
    std::fs::create_dir(damaged.path().join("tables")).unwrap();
    std::fs::write(damaged.path().join("tables/yote-1v1.tbl"), b"not a table").unwrap();
    let not_a_dir = tempfile::tempdir().unwrap();
    std::fs::write(not_a_dir.path().join("tables"), b"").unwrap();
    for cwd in [damaged.path(), not_a_dir.path()] {
        let (lines, warning) = session_in(cwd);
        assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
        assert!(
            warning.contains("warning: tables: ") && warning.contains("playing without tables"),
            "{warning:?}"
        );
    }
}

#[test]
fn reachable_tables_leave_an_odd_material_to_the_search() {
    let dir = std::env::temp_dir().join(format!("palabre-engine-even-{}", std::process::id()));
    let built = tables(&["build", "--max", "4", "--reachable"], &dir);
    assert!(built.status.success(), "{built:?}");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files, ["yote-2v2.tbl"]);
    // Three against one cannot arise from the start: no table, a clear
    // error from the probe, and Expert searches instead.
    let fen = "5/5/1r3/1r1b1/1r3 0 0 r 0";
    let probe = tables(&["probe", "--fen", fen], &dir);
    assert!(!probe.status.success());
    let err = String::from_utf8(probe.stderr).unwrap();
    assert!(err.contains("no table for 3v1"), "{err}");
    let script = format!("position yote fen {fen}\ngo depth 2\n");
    let with = session_with(&["--tables", dir.to_str().unwrap()], &script);
    assert_eq!(bestmoves(&with).len(), 1, "{with:?}");
    assert!(
        !with.iter().any(|l| l.starts_with("info depth 0")),
        "{with:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tunables_are_set_by_name_on_the_command_line() {
    let run = |set: &str| {
        Command::new(env!("CARGO_BIN_EXE_palabre"))
            .args(["engine", "--set", set])
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    assert!(run("soft_time_fraction=0.6").status.success());
    for bad in [
        "soft_time_fraction",
        "no_such=1",
        "tt_bits=40",
        "yote_ball=heavy",
    ] {
        let out = run(bad);
        assert!(!out.status.success(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(bad), "{bad}: {err}");
    }
}

/// The nodes of the last `info` line before each `bestmove`.
fn final_nodes(lines: &[String]) -> Vec<u64> {
    infos_by_search(lines)
        .iter()
        .map(|infos| {
            infos.last().map_or(0, |info| {
                let words: Vec<&str> = info.split_whitespace().collect();
                match words[..] {
                    ["info", "depth", _, "score", _, "nodes", n, ..] => n.parse().unwrap(),
                    _ => 0,
                }
            })
        })
        .collect()
}

#[test]
fn a_move_after_a_ponder_reads_what_the_ponder_found() {
    // Red has just played b2 and ponders on Black's time; Black captures.
    // No time bound anywhere, so that a busy machine changes no count;
    // the end of input lets the last search answer.
    let run = |script: &str| final_nodes(&session_with(&["--expert-ms", "600000"], script));
    let ponder = "position yote startpos moves c3 c4 b2\ngo ponder depth 9\n";
    let reply = "position yote startpos moves c3 c4 b2 c4xc2/b2\n";
    let fresh = run(&format!("{reply}go depth 8\n"));
    let confirme = run(&format!("{reply}go level confirme\n"));
    let nodes = run(&format!(
        "{ponder}{reply}go depth 8\n{ponder}{reply}go level confirme\n\
         {ponder}newgame\n{reply}go depth 8\n"
    ));
    assert_eq!(nodes.len(), 6, "{nodes:?}");
    // Expert after its ponder reaches the same depth sooner (about half
    // the nodes).
    assert!(nodes[1] * 4 < fresh[0] * 3, "{nodes:?} against {fresh:?}");
    // Another level, or a new game, starts from an empty table.
    assert_eq!(nodes[3], confirme[0], "{nodes:?}");
    assert_eq!(nodes[5], fresh[0], "{nodes:?}");
}

#[test]
fn a_stop_after_a_ponder_that_ended_leaves_no_answer_behind() {
    // The ponder ends by its depth before the stop arrives: one answer
    // each, and the next search is not cut short by that stop.
    let lines = session(
        "position yote startpos moves c3\ngo ponder depth 1\nisready\nstop\n\
         position yote startpos moves c3 c4\ngo depth 5\n",
    );
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 2, "{lines:?}");
    assert_legal(yote::Position::START, &["c3", best[0]]);
    assert_legal(yote::Position::START, &["c3", "c4", best[1]]);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")),
        "{lines:?}"
    );
}

#[test]
fn a_ponder_ends_with_the_input_and_a_queued_stop_stops_it() {
    // Sent at once: the stop follows the ponder, not the search before it;
    // then the quit is read.
    let lines = session(
        "position yote startpos moves c3\ngo movetime 200\n\
         position yote startpos moves c3 c4\ngo ponder\nstop\nquit\n",
    );
    assert_eq!(bestmoves(&lines).len(), 2, "{lines:?}");
    // Nobody is left to stop a ponder with no limit: the end of input does.
    let lines = session("position yote startpos moves c3\ngo ponder\n");
    assert_eq!(bestmoves(&lines).len(), 1, "{lines:?}");
}

#[test]
fn a_ponder_runs_past_expert_s_budget_until_stopped() {
    use std::time::Duration;
    let mut child = engine(&["--expert-ms", "20"]);
    let mut input = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let out = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in out.lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    writeln!(input, "position yote startpos moves c3\ngo ponder").unwrap();
    // Once it thinks, and well past Expert's 20 ms, the ponder still thinks.
    let first = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    assert!(first.starts_with("info "), "{first}");
    std::thread::sleep(Duration::from_millis(300));
    let early: Vec<String> = rx.try_iter().collect();
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    writeln!(input, "stop").unwrap();
    let answer = loop {
        let line = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        if line.starts_with("bestmove") {
            break line;
        }
    };
    let best = answer.trim_start_matches("bestmove ");
    assert_legal(yote::Position::START, &["c3", best]);
    writeln!(input, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn readyok_follows_the_commands_sent_before_it() {
    // A client that waits for readyok after setoption hears of the
    // option's error first, even when a search was running.
    let lines =
        session("position yote startpos\ngo depth 6\nsetoption no_such_tunable 1\nisready\n");
    let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix));
    let (best, error, ready) = (at("bestmove"), at("error"), at("readyok"));
    assert!(
        best.is_some() && error.is_some() && ready.is_some(),
        "{lines:?}"
    );
    assert!(best < error && error < ready, "{lines:?}");
}

#[test]
fn a_line_that_cannot_be_read_is_an_error_and_the_next_ones_are_read() {
    let mut script = b"position yote startpos\n\xff\xfe go\r\n".to_vec();
    // A line longer than the engine reads (1 MiB), in a few pieces.
    script.extend(b"position yote startpos moves ");
    script.extend(b"c3 ".repeat(400_000));
    script.extend(b"\ngo depth 2\r\nisready\n");
    let lines = session_bytes(&[], &script);
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error ")).collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    assert!(errors[0].contains("not UTF-8"), "{errors:?}");
    assert!(errors[1].contains("longer than"), "{errors:?}");
    // The long line set no position: the first one still stands.
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert_legal(yote::Position::START, &[best[0]]);
    assert!(lines.iter().any(|l| l == "readyok"), "{lines:?}");
}

/// The resident memory of process `pid`, in MiB.
#[cfg(target_os = "linux")]
fn memory_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib / 1024
}

#[test]
#[cfg(target_os = "linux")]
fn readyok_comes_once_the_table_asked_for_is_allocated() {
    // Slots are 16 bytes: 2^26 of them are 1 GiB, 2^25 half of that. A
    // client syncs on readyok before starting its clock, so the table must
    // exist by then, not be allocated while the next move is timed.
    let mut child = engine(&["--set", "tt_bits=26"]);
    let mut input = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut ready = |input: &mut std::process::ChildStdin| {
        writeln!(input, "isready").unwrap();
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        assert_eq!(line.trim_end(), "readyok");
    };
    ready(&mut input);
    let rss = memory_mib(child.id());
    assert!(rss >= 1024, "{rss} MiB resident at the first readyok");
    writeln!(input, "setoption tt_bits 25").unwrap();
    ready(&mut input);
    let rss = memory_mib(child.id());
    // The old table is gone and the new one is in memory.
    assert!(
        (512..1024).contains(&rss),
        "{rss} MiB after the smaller table"
    );
    writeln!(input, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}
