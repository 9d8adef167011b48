//! The one-ply greedy player: the yardstick the levels are measured against.
//! It takes the move that wins the most material at once, breaking ties at
//! random, and never looks at the reply.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use crate::nsolo::Nsolo;
use crate::player::{AnyMove, AnyPosition};
use crate::{Params, SearchGame};

/// The greedy choice for the side to move, or `None` if it has no move.
pub fn greedy_move(position: &AnyPosition, seed: u64) -> Option<AnyMove> {
    let mut rng = SmallRng::seed_from_u64(seed);
    match position {
        AnyPosition::Yote(pos) => {
            let them = pos.turn().other();
            let moves = pos.legal_moves();
            let gain = |m: &palabre_rules::yote::Move| {
                let mut next = *pos;
                next.play_unchecked(*m);
                pos.material(them) - next.material(them)
            };
            let best = moves.iter().map(gain).max()?;
            let top: Vec<_> = moves.iter().filter(|m| gain(m) == best).collect();
            top.choose(&mut rng).map(|m| AnyMove::Yote(**m))
        }
        AnyPosition::Nsolo(pos) => {
            let game = Nsolo::new(Params::default());
            let mut moves = Vec::new();
            game.generate(pos, &mut moves);
            let gain = |m: &crate::nsolo::NsoloMove| {
                pos.stones(pos.turn().other()) - game.play(pos, *m).stones(pos.turn().other())
            };
            let quiet_or_first: Vec<_> = moves
                .iter()
                .map(|(m, _)| *m)
                .filter(|m| m.policy == 0)
                .collect();
            let best = quiet_or_first.iter().map(gain).max()?;
            let top: Vec<_> = quiet_or_first.iter().filter(|m| gain(m) == best).collect();
            top.choose(&mut rng)
                .map(|m| AnyMove::Nsolo(game.to_rules_move(pos, **m)))
        }
    }
}
