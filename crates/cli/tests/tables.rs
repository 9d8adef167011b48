//! `palabre tables` on the full board: built on request, probed, counted,
//! and read by `palabre analyse`.

mod run;

fn dir(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("palabre-{name}-{}", std::process::id()))
}

#[test]
fn the_full_board_is_built_on_request_and_probed_for_its_first_clean_capture() {
    let with = dir("full-board");
    let with = with.to_str().unwrap();
    let build = [
        "tables",
        "build",
        "--max",
        "2",
        "--full-board",
        "--dir",
        with,
    ];
    let (code, out, err) = run::palabre(&build, "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("positions   67604500"),
        "1v1 and the full board: {out}"
    );
    let probe =
        |dir: &str, fen: &str| run::palabre(&["tables", "probe", "--dir", dir, "--fen", fen], "");
    // Red jumps a3xc3 and takes a second ball that leaves Black no jump.
    let (code, out, err) = probe(with, "bbbbr/rbbbr/rb1rr/brrrr/brrbb 0 0 r 24");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.trim(),
        "full board: red forces a clean first capture or Ndar-Kepp within 1 ply"
    );
    // Red cannot jump into c2, and both its steps let Black capture.
    let lost = "brbbb/brrrb/rrrrr/br1bb/rbbrb 0 0 r 30";
    let (_, out, _) = probe(with, lost);
    assert_eq!(
        out.trim(),
        "full board: black forces a clean first capture or Ndar-Kepp within 2 plies"
    );
    // With a single ply of quiet budget left, two plies are too many.
    let (_, out, _) = probe(with, &lost.replace(" 30", " 119"));
    assert!(out.starts_with("full board: neither side"), "{out}");
    let (code, out, err) = run::palabre(&["tables", "stats", "--dir", with], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("67603900 positions  won 34605390  drawn 22404907  lost 10593603"),
        "{out}"
    );

    // The analysis of a game whose placement fills the board: ply 24 is
    // Black's last placement, after which Red has a clean capture.
    let record = "[Game \"yote\"]\n\n1. c1 d5 2. b1 c5 3. a4 a5 4. a3 a1 5. e3 e1 \
        6. e2 d1 7. d3 d4 8. d2 b5 9. e4 c4 10. c2 a2 11. e5 b4 12. b2 b3 13. a3xc3/a5\n";
    let (code, out, err) =
        run::palabre(&["analyse", "--depth", "1", "--tables", with, "-"], record);
    assert_eq!(code, 0, "{err}");
    let full: Vec<&str> = out.lines().filter(|l| l.contains("full_board")).collect();
    assert_eq!(full.len(), 1, "{out}");
    assert!(full[0].starts_with("{\"ply\":24,\"move\":\"b3\""), "{out}");
    assert!(
        full[0].ends_with(",\"tables\":null,\"full_board\":{\"result\":\"loss\",\"dtc\":1}}"),
        "{out}"
    );

    let without = dir("no-full-board");
    let without = without.to_str().unwrap();
    let (code, _, err) = run::palabre(&["tables", "build", "--max", "2", "--dir", without], "");
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = probe(without, lost);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("no yote-full-board.tbl"), "{err}");
    for d in [with, without] {
        std::fs::remove_dir_all(d).unwrap();
    }
}
