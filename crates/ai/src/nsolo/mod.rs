//! Nsolo as the search sees it. A search move is an origin plus a bonus: the
//! sowing is chosen by search; the bonus, which can have millions of
//! distributions, by a few greedy policies the search compares, and where
//! many plies remain and a capture has few enough distributions, by
//! searching every one of them.

mod bonus;
mod eval;

use palabre_rules::nsolo::{self, Bonus, Pit, Position, Sowing};

use crate::game::NOISY;
use crate::{Params, SearchGame};

pub use bonus::POLICY_COUNT;

/// An origin (circuit index) and, for a capture, the bonus: a policy's, or
/// at the root one distribution among all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NsoloMove {
    pub origin: u8,
    /// Below [`POLICY_COUNT`], a bonus policy; from it on, the
    /// distribution of that rank (less the count) in the rules' order.
    pub policy: u16,
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

    /// At a node `depth` plies above the horizon: how many bonus policies
    /// are compared, and up to how many distributions a capture may have
    /// for every one of them to be searched too (0: none).
    fn bonuses_at(&self, depth: u32) -> (usize, usize) {
        let p = &self.params;
        if depth == u32::MAX {
            (p.nsolo_wide_policies, p.nsolo_root_bonuses)
        } else if depth >= p.nsolo_inner_depth {
            (p.nsolo_wide_policies, p.nsolo_inner_bonuses)
        } else if depth >= p.nsolo_wide_depth {
            (p.nsolo_wide_policies, 0)
        } else {
            (p.nsolo_policies, 0)
        }
    }

    fn push_moves(
        &self,
        pos: &Position,
        noisy_only: bool,
        limits: (usize, usize),
        out: &mut Vec<(NsoloMove, i32)>,
    ) {
        for (i, sowing) in pos.sowing_ends() {
            let captured = sowing.captured;
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
            let order = NOISY + 100 * (i32::from(captured) + i32::from(sowing.required));
            let bonus = |policy: u16| NsoloMove {
                origin: i as u8,
                policy,
                captured,
            };
            let (policies, every) = self.listed(pos, (i, sowing), noisy_only, limits);
            for policy in 0..policies {
                out.push((bonus(policy), order - i32::from(policy)));
            }
            // Every distribution too, after the policies' own.
            for j in 0..every {
                out.push((bonus(POLICY_COUNT as u16 + j), order - 50));
            }
        }
    }

    /// For the capture sowing from circuit index `i`: how many policies are
    /// listed, and how many distributions (each of them, or none).
    fn listed(
        &self,
        pos: &Position,
        (i, sowing): (usize, Sowing),
        noisy_only: bool,
        (policies, every): (usize, usize),
    ) -> (u16, u16) {
        let choosing = sowing.required > 0 && !noisy_only;
        let policies = if choosing { policies } else { 1 };
        let policies = policies.min(self.policy_count(pos)) as u16;
        // Counted only where it may be listed: most nodes list none.
        let count = (choosing && every > 0)
            .then(|| pos.sow(i).expect("it sowed").count_bonuses())
            .filter(|&count| count <= every as u128);
        (policies, count.map_or(0, |c| c as u16))
    }

    /// Whether [`Nsolo::push_moves`], given `limits`, lists `policy` for the
    /// sowing from circuit index `i`.
    fn lists(
        &self,
        pos: &Position,
        sowing: (usize, Sowing),
        limits: (usize, usize),
        policy: u16,
    ) -> bool {
        if sowing.1.captured == 0 {
            return policy == 0;
        }
        if usize::from(policy) < POLICY_COUNT {
            // The policies are listed first: no need to count distributions.
            return policy < self.listed(pos, sowing, false, (limits.0, 0)).0;
        }
        let rank = policy - POLICY_COUNT as u16;
        rank < self.listed(pos, sowing, false, limits).1
    }

    /// The bonus policies there are on `pos`'s board: all of them, or all
    /// but the lookahead (the last) where it costs too much.
    fn policy_count(&self, pos: &Position) -> usize {
        if pos.size() > self.params.nsolo_lookahead_size {
            POLICY_COUNT - 1
        } else {
            POLICY_COUNT
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
        let after = finish(sown, m.policy);
        let mut taken = Bonus::none(victim);
        for (i, (b, a)) in before.iter().zip(after.circuit(victim)).enumerate() {
            if b > a {
                taken.add(Pit::from_circuit(victim, i, pos.size()), b - a);
            }
        }
        nsolo::Move::new(origin, taken)
    }
}

