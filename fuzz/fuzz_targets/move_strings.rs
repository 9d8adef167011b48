//! Move strings: any UTF-8 text read as a Yoté and as an Nsolo move must not
//! panic; a move that reads must write back to a string that reads as the same
//! move; playing it on the start position must not panic, and a refused move
//! must leave the position unchanged.

#![no_main]

use libfuzzer_sys::fuzz_target;
use palabre_rules::{nsolo, yote};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    if let Ok(m) = text.parse::<yote::Move>() {
        assert_eq!(m.to_string().parse::<yote::Move>(), Ok(m));
        let mut pos = yote::Position::START;
        if pos.play(&m).is_err() {
            assert_eq!(pos, yote::Position::START);
        }
    }

    if let Ok(m) = text.parse::<nsolo::Move>() {
        assert_eq!(m.to_string().parse::<nsolo::Move>(), Ok(m));
        let start = nsolo::Position::start(8).expect("4x8 start");
        let mut pos = start.clone();
        if pos.play(&m).is_err() {
            assert_eq!(pos, start);
        }
    }
});
