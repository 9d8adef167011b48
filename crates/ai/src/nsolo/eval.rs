//! The Nsolo evaluation, from the side to move's point of view: stones, pits
//! that can still move, and stones exposed in the inner row.

use palabre_rules::nsolo::{Position, Side};

use crate::Params;

fn side_terms(pos: &Position, side: Side, p: &Params) -> i32 {
    let cells = pos.circuit(side);
    let half = cells.len() / 2;
    let mobile = cells.iter().filter(|&&c| c >= 2).count() as i32;
    let exposed: i32 = cells[half..].iter().map(|&c| i32::from(c)).sum();
    pos.stones(side) as i32 * p.nsolo_stone + mobile * p.nsolo_mobile_pit
        - exposed * p.nsolo_exposed
}

pub fn evaluate(pos: &Position, p: &Params) -> i32 {
    let me = pos.turn();
    side_terms(pos, me, p) - side_terms(pos, me.other(), p)
}
