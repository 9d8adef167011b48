//! The Yoté evaluation, from the side to move's point of view: a weighted
//! sum of [`Features`] (material, capture threats, room to move, the danger
//! of being shut in, and how the board's free holes serve each side's
//! remaining placements), the material lead weighed by the balls already
//! gone and, once a crowded board is all that is left, the steps each side
//! can make without giving a jump; while a side still places, patterns of
//! the board learnt from game results; fading to the draw as the quiet
//! count nears 120.
//!
//! The features are public so that `examples/texel.rs` can fit their
//! weights to game results with the very function the search uses.

use palabre_rules::yote::bitboard::Dir;
use palabre_rules::yote::{BALLS, Color, Position, QUIET_LIMIT};

use crate::Params;

/// How many features the evaluation weighs.
pub const FEATURES: usize = 14;

/// The features' names, in [`Features`] order, as `Params` fields.
pub const NAMES: [&str; FEATURES] = [
    "yote_ball",
    "yote_threat_to_move",
    "yote_threat_waiting",
    "yote_mobility",
    "yote_lock_danger",
    "yote_reserve_bonus",
    "yote_safe_to_move",
    "yote_safe_waiting",
    "yote_short_to_move",
    "yote_short_waiting",
    "yote_exposed_to_move",
    "yote_exposed_waiting",
    "yote_attack_to_move",
    "yote_attack_waiting",
];

/// One position's features, side to move first where a pair differs by
/// who moves next.
pub type Features = [i32; FEATURES];

/// The weights of [`Features`], read from `p`.
pub fn weights(p: &Params) -> Features {
    [
        p.yote_ball,
        p.yote_threat_to_move,
        p.yote_threat_waiting,
        p.yote_mobility,
        p.yote_lock_danger,
        p.yote_reserve_bonus,
        p.yote_safe_to_move,
        p.yote_safe_waiting,
        p.yote_short_to_move,
        p.yote_short_waiting,
        p.yote_exposed_to_move,
        p.yote_exposed_waiting,
        p.yote_attack_to_move,
        p.yote_attack_waiting,
    ]
}

/// Empty holes where a ball of `color` would stand next to an enemy ball
/// with a free hole behind it: placed there, it can be jumped at once.
fn unsafe_holes(pos: &Position, color: Color) -> u32 {
    let (enemy, empty) = (pos.balls(color.other()), pos.empty());
    let [n, s, e, w] = Dir::ALL;
    let covered =
        |a: Dir, b: Dir| (a.shift(enemy) & b.shift(empty)) | (b.shift(enemy) & a.shift(empty));
    empty & (covered(n, s) | covered(e, w))
}

/// What `color` has to place with: the holes it can fill without being
/// jumped at once, and how many of its reserve balls those holes cannot
/// take (each will have to go where it can be captured, or wait for room).
fn placement(pos: &Position, color: Color) -> (i32, i32) {
    let reserve = i32::from(pos.reserve(color));
    if reserve == 0 {
        return (0, 0);
    }
    let safe = (pos.empty() & !unsafe_holes(pos, color)).count_ones() as i32;
    (safe, (reserve - safe).max(0))
}

/// Empty holes where a ball `color` places would threaten a jump at once,
/// if it still has a ball to place.
fn attacks(pos: &Position, color: Color) -> i32 {
    if pos.reserve(color) == 0 {
        return 0;
    }
    let (enemy, empty) = (pos.balls(color.other()), pos.empty());
    let from = Dir::ALL
        .iter()
        .fold(0, |all, d| all | d.shift(enemy & d.shift(empty)));
    (empty & from).count_ones() as i32
}

/// Balls of `color` with a free hole on both sides along a line: an enemy
/// ball placed or stepped on one side threatens to jump it into the other.
fn exposed(pos: &Position, color: Color) -> i32 {
    let (own, empty) = (pos.balls(color), pos.empty());
    let [n, s, e, w] = Dir::ALL;
    let open = |a: Dir, b: Dir| (own & a.shift(empty) & b.shift(empty)).count_ones() as i32;
    open(n, s) + open(e, w)
}

