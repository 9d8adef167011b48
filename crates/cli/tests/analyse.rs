//! `palabre analyse`, run as a user runs it: a record in, one JSON line a
//! ply out, and bad records refused with nothing on stdout.

use std::io::Write;

mod run;

use serde_json::Value;

/// Red places c3, Black c4 beside it (Red may now jump c3xc5), Red plays a
/// quiet a1 instead, and Black jumps c4xc2 (its second ball from Red's
/// reserve): two balls thrown away.
const BLUNDER: &str = "[Game \"yote\"]\n[Size \"5\"]\n[Start \"5/5/5/5/5 12 12 r 0\"]\n\
    [Date \"2026.11.30\"]\n[TimeControl \"none\"]\n[Red \"ana\"]\n[Black \"bo\"]\n\
    [Result \"*\"]\n\n1. c3 c4\n2. a1 c4xc2/r\n";

/// The first plies of a 4×8 game, captures with bonuses included.
const NSOLO: &str = "[Game \"nsolo\"]\n[Size \"8\"]\n[Result \"*\"]\n\n\
    1. B3/D7:1,D8:1 C3/B7:1\n2. A2/D6:1 C7/A4:1,A7:1\n";

/// Runs `palabre analyse ARGS` with `stdin`: exit code, stdout, stderr.
fn analyse(args: &[&str], stdin: &str) -> (i32, String, String) {
    let all: Vec<&str> = std::iter::once("analyse")
        .chain(args.iter().copied())
        .collect();
    run::palabre(&all, stdin)
}

/// Each line parsed, checked to be an object with exactly the five fields.
fn reports(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(keys, ["best", "eval", "mark", "move", "ply"], "{line}");
            assert!(line.starts_with("{\"ply\":"), "{line}");
            v
        })
        .collect()
}

#[test]
fn a_thrown_away_capture_is_a_blunder() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(BLUNDER.as_bytes()).unwrap();
    let path = file.path().to_str().unwrap();
    let (code, out, err) = analyse(&["--depth", "2", path], "");
    assert_eq!(code, 0, "{err}");
    let plies = reports(&out);
    assert_eq!(plies.len(), 4);
    let quiet = &plies[2];
    assert_eq!((&quiet["ply"], &quiet["move"]), (&3.into(), &"a1".into()));
    assert_eq!(quiet["mark"], "blunder");
    assert!(
        quiet["best"].as_str().unwrap().starts_with("c3xc5"),
        "{quiet}"
    );
    assert!(quiet["eval"].as_i64().unwrap() <= -200, "{quiet}");
    // Black's capture is the best move, so it is not marked.
    let capture = &plies[3];
    assert_eq!(capture["move"], "c4xc2/r");
    assert_eq!(capture["best"], capture["move"]);
    assert_eq!(capture["mark"], Value::Null);
    assert!(capture["eval"].as_i64().unwrap() >= 100, "{capture}");
}

#[test]
fn one_json_object_a_ply_from_stdin() {
    let (code, out, err) = analyse(&["--depth", "2", "-"], NSOLO);
    assert_eq!(code, 0, "{err}");
    let plies = reports(&out);
    let moves = ["B3/D7:1,D8:1", "C3/B7:1", "A2/D6:1", "C7/A4:1,A7:1"];
    assert_eq!(plies.len(), moves.len());
    for (i, (ply, played)) in plies.iter().zip(moves).enumerate() {
        assert_eq!(ply["ply"], i + 1);
        assert_eq!(ply["move"], played);
        assert!(ply["eval"].is_i64() && ply["best"].is_string(), "{ply}");
        let mark = &ply["mark"];
        assert!(
            mark.is_null()
                || ["inaccuracy", "mistake", "blunder"].contains(&mark.as_str().unwrap()),
            "{ply}"
        );
        if ply["best"] == ply["move"] {
            assert!(mark.is_null(), "{ply}");
        }
    }
}

#[test]
fn movetime_bounds_the_search_instead_of_depth() {
    let (code, out, err) = analyse(&["--movetime", "40", "-"], BLUNDER);
    assert_eq!(code, 0, "{err}");
    let plies = reports(&out);
    assert_eq!(plies.len(), 4);
    assert_eq!(plies[2]["mark"], "blunder");
}

#[test]
fn bad_records_are_refused_with_nothing_on_stdout() {
    let illegal = BLUNDER.replace("2. a1", "2. c3");
    let malformed_move = BLUNDER.replace("2. a1", "2. z9");
    let cases: [(&str, &str); 5] = [
        (&illegal, "ply 3 (turn 2, red): move \"c3\": illegal"),
        (
            &malformed_move,
            "ply 3 (turn 2, red): move \"z9\": malformed",
        ),
        ("1. c3 c4\n", "missing [Game"),
        ("[Game \"chess\"]\n\n1. e4\n", "unknown game \"chess\""),
        ("[Game \"yote\"\n\n1. c3\n", "missing [Game"),
    ];
    for (record, message) in cases {
        let (code, out, err) = analyse(&["--depth", "1", "-"], record);
        assert_eq!((code, out.as_str()), (2, ""), "{record}");
        assert!(err.contains(message), "{err:?} should say {message:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// Builds the Yoté tables up to `max` balls in a directory of this test's own.
fn tables(name: &str, max: u8) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("palabre-{name}-{}", std::process::id()));
    let max = max.to_string();
    let (code, _, err) = run::palabre(
        &[
            "tables",
            "build",
            "--max",
            &max,
            "--dir",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    dir
}

#[test]
fn with_tables_each_line_says_what_they_know_of_the_position_after_the_move() {
    let dir = tables("analyse-tables", 4);
    let dir = dir.to_str().unwrap();
    // Red steps while Black still holds a ball in reserve (outside the
    // tables), then Black places it: three balls, both reserves empty.
    let start = "5/5/2r2/2b2/5 0 1 r 0";
    let record = format!("[Game \"yote\"]\n[Start \"{start}\"]\n\n1. c3-b3 e5\n");
    let (code, out, err) = analyse(&["--depth", "2", "--tables", dir, "-"], &record);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0]["tables"], Value::Null, "a reserve is not empty");
    // The tables' own word on the position after e5, for Red to move; the
    // line speaks for the mover, Black.
    let (_, after, _) = run::palabre(&["replay", "yote", "--fen", start, "c3-b3", "e5"], "");
    let fen = after.lines().next().unwrap().strip_prefix("fen: ").unwrap();
    let (code, probe, err) = run::palabre(&["tables", "probe", "--dir", dir, "--fen", fen], "");
    assert_eq!(code, 0, "{err}");
    let for_red = probe.lines().next().unwrap();
    let flipped = [("win", "loss"), ("draw", "draw"), ("loss", "win")]
        .into_iter()
        .find(|(red, _)| for_red.starts_with(&format!("value: {red}")))
        .map(|(_, black)| black)
        .unwrap_or_else(|| panic!("{probe}"));
    assert_eq!(lines[1]["tables"]["result"], flipped, "{out}\n{probe}");
    let dtc = probe
        .lines()
        .find_map(|l| l.strip_prefix("dtc: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|d| d.parse::<u64>().ok());
    assert_eq!(lines[1]["tables"]["dtc"].as_u64(), dtc, "{out}\n{probe}");
    assert!(out.lines().all(|l| l.starts_with("{\"ply\":")), "{out}");
}
