//! Random games: the input bytes choose the moves of one Yoté game and one
//! Nsolo game (for Nsolo the first byte also picks the size, 8 to 36, and
//! later bytes the origin and each bonus stone). Before every move it checks:
//! the move count equals the number of listed moves (Nsolo: when at most
//! 2000), every listed move plays on a copy, no moves exactly when the game is
//! over, the position string reads back the same, a Yoté side never has more
//! than 12 balls, and the Nsolo hash kept incrementally matches a fresh one.

#![no_main]

use libfuzzer_sys::fuzz_target;
use palabre_rules::nsolo::{self, Side};
use palabre_rules::yote::{self, Color};

/// Above this many moves, Nsolo moves are counted but not all listed.
const LIST_LIMIT: u128 = 2000;

fuzz_target!(|data: &[u8]| {
    yote_game(&mut data.iter().copied());
    nsolo_game(&mut data.iter().copied());
});

fn yote_game(bytes: &mut impl Iterator<Item = u8>) {
    let mut pos = yote::Position::START;
    loop {
        let moves = pos.legal_moves();
        assert_eq!(pos.count_moves(), moves.len() as u64, "{pos}");
        assert_eq!(moves.is_empty(), pos.outcome().is_some(), "{pos}");
        for color in [Color::Red, Color::Black] {
            assert!(pos.material(color) <= u32::from(yote::BALLS), "{pos}");
        }
        assert_eq!(pos.to_string().parse::<yote::Position>(), Ok(pos));
        for m in &moves {
            let mut copy = pos;
            copy.play(m)
                .unwrap_or_else(|e| panic!("{pos}: listed {m} refused: {e}"));
        }
        let Some(b) = bytes.next() else { return };
        if moves.is_empty() {
            return;
        }
        pos.play(&moves[usize::from(b) % moves.len()])
            .expect("listed move plays");
    }
}

fn nsolo_game(bytes: &mut impl Iterator<Item = u8>) {
    let Some(first) = bytes.next() else { return };
    let size = nsolo::MIN_SIZE + first % (nsolo::MAX_SIZE - nsolo::MIN_SIZE + 1);
    let mut pos = nsolo::Position::start(size).expect("size in range");
    loop {
        check_nsolo(&pos);
        let origins = pos.legal_origins();
        let Some(b) = bytes.next() else { return };
        if origins.is_empty() {
            return;
        }
        let origin = origins[usize::from(b) % origins.len()];
        let sown = pos.sow_pit(origin.pit).expect("a legal origin sows");
        assert_eq!(sown.required(), origin.bonus);
        // Take the bonus stone by stone as the bytes say, noting the choice.
        let victim = sown.victim();
        let mut bonus = nsolo::Bonus::none(victim);
        let next = sown.finish_with(|circuit| {
            let full: Vec<usize> = (0..circuit.len()).filter(|&i| circuit[i] > 0).collect();
            let i = full[usize::from(bytes.next().unwrap_or(0)) % full.len()];
            bonus.add(nsolo::Pit::from_circuit(victim, i, size), 1);
            i
        });
        // The same move in notation must read back and play to the same place.
        let m = nsolo::Move::new(origin.pit, bonus);
        assert_eq!(m.to_string().parse::<nsolo::Move>(), Ok(m));
        let mut replay = pos.clone();
        replay
            .play(&m)
            .unwrap_or_else(|e| panic!("{pos}: chosen {m} refused: {e}"));
        assert_eq!(replay, next, "{pos}: {m}");
        pos = next;
    }
}

fn check_nsolo(pos: &nsolo::Position) {
    assert!(pos.hash_is_consistent(), "{pos}");
    assert_eq!(pos.to_string().parse::<nsolo::Position>(), Ok(pos.clone()));
    for side in [Side::South, Side::North] {
        let on_board: u32 = pos.circuit(side).iter().map(|&c| u32::from(c)).sum();
        assert_eq!(on_board, pos.stones(side), "{pos}");
    }
    assert_eq!(
        pos.legal_origins().is_empty(),
        pos.outcome().is_some(),
        "{pos}"
    );
    let count = pos.count_moves();
    if count <= LIST_LIMIT {
        let moves: Vec<nsolo::Move> = pos.legal_moves().collect();
        assert_eq!(count, moves.len() as u128, "{pos}");
        for m in &moves {
            pos.clone()
                .play(m)
                .unwrap_or_else(|e| panic!("{pos}: listed {m} refused: {e}"));
        }
    }
}
