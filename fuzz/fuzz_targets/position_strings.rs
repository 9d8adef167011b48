//! Position strings: any UTF-8 text read as a Yoté and as an Nsolo position
//! must not panic; a position that reads must write back to a string that
//! reads as the same position, and generating its moves must not panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use palabre_rules::{nsolo, yote};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    if let Ok(pos) = text.parse::<yote::Position>() {
        let again: yote::Position = pos.to_string().parse().expect("Yoté position re-reads");
        assert_eq!(again, pos);
        let moves = pos.legal_moves();
        assert_eq!(pos.count_moves(), moves.len() as u64);
        let _ = pos.outcome();
    }

    if let Ok(pos) = text.parse::<nsolo::Position>() {
        let again: nsolo::Position = pos.to_string().parse().expect("Nsolo position re-reads");
        assert_eq!(again, pos);
        assert!(pos.hash_is_consistent());
        let _ = pos.count_moves();
        let _ = pos.outcome();
        for origin in pos.legal_origins() {
            let sown = pos.sow_pit(origin.pit).expect("a legal origin sows");
            assert_eq!(sown.required(), origin.bonus);
            let bonus = sown.distributions().next().expect("at least one bonus");
            sown.finish(&bonus).expect("a listed bonus finishes");
        }
    }
});
