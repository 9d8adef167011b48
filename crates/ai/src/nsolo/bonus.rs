//! Greedy bonus policies: each removes the required stones one at a time
//! from the victim pit it ranks first.

use palabre_rules::nsolo::{Position, Sown};

// Each ranking below ranks a victim pit holding `count` stones; `inner`
// tells whether it is in the victim's inner row.

/// Take from the fullest pits: they feed the longest relays.
fn shrink(count: u8, inner: bool) -> i32 {
    4 * i32::from(count) + i32::from(!inner)
}

/// Turn pairs into single stones, which cannot move while any pit holds two:
/// the victim runs out of moves.
fn immobilise(count: u8, inner: bool) -> i32 {
    let rank = match count {
        2 => 1000,
        c if c >= 3 => 500 - i32::from(c),
        _ => 0,
    };
    2 * rank + i32::from(!inner)
}

/// Empty the victim's front row, fullest pits first: those are the stones
/// its next captures start from.
fn disarm(count: u8, inner: bool) -> i32 {
    1000 * i32::from(inner) + i32::from(count)
}

/// Take single stones first, front row first: each one taken leaves an empty
/// pit, where the victim's relays stop.
fn scatter(count: u8, inner: bool) -> i32 {
    let rank = if count == 1 {
        1000
    } else {
        100 - i32::from(count)
    };
    2 * rank + i32::from(inner)
}

/// The policies, numbered in the order the search tries them ([`finish`]):
/// the first two everywhere, all of them where the search is deep
/// (`Params`); the last looks ahead ([`finish_disarming`]).
pub const POLICY_COUNT: usize = 5;

/// The index of the policy that looks at the victim's replies.
const LOOKAHEAD: usize = 4;

/// What the side to move in `pos` threatens, worst first: its largest
/// capture (stones taken at the front and as bonus), then the stones of all
/// its captures together, then how many pits it can sow from (bonuses
/// aside). One pass over its sowings gives all three.
fn threats(pos: &Position) -> (u32, u32, u32) {
    let (mut best, mut sum, mut origins) = (0, 0, 0);
    for (_, s) in pos.sowing_ends() {
        let taken = u32::from(s.captured) + u32::from(s.required);
        best = best.max(taken);
        sum += taken;
        origins += 1;
    }
    (best, sum, origins)
}

/// The position after the bonus stones `picks`, victim circuit indices.
fn finish_picks(sown: Sown, picks: &[usize]) -> Position {
    let mut it = picks.iter();
    sown.finish_with(|_| *it.next().expect("a pick for each bonus stone"))
}

/// Takes each bonus stone where it leaves the victim the least [`threats`]
/// next turn (the stones still to take coming from the fullest pits), ties
/// to the fullest pit. Where several stones leave the same largest capture,
/// which is most of the time, the whole search at the root picks the one
/// that leaves fewer and smaller captures more often than the fullest pit
/// (docs/strength.md, "A lookahead that counts every threat").
fn finish_disarming(sown: Sown) -> Position {
    let mut left = sown.position().circuit(sown.victim()).to_vec();
    let half = left.len() / 2;
    let required = usize::from(sown.required());
    let mut picks: Vec<usize> = Vec::with_capacity(required);
    while picks.len() < required {
        let pick = (0..left.len())
            .filter(|&i| left[i] > 0)
            .min_by_key(|&p| {
                let mut trial = left.clone();
                trial[p] -= 1;
                let mut seq = picks.clone();
                seq.push(p);
                while seq.len() < required {
                    let f = ranked_first(&trial, half, shrink);
                    trial[f] -= 1;
                    seq.push(f);
                }
                let after = finish_picks(sown.clone(), &seq);
                (
                    threats(&after),
                    std::cmp::Reverse(shrink(left[p], p >= half)),
                )
            })
            .expect("a victim stone");
        left[pick] -= 1;
        picks.push(pick);
    }
    finish_picks(sown, &picks)
}

/// Removes the bonus chosen by policy `index` and passes the turn.
pub fn finish(sown: Sown, index: u8) -> Position {
    // Each policy by name rather than through function pointers, so that
    // its ranking is inlined in the scan of every pit for every stone.
    match usize::from(index) {
        0 => finish_by(sown, shrink),
        1 => finish_by(sown, immobilise),
        2 => finish_by(sown, disarm),
        3 => finish_by(sown, scatter),
        LOOKAHEAD => finish_disarming(sown),
        other => panic!("no bonus policy {other}"),
    }
}

/// Takes each bonus stone from the non-empty pit `rank` ranks first, ties
/// to the lowest index.
fn finish_by(sown: Sown, rank: impl Fn(u8, bool) -> i32) -> Position {
    let half = sown.position().circuit_len() / 2;
    sown.finish_with(|cells| ranked_first(cells, half, &rank))
}

/// The non-empty pit of `cells` that `rank` ranks first, ties to the lowest
/// index; pits from `half` on are the inner row.
fn ranked_first(cells: &[u8], half: usize, rank: impl Fn(u8, bool) -> i32) -> usize {
    (0..cells.len())
        .filter(|&i| cells[i] > 0)
        .max_by_key(|&i| (rank(cells[i], i >= half), std::cmp::Reverse(i)))
        .expect("a bonus never exceeds the victim's stones")
}

#[cfg(test)]
mod tests {
    use super::*;
    use palabre_rules::nsolo::Move;

    #[test]
    fn the_lookahead_leaves_the_victim_its_least_threats() {
        // Along a game, every capture with one bonus stone: no other stone
        // would leave the victim a smaller largest capture, or the same and
        // fewer stones in all its captures, or those and fewer origins.
        let mut pos = Position::start(8).unwrap();
        let mut checked = 0;
        for n in 0..60 {
            if pos.outcome().is_some() {
                break;
            }
            for (_, sown) in pos.sowings().filter(|(_, s)| s.required() == 1) {
                let chosen = threats(&finish(sown.clone(), LOOKAHEAD as u8));
                let cells = sown.position().circuit(sown.victim()).to_vec();
                for p in (0..cells.len()).filter(|&p| cells[p] > 0) {
                    let other = threats(&sown.clone().finish_with(|_| p));
                    assert!(
                        chosen <= other,
                        "{pos}: pit {p} leaves {other:?} < {chosen:?}"
                    );
                }
                checked += 1;
            }
            let moves: Vec<Move> = pos.legal_moves().collect();
            pos.play(&moves[(n * 7) % moves.len()]).unwrap();
        }
        assert!(checked > 10, "only {checked} captures checked");
    }
}
