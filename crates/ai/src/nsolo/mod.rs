//! Nsolo as the search sees it. A search move is an origin plus the index of
//! a bonus policy: the sowing is chosen by search, the bonus (which can have
//! millions of distributions) by a few greedy policies the search compares.

mod bonus;
mod eval;

use palabre_rules::nsolo::{self, Bonus, Pit, Position};

use crate::game::NOISY;
use crate::{Params, SearchGame};

pub use bonus::{POLICIES, Policy};

/// An origin (circuit index) and, for a capture, the bonus policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NsoloMove {
    pub origin: u8,
    pub policy: u8,
    /// Stones the front capture takes (0: a quiet move).
    pub captured: u8,
}

/// The Nsolo adapter, holding the evaluation weights.
#[derive(Debug, Clone)]
pub struct Nsolo {
    pub params: Params,
}

impl Nsolo {
    pub fn new(params: Params) -> Nsolo {
        Nsolo { params }
    }

    fn push_moves(&self, pos: &Position, noisy_only: bool, out: &mut Vec<(NsoloMove, i32)>) {
        let mut mask = pos.candidate_mask();
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let Some(sown) = pos.sow(i) else { continue };
            let captured = sown.captured();
            if captured == 0 {
                if !noisy_only {
                    out.push((
                        NsoloMove {
                            origin: i as u8,
                            policy: 0,
                            captured: 0,
                        },
                        0,
                    ));
                }
                continue;
            }
            let policies = if sown.required() == 0 || noisy_only {
                1
            } else {
                self.params.nsolo_policies
            };
            let order = NOISY + 100 * (i32::from(captured) + i32::from(sown.required()));
            for policy in 0..policies.min(POLICIES.len()) {
                let m = NsoloMove {
                    origin: i as u8,
                    policy: policy as u8,
                    captured,
                };
                out.push((m, order - policy as i32));
            }
        }
    }

    /// The rules' move for a search move, with its bonus spelled out.
    pub fn to_rules_move(&self, pos: &Position, m: NsoloMove) -> nsolo::Move {
        let sown = pos
            .sow(usize::from(m.origin))
            .expect("a generated origin sows");
        let victim = sown.victim();
        let before: Vec<u8> = sown.position().circuit(victim).to_vec();
        let origin = sown.origin();
        let after = bonus::finish(sown, m.policy);
        let mut taken = Bonus::none(victim);
        for (i, (b, a)) in before.iter().zip(after.circuit(victim)).enumerate() {
            if b > a {
                taken.add(Pit::from_circuit(victim, i, pos.size()), b - a);
            }
        }
        nsolo::Move::new(origin, taken)
    }
}

impl SearchGame for Nsolo {
    type Position = Position;
    type Move = NsoloMove;
    const REPETITION_DRAWS: bool = true;
    const HISTORY_SLOTS: usize = 72 * 4;

    fn hash(&self, pos: &Position) -> u64 {
        pos.hash()
    }

    fn quick_outcome(&self, pos: &Position) -> Option<i32> {
        (pos.stones(pos.turn()) == 0).then_some(-1)
    }

    fn generate(&self, pos: &Position, out: &mut Vec<(NsoloMove, i32)>) {
        self.push_moves(pos, false, out);
    }

    fn generate_noisy(&self, pos: &Position, out: &mut Vec<(NsoloMove, i32)>) {
        self.push_moves(pos, true, out);
    }

    fn is_noisy(&self, m: NsoloMove) -> bool {
        m.captured > 0
    }

    fn quiescence_limits(&self) -> (u32, usize) {
        (
            self.params.nsolo_quiescence_plies,
            self.params.nsolo_quiescence_width,
        )
    }

    fn play(&self, pos: &Position, m: NsoloMove) -> Position {
        let sown = pos
            .sow(usize::from(m.origin))
            .expect("a generated origin sows");
        bonus::finish(sown, m.policy)
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        eval::evaluate(pos, &self.params)
    }

    fn key(&self, m: NsoloMove) -> u32 {
        u32::from(m.origin) | u32::from(m.policy) << 8
    }

    fn history_slot(&self, m: NsoloMove) -> usize {
        usize::from(m.policy) * 72 + usize::from(m.origin)
    }
}
