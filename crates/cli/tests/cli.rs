//! The `palabre` conformance commands, run as a user runs them.

mod run;

/// The shortest repetition found by random play from the 4×8 start.
const REPETITION: &str = "A8 D2/A1:1 B3/C1:1,C2:1 C8 A5/C1:1 D6 B7/C1:1 C3 A4 D5/A2:1,A3:1 \
    A8/C1:1 D1/A3:1 A5/C1:1 D2/A3:1 B3 C8 B5 D8/A1:2,A2:1 B8/C1:1,C3:2,C4:1 D2/A3:1,A4:1 A6 \
    D1/A5:1 B6/C1:1 D5 B2 D4 B5 D3 A1 D2 B4 C2 A2 D1 A3 C5 A4 C6 A5 D8 A6 D5 B6";

fn palabre(args: &[&str]) -> (i32, String, String) {
    run::palabre(args, "")
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

#[test]
fn perft_prints_the_count_last() {
    let (code, out, _) = palabre(&["perft", "yote", "4"]);
    assert_eq!((code, out.as_str()), (0, "310320\n"));
    let (code, out, _) = palabre(&["perft", "nsolo", "1", "--size", "36"]);
    assert_eq!((code, last_line(&out)), (0, "114335"));
}

#[test]
fn perft_divide_sums_to_the_total() {
    let (code, out, _) = palabre(&["perft", "nsolo", "2", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    let (total, rest) = lines.split_last().unwrap();
    assert_eq!(rest.len(), 847);
    let sum: u64 = rest
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!((sum, *total), (659_143, "659143"));
}

#[test]
fn moves_lists_legal_origins_only() {
    let fen = "1,1,1,1,1,1,1,1/0,2,0,0,0,0,0,0/1,0,3,0,1,0,1,0/0,1,0,2,3,2,4,1 s";
    let (code, out, _) = palabre(&["moves", "nsolo", "--fen", fen]);
    assert_eq!((code, out.as_str()), (0, "A4\nA5\nA7\nB3\n"));
    let (_, out, _) = palabre(&["moves", "yote"]);
    assert_eq!(out.lines().count(), 25);
    assert!(out.lines().all(|l| l.len() == 2));
}

#[test]
fn replay_prints_position_and_result() {
    let (code, out, _) = palabre(&["replay", "yote", "c3", "c4", "d3"]);
    assert_eq!(code, 0);
    assert_eq!(out, "fen: 5/2b2/2rr1/5/5 10 11 b 3\nresult: ongoing\n");
    let (_, out, _) = palabre(&[
        "replay",
        "yote",
        "--fen",
        "5/5/r4/r4/br1r1 0 0 r 10",
        "d1-c1",
    ]);
    assert_eq!(
        out,
        "fen: 5/5/r4/r4/brr2 0 0 b 11\nresult: red wins by ndar-kepp\n"
    );
    let (_, out, _) = palabre(&[
        "replay",
        "yote",
        "--fen",
        "r3r/5/5/5/b3b 0 0 r 119",
        "a5-b5",
    ]);
    assert_eq!(last_line(&out), "result: draw by quiet-moves");
    let (_, out, _) = palabre(&["replay", "yote", "--fen", "r3r/5/1rb2/5/5 0 0 r 7", "b3xd3"]);
    assert_eq!(last_line(&out), "result: red wins by all-captured");
    let fen = "0,0,0,0,0,0,0,1/0,0,3,0,0,0,0,0/0,0,0,0,2,0,0,0/1,0,0,0,0,0,0,0 s";
    let (_, out, _) = palabre(&["replay", "nsolo", "--fen", fen, "B5/D8:1"]);
    assert_eq!(last_line(&out), "result: south wins by no-stones");
    let (_, out, _) = palabre(&["replay", "nsolo", "--size", "9"]);
    assert!(out.starts_with("fen: 2,2,2,2,2,2,2,2,2/0,2,"), "{out}");
}

#[test]
fn replay_detects_repetition_at_the_exact_ply() {
    let moves: Vec<&str> = REPETITION.split_whitespace().collect();
    let mut args = vec!["replay", "nsolo"];
    args.extend(&moves);
    let (code, out, _) = palabre(&args);
    assert_eq!((code, last_line(&out)), (0, "result: draw by repetition"));
    args.pop();
    let (_, out, _) = palabre(&args);
    assert_eq!(last_line(&out), "result: ongoing");
}

#[test]
fn numbers_may_carry_leading_zeros() {
    let (code, out, _) = palabre(&["perft", "yote", "1", "--fen", "5/5/5/5/5 0012 012 r 000"]);
    assert_eq!((code, out.as_str()), (0, "25\n"));
    let fen = "2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/2,0002,2,2,2,2,2,0/2,2,2,2,2,2,2,2 s";
    let (code, out, _) = palabre(&["perft", "nsolo", "1", "--fen", fen]);
    assert_eq!((code, out.as_str()), (0, "847\n"));
    let (code, _, err) = palabre(&["perft", "yote", "1", "--fen", "5/5/5/5/5 99999999 12 r 0"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn input_errors_exit_2_with_one_line_and_no_output() {
    let cases: &[&[&str]] = &[
        &["perft", "yote", "2", "--fen", "5/5/5/5/6 12 12 r 0"],
        &["perft", "yote", "2", "--fen", "5/5/5/5/5 12 12 r 121"],
        &["moves", "nsolo", "--fen", "2,2/2,2 s"],
        &["moves", "nsolo", "--size", "40"],
        &["moves", "yote", "--size", "8"],
        &["replay", "yote", "c3", "c3"],
        &["replay", "yote", "c3", "zz"],
        &["replay", "nsolo", "A1/C2:1"],
        &[
            "replay",
            "yote",
            "--fen",
            "r3r/5/5/5/b3b 0 0 r 120",
            "a5-b5",
        ],
    ];
    for args in cases {
        let (code, out, err) = palabre(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let (_, _, err) = palabre(&["replay", "yote", "c3", "c3"]);
    assert!(
        err.contains("ply 1") && err.contains("c3") && err.contains("occupied"),
        "{err}"
    );
    let (_, _, err) = palabre(&["replay", "nsolo", "A1/C2:1"]);
    assert!(
        err.contains("ply 0") && err.contains("bonus removes 1 stone, 2 required"),
        "{err}"
    );
    let (_, _, err) = palabre(&["perft", "yote", "1", "--fen", "5/5/5/5/6 12 12 r 0"]);
    assert!(err.contains("rank 1 covers 6 holes, expected 5"), "{err}");
}
