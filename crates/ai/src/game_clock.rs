//! A move's share of a game clock.
//!
//! Under a clock (the time left to the side to move, and an increment
//! added after each of its moves) rather than a fixed time a move, each
//! search gets a budget: the time left spread over the moves still
//! expected (a Yoté side's placements still in reserve, then
//! `clock_moves_ahead` more), plus most of the increment, and no more
//! than a quarter of what is left, so that a long game slows down rather
//! than spending its clock early.
//!
//! A harness charges each answer's way back too, and a game without an
//! increment can run to hundreds of moves: spreading the whole clock, with
//! a millisecond at least a move, lost such games on time at 1 s
//! (docs/strength.md, "A sudden-death clock"). So `clock_reserve_ms` is
//! never spread: once only the reserve is left, a move gets a 500th of what
//! is left, a search of a few plies at first, and the reserve pays for
//! hundreds of answers. Yoté is decided while the balls are placed, so a
//! placement can be made to weigh `clock_placement_weight` later moves;
//! giving the placements twice or four times the share did not win in the
//! arena (docs/strength.md, "A game clock"), so it weighs one. An Nsolo
//! game's length grows with its board: 4×36 games run to 600 plies, so
//! the moves expected there come from the pits and the stones in play.

use std::time::Duration;

use crate::player::AnyPosition;
use crate::{Limits, Params, SearchLimit};

/// The share of the increment a move spends: the rest builds a cushion
/// for the time the answer takes to reach the clock.
const INCREMENT_SHARE: f64 = 0.75;
/// One move takes at most a quarter of the time left.
const LEFT_DIVISOR: u32 = 4;
/// A move gets at least this fraction of the time left: all it gets once
/// only the reserve is left and no increment comes.
const RESERVE_DIVISOR: u32 = 500;

/// `limits` with a game clock's share added as a movetime: the searches
/// read time only as a movetime.
pub fn with_budget(limits: Limits, position: &AnyPosition, params: &Params) -> Limits {
    match limits.clock() {
        Some((left, increment)) => {
            let budget = budget(left, increment, position, params);
            limits.with(SearchLimit::MoveTime(budget))
        }
        None => limits,
    }
}

/// The time a move may take with `left` on the mover's clock and
/// `increment` added after it.
pub fn budget(
    left: Duration,
    increment: Duration,
    position: &AnyPosition,
    params: &Params,
) -> Duration {
    let (now, ahead) = weights(position, params);
    let reserve = Duration::from_millis(params.clock_reserve_ms);
    share(left, increment, now / ahead.max(now), reserve)
}

/// `fraction` of the time left above `reserve`, and most of the increment.
fn share(left: Duration, increment: Duration, fraction: f64, reserve: Duration) -> Duration {
    let spread = left.saturating_sub(reserve).mul_f64(fraction);
    (spread + increment.mul_f64(INCREMENT_SHARE))
        .min(left / LEFT_DIVISOR)
        .max(left / RESERVE_DIVISOR)
}

/// This move's weight, and the weight of every move the mover still
/// expects to make, this one included.
fn weights(position: &AnyPosition, params: &Params) -> (f64, f64) {
    let tail = f64::from(params.clock_moves_ahead.max(1));
    match position {
        AnyPosition::Yote(pos) => {
            let placements = f64::from(pos.reserve(pos.turn()));
            if placements > 0.0 {
                let w = params.clock_placement_weight;
                (w, placements * w + tail)
            } else {
                (1.0, tail)
            }
        }
        AnyPosition::Nsolo(pos) => (1.0, tail.max(nsolo_moves_left(pos, params))),
    }
}

