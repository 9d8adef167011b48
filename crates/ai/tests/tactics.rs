//! Tactics: positions whose answer is proven here by exhaustive search with
//! the rules crate alone, then asked of Expert.

use std::sync::atomic::AtomicBool;

use palabre_ai::player::{AnyPosition, think};
use palabre_ai::tt::Table;
use palabre_ai::{AnyMove, Level, Limits, Params, Request, SearchLimit};
use palabre_rules::{Outcome, nsolo, yote};

fn expert(position: AnyPosition, depth: u32) -> palabre_ai::Thought {
    expert_on(position, depth, 1)
}

/// Expert to a fixed depth on `threads` threads (Lazy SMP).
fn expert_on(position: AnyPosition, depth: u32, threads: usize) -> palabre_ai::Thought {
    let params = Params {
        threads,
        ..Params::default()
    };
    expert_with(position, depth, &params)
}

/// Expert to a fixed depth with the given tunables.
fn expert_with(position: AnyPosition, depth: u32, params: &Params) -> palabre_ai::Thought {
    let req = Request {
        position,
        history: Vec::new(),
        level: Level::Expert,
        limits: Limits::new().with(SearchLimit::Depth(depth)),
        seed: 1,
        tables: None,
        ponder: Default::default(),
    };
    let mut tt = Table::new(16);
    think(&req, params, &mut tt, &AtomicBool::new(false), |_| {})
}

fn yote_after(pos: &yote::Position, m: yote::Move) -> yote::Position {
    let mut next = *pos;
    next.play(&m).expect("legal");
    next
}

/// Whether the side to move wins within `plies` whatever the opponent does.
fn forced_win(pos: &yote::Position, plies: u32) -> bool {
    plies > 0
        && pos
            .legal_moves()
            .iter()
            .any(|m| wins_after(&yote_after(pos, *m), plies - 1))
}

/// Whether the side that just moved has won, or wins within `plies` more.
fn wins_after(pos: &yote::Position, plies: u32) -> bool {
    match pos.outcome() {
        Some(Outcome::Win { winner, .. }) => winner != pos.turn(),
        Some(Outcome::Draw { .. }) => false,
        None => {
            plies >= 2
                && pos
                    .legal_moves()
                    .iter()
                    .all(|r| forced_win(&yote_after(pos, *r), plies - 1))
        }
    }
}

fn expert_yote_move(pos: &yote::Position, depth: u32) -> (yote::Move, i32) {
    let thought = expert(AnyPosition::Yote(*pos), depth);
    match thought.best {
        Some(AnyMove::Yote(m)) => (m, thought.score),
        other => panic!("expected a Yoté move, got {other:?}"),
    }
}

#[test]
fn yote_wins_in_two_moves() {
    for fen in [
        "1b2b/2bb1/b1b2/2r2/rbb2 0 0 b 11",
        "2rbb/3r1/rr3/b4/4b 0 0 b 2",
        "r2bb/3b1/2rr1/3rb/2b2 0 1 b 3",
        "1br2/2b2/2r2/2bbr/r4 0 0 r 3",
        "1rb2/r1b1b/rrr1b/2r1r/5 1 0 r 2",
    ] {
        let pos: yote::Position = fen.parse().unwrap();
        assert!(
            !forced_win(&pos, 1) && forced_win(&pos, 3),
            "{fen} is a win in exactly 2 moves"
        );
        let (m, score) = expert_yote_move(&pos, 6);
        assert!(
            wins_after(&yote_after(&pos, m), 2),
            "{fen}: {m} lets the win go"
        );
        assert!(
            palabre_ai::score::is_decisive(score) && score > 0,
            "{fen}: score {score}"
        );
    }
}

#[test]
fn yote_wins_in_three_moves() {
    for fen in [
        "b4/2r2/3b1/2bb1/1bb1r 0 0 b 0",
        "1r1bb/5/b4/3b1/b1r1b 0 0 b 1",
        "b4/1bb2/r2r1/5/b4 0 0 b 22",
        "2bb1/5/1bb1r/b1r2/2b2 0 0 b 0",
    ] {
        let pos: yote::Position = fen.parse().unwrap();
        assert!(
            !forced_win(&pos, 3) && forced_win(&pos, 5),
            "{fen} is a win in exactly 3 moves"
        );
        let (m, score) = expert_yote_move(&pos, 8);
        assert!(
            wins_after(&yote_after(&pos, m), 4),
            "{fen}: {m} lets the win go"
        );
        assert!(
            score > 0 && palabre_ai::score::is_decisive(score),
            "{fen}: score {score}"
        );
    }
}

#[test]
fn two_threads_find_the_same_forced_wins() {
    // The helper thread searches deeper than the main thread and shares its
    // table: the main thread's answer must stay a proven win.
    for fen in [
        "b4/2r2/3b1/2bb1/1bb1r 0 0 b 0",
        "1r1bb/5/b4/3b1/b1r1b 0 0 b 1",
        "b4/1bb2/r2r1/5/b4 0 0 b 22",
    ] {
        let pos: yote::Position = fen.parse().unwrap();
        let thought = expert_on(AnyPosition::Yote(pos), 8, 2);
        let Some(AnyMove::Yote(m)) = thought.best else {
            panic!("{fen}: no move")
        };
        assert!(
            wins_after(&yote_after(&pos, m), 4),
            "{fen}: {m} lets the win go"
        );
        assert!(
            palabre_ai::score::is_decisive(thought.score) && thought.score > 0,
            "{fen}: score {}",
            thought.score
        );
    }
}

