//! The Yoté evaluation, from the side to move's point of view: material,
//! capture threats (worth more to the side about to move), room to move and
//! the danger of being shut in (Ndar-Kepp).

use palabre_rules::yote::{Color, Position, QUIET_LIMIT};

use crate::Params;

/// Terms that are the same whoever is to move.
fn side_terms(pos: &Position, color: Color, p: &Params) -> i32 {
    let steps = pos.steps_for(color) as i32;
    let reserve = i32::from(pos.reserve(color));
    let mut score = pos.material(color) as i32 * p.yote_ball
        + steps * p.yote_mobility
        + reserve * p.yote_reserve_bonus;
    if reserve == 0 && steps + pos.jumps_for(color) as i32 <= 1 {
        score -= p.yote_lock_danger;
    }
    score
}

pub fn evaluate(pos: &Position, p: &Params) -> i32 {
    let me = pos.turn();
    let them = me.other();
    let threats = pos.jumps_for(me) as i32 * p.yote_threat_to_move
        - pos.jumps_for(them) as i32 * p.yote_threat_waiting;
    let score = side_terms(pos, me, p) - side_terms(pos, them, p) + threats;
    // Fade towards the draw as the quiet-move count nears 120, so the side
    // ahead presses for a capture instead of shuffling.
    let left = i32::from(QUIET_LIMIT - pos.quiet());
    score * left.min(p.yote_quiet_fade) / p.yote_quiet_fade
}