fn locked(pos: &Position, color: Color) -> i32 {
    i32::from(pos.reserve(color) == 0 && pos.steps_for(color) + pos.jumps_for(color) <= 1)
}

/// Steps of `color` after which the other side has no jump.
fn safe_steps(pos: &Position, color: Color) -> i32 {
    let (own, opp, empty) = (pos.balls(color), pos.balls(color.other()), pos.empty());
    let [n, s, e, w] = Dir::ALL;
    let mut safe = 0;
    for (d, back) in [(n, s), (s, n), (e, w), (w, e)] {
        let mut targets = d.shift(own) & empty;
        while targets != 0 {
            let to = targets & targets.wrapping_neg();
            targets &= targets - 1;
            let moved = to | back.shift(to);
            let (own, empty) = (own ^ moved, empty ^ moved);
            let jump = Dir::ALL
                .iter()
                .any(|j| j.jump_landings(opp, own, empty) != 0);
            safe += i32::from(!jump);
        }
    }
    safe
}

/// The safe-step difference on a crowded board with both reserves empty.
pub fn crowded_safe(pos: &Position, p: &Params) -> i32 {
    let (me, them) = (pos.turn(), pos.turn().other());
    if pos.reserve(me) + pos.reserve(them) != 0 || pos.empty().count_ones() > p.yote_crowded_holes {
        return 0;
    }
    p.yote_crowded_safe * (safe_steps(pos, me) - safe_steps(pos, them))
}

/// The features of `pos`, from the side to move's point of view.
pub fn features(pos: &Position) -> Features {
    let me = pos.turn();
    let them = me.other();
    let (safe_me, short_me) = placement(pos, me);
    let (safe_them, short_them) = placement(pos, them);
    [
        pos.material(me) as i32 - pos.material(them) as i32,
        pos.jumps_for(me) as i32,
        -(pos.jumps_for(them) as i32),
        pos.steps_for(me) as i32 - pos.steps_for(them) as i32,
        locked(pos, them) - locked(pos, me),
        i32::from(pos.reserve(me)) - i32::from(pos.reserve(them)),
        safe_me,
        -safe_them,
        -short_me,
        short_them,
        -exposed(pos, me),
        exposed(pos, them),
        attacks(pos, me),
        -attacks(pos, them),
    ]
}

/// The material lead times the balls already gone: a lead weighs more on
/// an emptier board, so the side ahead trades down towards an ending it
/// can win instead of keeping a crowded board it cannot break.
pub fn lead_trade(pos: &Position, p: &Params) -> i32 {
    let me = pos.material(pos.turn()) as i32;
    let them = pos.material(pos.turn().other()) as i32;
    let gone = 2 * i32::from(BALLS) - me - them;
    p.yote_lead_trade * (me - them) * gone
}

/// The terms outside the fitted [`Features`] (`examples/texel.rs` holds
/// them fixed while it fits the rest).
pub fn fixed_terms(pos: &Position, p: &Params) -> i32 {
    crowded_safe(pos, p) + lead_trade(pos, p) + learnt(pos, p)
}

/// The learnt placement patterns ([`super::patterns`]), at
/// `yote_patterns` percent of their fitted weight.
pub fn learnt(pos: &Position, p: &Params) -> i32 {
    if p.yote_patterns == 0 {
        return 0;
    }
    super::patterns::score(pos) * p.yote_patterns / 100
}