#[test]
fn yote_avoids_losing_a_pair() {
    // "5/1r1bb/rrb1b/5/3r1 2 4 b 2" was here, but its exposed move a5 is
    // a trade (Black jumps back), which Expert prefers from depth 8 on
    // and, since the lead term, already at depth 6: not a lost pair.
    for fen in [
        "bb3/1b3/1b2r/1r3/r1bb1 3 4 r 0",
        "1b2b/br3/5/1b3/2r2 0 0 r 15",
        "5/5/rb1r1/1b3/5 0 0 b 29",
        "5/r1r2/1r1br/5/4b 0 0 b 20",
    ] {
        let pos: yote::Position = fen.parse().unwrap();
        let me = pos.turn();
        let exposed = |m: &yote::Move| yote_after(&pos, *m).jumps_for(me.other()) > 0;
        let moves = pos.legal_moves();
        assert_eq!(pos.jumps_for(me), 0, "{fen}: no capture of its own");
        assert_eq!(
            moves.iter().filter(|m| !exposed(m)).count(),
            1,
            "{fen}: one safe move"
        );
        let (m, _) = expert_yote_move(&pos, 6);
        assert!(!exposed(&m), "{fen}: {m} loses a pair");
    }
}

#[test]
fn nsolo_takes_the_winning_capture() {
    let fen = "4,0,3,0,0,2,1,0/0,1,0,0,0,2,1,0/0,0,1,2,0,0,0,0/0,0,0,0,0,0,1,0 n";
    let pos: nsolo::Position = fen.parse().unwrap();
    let wins = |m: &nsolo::Move| {
        let mut next = pos.clone();
        next.play(m).unwrap();
        next.stones(next.turn()) == 0
    };
    let winners = pos.legal_moves().filter(wins).count();
    assert!(
        winners >= 1 && winners < pos.count_moves() as usize,
        "{fen}"
    );
    let thought = expert(AnyPosition::Nsolo(pos.clone()), 4);
    let Some(AnyMove::Nsolo(m)) = thought.best else {
        panic!("no move")
    };
    assert!(wins(&m), "{fen}: {m} does not win");
}

#[test]
fn nsolo_prefers_the_largest_capture_on_a_large_board() {
    // B6 ends on B4 facing six stones on C4; B10 ends on B8 facing two.
    let fen = "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1/1,1,1,6,1,1,1,2,1,1,1,1,1,1,1,1/\
               0,0,0,0,0,2,0,0,0,2,0,0,0,0,0,0/2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0 s";
    let pos: nsolo::Position = fen.parse().unwrap();
    let north = |p: &nsolo::Position| p.stones(nsolo::Side::North);
    let gain = |m: &nsolo::Move| {
        let mut next = pos.clone();
        next.play(m).unwrap();
        north(&pos) - north(&next)
    };
    assert_eq!(pos.legal_moves().map(|m| gain(&m)).max(), Some(12));
    let thought = expert(AnyPosition::Nsolo(pos.clone()), 3);
    let Some(AnyMove::Nsolo(m)) = thought.best else {
        panic!("no move")
    };
    assert_eq!(
        (m.origin().to_string(), gain(&m)),
        ("B6".to_owned(), 12),
        "{m}"
    );
}

/// Black places its last ball in one of the two holes left; then Red, with
/// no jump, must step first into the full board and open one for Black.
/// One ply of search must see that step: the side to move on a full board
/// cannot stand pat on its static score.
#[test]
fn one_ply_sees_the_step_forced_into_a_full_board() {
    let pos: yote::Position = "rbbbr/rrrbr/brr2/bbbrr/bbbrr 0 1 b 23".parse().unwrap();
    let deep = expert(AnyPosition::Yote(pos), 3).score;
    let cramped = expert(AnyPosition::Yote(pos), 1).score;
    let standing = Params {
        yote_cramped_holes: 0,
        ..Params::default()
    };
    let standing = expert_with(AnyPosition::Yote(pos), 1, &standing).score;
    assert!(
        cramped >= standing + 150,
        "searching the forced step gains a capture: {cramped} vs {standing}"
    );
    assert!(
        (cramped - deep).abs() < 100,
        "and agrees with three plies: {cramped} vs {deep}"
    );
}

/// Three holes left and one ball each to place: whatever Red places, Black
/// places its last ball, Red must step into the full board and loses every
/// ball (proven by exhaustive search). One ply must see it: quiescence
/// searches every move while at most three holes are empty.
#[test]
fn one_ply_sees_the_loss_three_holes_before_the_board_is_full() {
    let pos: yote::Position = "bb1rb/rbb1r/r1bbr/rrbbb/rrrrb 1 1 r 22".parse().unwrap();
    assert!(
        pos.legal_moves()
            .iter()
            .all(|m| forced_win(&yote_after(&pos, *m), 5)),
        "Black wins within five plies whatever Red does"
    );
    let cramped = expert(AnyPosition::Yote(pos), 1).score;
    assert!(
        cramped < -palabre_ai::score::WIN_BOUND,
        "one ply sees the loss: {cramped}"
    );
    let two_holes = Params {
        yote_cramped_holes: 2,
        ..Params::default()
    };
    let standing = expert_with(AnyPosition::Yote(pos), 1, &two_holes).score;
    assert!(
        standing > -palabre_ai::score::WIN_BOUND,
        "standing pat with three holes hides it: {standing}"
    );
}