/// The moves the mover of `pos` can still expect to make: a game's length
/// grows with the board's pits and, less than in proportion, with the
/// stones still in play (most of a 4×36 game is played with 20 to 60).
fn nsolo_moves_left(pos: &palabre_rules::nsolo::Position, params: &Params) -> f64 {
    use palabre_rules::nsolo::Side;
    let pits = 4.0 * f64::from(pos.size());
    let stones = f64::from(pos.stones(Side::South) + pos.stones(Side::North));
    params.clock_nsolo_length * pits * stones.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use palabre_rules::{nsolo, yote};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn yote(fen: &str) -> AnyPosition {
        AnyPosition::Yote(fen.parse().expect("fen"))
    }

    /// Spends each budget in full over a game of twelve placements and
    /// then steps, and returns the time of each move.
    fn spend(params: &Params, steps: usize) -> Vec<Duration> {
        spend_from(params, ms(60_000), Duration::ZERO, steps)
    }

    /// [`spend`] from a clock of `clock`, each move charged `per_answer`
    /// more for its way back; panics once the clock runs out.
    fn spend_from(
        params: &Params,
        clock: Duration,
        per_answer: Duration,
        steps: usize,
    ) -> Vec<Duration> {
        let mut left = clock;
        let mut times = Vec::new();
        for reserve in (0..=12).rev() {
            let pos = yote(&format!("5/5/5/5/5 {reserve} {reserve} r 0"));
            for _ in 0..if reserve == 0 { steps } else { 1 } {
                let t = budget(left, ms(0), &pos, params);
                left = left
                    .checked_sub(t + per_answer)
                    .unwrap_or_else(|| panic!("out of time at move {}", times.len()));
                times.push(t);
            }
        }
        times
    }

    #[test]
    fn weighted_placements_get_more_of_the_clock_than_the_steps_after() {
        let weighted = Params {
            clock_placement_weight: 2.0,
            ..Params::default()
        };
        let times = spend(&weighted, 20);
        let placing: Duration = times[..12].iter().sum();
        let stepping: Duration = times[12..].iter().sum();
        // Twelve placements against twenty steps, yet more time.
        assert!(placing > stepping, "{placing:?} against {stepping:?}");
        assert!(times[11] > times[12] * 3 / 2, "{times:?}");
        // With equal weights every move takes 1/32 of what is left, and the
        // twenty steps take more than the twelve placements.
        let flat = Params::default();
        let times = spend(&flat, 20);
        assert_eq!(times[0], (ms(60_000) - ms(60)) / 32);
        let placing: Duration = times[..12].iter().sum();
        assert!(placing < times[12..].iter().sum(), "{times:?}");
    }

    #[test]
    fn a_game_that_runs_long_slows_down_and_keeps_time() {
        let times = spend(&Params::default(), 150);
        assert!(times.windows(2).skip(13).all(|w| w[1] <= w[0]));
        assert!(times.last() > Some(&Duration::ZERO));
    }

    #[test]
    fn the_increment_adds_and_the_time_left_caps() {
        let p = Params::default();
        let pos = AnyPosition::Yote(yote::Position::START);
        let bare = budget(ms(10_000), ms(0), &pos, &p);
        let with_inc = budget(ms(10_000), ms(1_000), &pos, &p);
        assert_eq!(with_inc, bare + ms(750));
        // A huge increment never lets a move outlast a quarter of the clock.
        assert_eq!(budget(ms(400), ms(60_000), &pos, &p), ms(100));
        // Within the reserve: a 500th of what is left, and nothing of nothing.
        assert_eq!(budget(ms(50), ms(0), &pos, &p), Duration::from_micros(100));
        assert_eq!(budget(Duration::ZERO, ms(0), &pos, &p), Duration::ZERO);
        // Within the reserve a move still spends three quarters of the
        // increment, which pays for itself.
        assert_eq!(budget(ms(50), ms(8), &pos, &p), ms(6));
    }

    #[test]
    fn a_sudden_death_clock_lasts_hundreds_of_moves() {
        // One second and no increment, each move charged its whole budget
        // and 0.2 ms for the answer's way back. A millisecond at least a
        // move ran out at the 92nd; Yoté games of 300 plies are common.
        let p = Params::default();
        let times = spend_from(&p, ms(1_000), Duration::from_micros(200), 288);
        assert_eq!(times.len(), 300);
        // The first placement still gets nine tenths of a 32nd of the clock.
        let start = AnyPosition::Yote(yote::Position::START);
        assert!(budget(ms(1_000), ms(0), &start, &p) > ms(1_000) / 32 * 9 / 10);
    }

    #[test]
    fn nsolo_spreads_over_the_moves_its_board_lasts() {
        let p = Params::default();
        let start = |size| AnyPosition::Nsolo(nsolo::Position::start(size).expect("a size"));
        // 4×8 from the start: 60 stones, 0.12 × 32 × √60 ≈ 29.7 moves.
        let narrow = budget(ms(30_000), ms(0), &start(8), &p);
        assert!(
            narrow > ms(30_000) / 31 && narrow < ms(30_000) / 29,
            "{narrow:?}"
        );
        // 4×36: 284 stones, about 291 moves, where a flat 20 gave a 20th.
        let wide = budget(ms(30_000), ms(0), &start(36), &p);
        assert!(
            wide > ms(30_000) / 300 && wide < ms(30_000) / 280,
            "{wide:?}"
        );
    }

    /// Spends a clock of 1 s, no increment, on `moves` moves of a 4×36
    /// board with 48 stones in play (the middle of a game there), each
    /// answer charged its budget and 0.4 ms for its way back, as through a
    /// pipe on that board; returns where the clock fell, if it did.
    fn spend_wide(params: &Params, moves: usize) -> Option<usize> {
        let row = format!("{}{}", "1,".repeat(12), "0,".repeat(23) + "0");
        let fen = format!("{row}/{row}/{row}/{row} s");
        let pos = AnyPosition::Nsolo(fen.parse().expect("a 4x36 position"));
        let mut left = ms(1_000);
        for n in 0..moves {
            let t = budget(left, ms(0), &pos, params);
            left = match left.checked_sub(t + Duration::from_micros(400)) {
                Some(rest) => rest,
                None => return Some(n),
            };
        }
        None
    }

    #[test]
    fn a_sudden_death_clock_lasts_a_whole_game_on_the_widest_board() {
        // A 4×36 game runs to 300 moves a side. Expecting 20 moves ahead
        // whatever the board, the clock was spent in the first hundred and
        // the reserve could not pay for the answers after them.
        assert_eq!(spend_wide(&Params::default(), 300), None);
        let flat = Params {
            clock_nsolo_length: 0.0,
            ..Params::default()
        };
        assert_eq!(spend_wide(&flat, 300), Some(223));
    }
}