pub fn evaluate(pos: &Position, p: &Params) -> i32 {
    let f = features(pos);
    let score: i32 =
        f.iter().zip(weights(p)).map(|(f, w)| f * w).sum::<i32>() + fixed_terms(pos, p);
    // Fade towards the draw as the quiet-move count nears 120, so the side
    // ahead presses for a capture instead of shuffling.
    let left = i32::from(QUIET_LIMIT - pos.quiet());
    score * left.min(p.yote_quiet_fade) / p.yote_quiet_fade
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn on_the_empty_board_every_hole_is_safe() {
        let f = features(&Position::default());
        assert_eq!(&f[..6], &[0; 6], "nothing to tell the sides apart");
        assert_eq!(f[6], 25, "every hole is safe on an empty board");
        assert_eq!(f[7], -25);
        assert_eq!((f[8], f[9], f[10], f[11]), (0, 0, 0, 0));
    }

    #[test]
    fn the_score_is_the_weighted_sum_faded_by_the_quiet_count() {
        let p = Params::default();
        let fresh = pos("5/5/2r2/5/5 11 12 b 1");
        let f = features(&fresh);
        let sum: i32 = f.iter().zip(weights(&p)).map(|(f, w)| f * w).sum();
        let learnt = super::super::patterns::score(&fresh) * p.yote_patterns / 100;
        assert_ne!(learnt, 0);
        assert_eq!(evaluate(&fresh, &p), sum + learnt);
        let late = pos("5/5/2r2/5/5 11 12 b 90");
        assert_eq!(evaluate(&late, &p), (sum + learnt) * 30 / p.yote_quiet_fade);
        let without = Params {
            yote_patterns: 0,
            ..Params::default()
        };
        assert_eq!(evaluate(&fresh, &without), sum);
    }

    #[test]
    fn on_a_crowded_board_the_side_short_of_safe_steps_is_worse_off() {
        // Red holds files a and b, Black files d and e and c2, c4; c1, c3
        // and c5 are free. Each red step into file c empties a hole on
        // file b that a black ball jumps into; Black's steps out of c2 and
        // c4 leave nothing to jump, its steps from file d do.
        let crowded = pos("rr1bb/rrbbb/rr1bb/rrbbb/rr1bb 0 0 r 30");
        assert_eq!(safe_steps(&crowded, Color::Red), 0);
        assert_eq!(safe_steps(&crowded, Color::Black), 4);
        let p = Params::default();
        assert_eq!(crowded_safe(&crowded, &p), -4 * p.yote_crowded_safe);
        let placing = pos("rr1bb/rrbbb/rr1bb/rrbbb/rr1bb 1 0 r 30");
        assert_eq!(
            crowded_safe(&placing, &p),
            0,
            "only once both reserves are empty"
        );
        let off = Params {
            yote_crowded_holes: 0,
            ..Params::default()
        };
        assert_eq!(crowded_safe(&crowded, &off), 0);
    }

    #[test]
    fn a_lead_weighs_more_once_balls_have_left_the_board() {
        let p = Params::default();
        // Red to move with 2 balls against 4: two behind, 18 balls gone.
        let thin = pos("rr3/5/5/5/bbbb1 0 0 r 0");
        assert_eq!(lead_trade(&thin, &p), -2 * 18 * p.yote_lead_trade);
        let black = pos("rr3/5/5/5/bbbb1 0 0 b 0");
        assert_eq!(lead_trade(&black, &p), 2 * 18 * p.yote_lead_trade);
        // The same lead of two with only two balls gone: 12 against 10.
        let full = pos("rrrrr/rrrrr/rr3/bbbbb/bbbbb 0 0 r 0");
        assert_eq!(lead_trade(&full, &p), 2 * 2 * p.yote_lead_trade);
        let off = Params {
            yote_lead_trade: 0,
            ..Params::default()
        };
        assert_eq!(
            evaluate(&thin, &p) - evaluate(&thin, &off),
            lead_trade(&thin, &p)
        );
        assert!(p.yote_lead_trade > 0);
    }

    #[test]
    fn a_lone_ball_makes_its_neighbours_unsafe_and_is_exposed_twice() {
        // Black to move; red's ball on c3 could jump a black ball placed on
        // any of its four neighbours.
        let f = features(&pos("5/5/2r2/5/5 11 12 b 1"));
        assert_eq!((f[6], f[7]), (20, -24), "safe holes: black, red");
        assert_eq!((f[10], f[11]), (0, 2), "exposed: black, red");
        assert_eq!((f[12], f[13]), (4, 0), "attacking holes: black, red");
        let f = features(&pos("5/5/2r2/5/5 1 2 b 1"));
        assert_eq!((f[8], f[9]), (0, 0), "room for every reserve ball");
    }
}