/// Removes the bonus `choice` names (a policy's, or a distribution's by
/// rank) and passes the turn.
fn finish(sown: palabre_rules::nsolo::Sown, choice: u16) -> Position {
    match usize::from(choice).checked_sub(POLICY_COUNT) {
        None => bonus::finish(sown, choice as u8),
        Some(rank) => {
            let chosen = sown
                .distribution(rank as u128)
                .expect("a generated distribution");
            sown.finish_unchecked(&chosen)
        }
    }
}

impl SearchGame for Nsolo {
    type Position = Position;
    type Move = NsoloMove;
    const REPETITION_DRAWS: bool = true;
    const HISTORY_SLOTS: usize = 72 * POLICY_COUNT;

    fn hash(&self, pos: &Position) -> u64 {
        pos.hash()
    }

    fn quick_outcome(&self, pos: &Position) -> Option<i32> {
        (pos.stones(pos.turn()) == 0).then_some(-1)
    }

    fn generate(&self, pos: &Position, out: &mut Vec<(NsoloMove, i32)>) {
        self.push_moves(pos, false, (self.params.nsolo_policies, 0), out);
    }

    fn generate_at(&self, pos: &Position, depth: u32, out: &mut Vec<(NsoloMove, i32)>) {
        self.push_moves(pos, false, self.bonuses_at(depth), out);
    }

    fn move_for_key(&self, pos: &Position, depth: u32, key: u32) -> Option<NsoloMove> {
        let i = (key & 0xff) as usize;
        let policy = u16::try_from(key >> 8).ok()?;
        if i >= pos.circuit_len() || pos.candidate_mask() & (1 << i) == 0 {
            return None;
        }
        let sowing = pos.sowing(i)?;
        self.lists(pos, (i, sowing), self.bonuses_at(depth), policy)
            .then_some(NsoloMove {
                origin: i as u8,
                policy,
                captured: sowing.captured,
            })
    }

    fn generate_noisy(&self, pos: &Position, out: &mut Vec<(NsoloMove, i32)>) {
        self.push_moves(pos, true, (1, 0), out);
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
        finish(sown, m.policy)
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        eval::evaluate(pos, &self.params)
    }

    fn key(&self, m: NsoloMove) -> u32 {
        u32::from(m.origin) | u32::from(m.policy) << 8
    }

    fn history_slot(&self, m: NsoloMove) -> usize {
        usize::from(m.policy).min(POLICY_COUNT - 1) * 72 + usize::from(m.origin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position where South's B1 capture leaves a bonus to choose.
    fn with_bonus() -> (Nsolo, Position, u8) {
        let game = Nsolo::new(Params::default());
        let pos: Position = "2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/2,2,2,2,2,2,2,0/2,2,2,2,2,2,2,2 s"
            .parse()
            .unwrap();
        let origin = (0..pos.circuit_len())
            .find(|&i| {
                pos.sow(i)
                    .is_some_and(|s| s.captured() > 0 && s.required() > 0)
            })
            .expect("a capture with a bonus") as u8;
        (game, pos, origin)
    }

    fn policies_of(moves: &[(NsoloMove, i32)], origin: u8) -> Vec<u16> {
        moves
            .iter()
            .filter(|(m, _)| m.origin == origin)
            .map(|(m, _)| m.policy)
            .collect()
    }

    #[test]
    fn the_root_and_deep_nodes_compare_every_bonus_others_five_policies_or_two() {
        let (game, pos, origin) = with_bonus();
        let count = pos.sow(usize::from(origin)).unwrap().count_bonuses() as u16;
        let n = POLICY_COUNT as u16;
        let every: Vec<u16> = (0..n + count).collect();
        let mut root = Vec::new();
        game.generate_at(&pos, u32::MAX, &mut root);
        assert_eq!(policies_of(&root, origin), every);
        let inner = game.params.nsolo_inner_depth;
        assert!(inner > game.params.nsolo_wide_depth);
        let mut deepest = Vec::new();
        game.generate_at(&pos, inner, &mut deepest);
        assert_eq!(policies_of(&deepest, origin), every);
        let mut deep = Vec::new();
        game.generate_at(&pos, inner - 1, &mut deep);
        assert_eq!(policies_of(&deep, origin), (0..n).collect::<Vec<_>>());
        let mut shallow = Vec::new();
        game.generate_at(&pos, game.params.nsolo_wide_depth - 1, &mut shallow);
        assert_eq!(policies_of(&shallow, origin), [0, 1]);
        let mut noisy = Vec::new();
        game.generate_noisy(&pos, &mut noisy);
        assert_eq!(policies_of(&noisy, origin), [0]);
    }

    #[test]
    fn past_their_caps_the_root_and_deep_nodes_compare_the_policies_only() {
        let (_, pos, origin) = with_bonus();
        let count = pos.sow(usize::from(origin)).unwrap().count_bonuses() as usize;
        let game = Nsolo::new(Params {
            nsolo_root_bonuses: count - 1,
            nsolo_inner_bonuses: count - 1,
            ..Params::default()
        });
        let n = POLICY_COUNT as u16;
        for depth in [u32::MAX, game.params.nsolo_inner_depth] {
            let mut moves = Vec::new();
            game.generate_at(&pos, depth, &mut moves);
            assert_eq!(policies_of(&moves, origin), (0..n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn every_bonus_at_the_root_is_a_legal_move_of_its_own() {
        let (game, pos, origin) = with_bonus();
        let count = pos.sow(usize::from(origin)).unwrap().count_bonuses() as usize;
        let mut root = Vec::new();
        game.generate_at(&pos, u32::MAX, &mut root);
        let mut spelled = std::collections::HashSet::new();
        for (m, _) in root
            .iter()
            .filter(|(m, _)| m.origin == origin && usize::from(m.policy) >= POLICY_COUNT)
        {
            let rules_move = game.to_rules_move(&pos, *m);
            let mut next = pos.clone();
            next.play(&rules_move).expect("a legal bonus");
            assert_eq!(next, game.play(&pos, *m), "{rules_move}");
            spelled.insert(rules_move.to_string());
        }
        assert_eq!(spelled.len(), count);
    }

    #[test]
    fn wide_boards_compare_every_policy_but_the_lookahead() {
        let game = Nsolo::new(Params::default());
        let wide = game.params.nsolo_lookahead_size + 1;
        for (size, count) in [(8, POLICY_COUNT), (wide, POLICY_COUNT - 1)] {
            let pos = Position::start(size).unwrap();
            let mut root = Vec::new();
            game.generate_at(&pos, game.params.nsolo_wide_depth, &mut root);
            let most = root.iter().map(|(m, _)| usize::from(m.policy) + 1).max();
            assert_eq!(most, Some(count), "4×{size}");
        }
    }

    #[test]
    fn a_key_gives_back_its_move_where_it_is_listed_and_nothing_elsewhere() {
        let (game, pos, _) = with_bonus();
        let inner = game.params.nsolo_inner_depth;
        for depth in [0, game.params.nsolo_wide_depth, inner] {
            let mut moves = Vec::new();
            game.generate_at(&pos, depth, &mut moves);
            let listed: Vec<u32> = moves.iter().map(|&(m, _)| game.key(m)).collect();
            for (m, _) in &moves {
                assert_eq!(game.move_for_key(&pos, depth, game.key(*m)), Some(*m));
            }
            // Every origin with every policy and distribution up to past the
            // largest listed: only the listed ones come back.
            for origin in 0..80u32 {
                for policy in 0..POLICY_COUNT as u32 + 2_100 {
                    let key = origin | policy << 8;
                    let found = game.move_for_key(&pos, depth, key);
                    assert_eq!(
                        found.is_some(),
                        listed.contains(&key),
                        "{key:#x} at {depth}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_policy_spells_a_legal_move() {
        let (game, pos, origin) = with_bonus();
        for policy in 0..POLICY_COUNT as u16 {
            let m = NsoloMove {
                origin,
                policy,
                captured: 1,
            };
            let rules_move = game.to_rules_move(&pos, m);
            let mut next = pos.clone();
            next.play(&rules_move).expect("a legal bonus");
            assert_eq!(next, game.play(&pos, m), "policy {policy}");
        }
    }
}
