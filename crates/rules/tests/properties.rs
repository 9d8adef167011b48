//! Properties over positions reached by random legal play.

use palabre_rules::nsolo::{self, Bonus, Pit, Row};
use palabre_rules::yote::{self, Second, Square};
use proptest::prelude::*;

/// Plays `choices` from the Yoté start (each choice an index into the legal
/// moves), returning every position and the balls each side lost, counted
/// from the moves themselves.
fn yote_walk(choices: &[usize]) -> Vec<(yote::Position, [u32; 2])> {
    let mut pos = yote::Position::START;
    let mut lost = [0u32; 2];
    let mut seen = vec![(pos, lost)];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[c % moves.len()];
        if let yote::Move::Capture { second, .. } = m {
            let victim = pos.turn().other().index();
            lost[victim] += 1 + u32::from(second.is_some());
        }
        pos.play(&m).expect("a generated move is legal");
        seen.push((pos, lost));
    }
    seen
}

fn nsolo_walk(size: u8, choices: &[(usize, u32)]) -> Vec<nsolo::Position> {
    let mut pos = nsolo::Position::start(size).unwrap();
    let mut seen = vec![pos.clone()];
    for &(origin, seed) in choices {
        let origins = pos.legal_origins();
        if origins.is_empty() {
            break;
        }
        let sown = pos.sow_pit(origins[origin % origins.len()].pit).unwrap();
        let mut k = seed as usize;
        pos = sown.finish_with(|cells| {
            k = k.wrapping_mul(31).wrapping_add(7);
            let full: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] > 0).collect();
            full[k % full.len()]
        });
        seen.push(pos.clone());
    }
    seen
}

fn any_square() -> impl Strategy<Value = Square> {
    (0u8..25).prop_map(|i| Square::new(i).unwrap())
}

fn any_yote_move() -> impl Strategy<Value = yote::Move> {
    let second = prop_oneof![
        Just(None),
        Just(Some(Second::Reserve)),
        any_square().prop_map(|s| Some(Second::Board(s))),
    ];
    prop_oneof![
        any_square().prop_map(|to| yote::Move::Place { to }),
        (any_square(), any_square()).prop_map(|(from, to)| yote::Move::Step { from, to }),
        (any_square(), any_square(), second).prop_map(|(from, to, second)| yote::Move::Capture {
            from,
            to,
            second
        }),
    ]
}

fn any_pit(size: u8) -> impl Strategy<Value = Pit> {
    (0usize..4, 1..=size).prop_map(|(r, c)| Pit::new(Row::ALL[r], c).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn yote_balls_are_conserved(choices in prop::collection::vec(any::<usize>(), 0..200)) {
        for (pos, lost) in yote_walk(&choices) {
            for color in [yote::Color::Red, yote::Color::Black] {
                let board = pos.balls(color).count_ones();
                let reserve = u32::from(pos.reserve(color));
                prop_assert_eq!(board + reserve + lost[color.index()], 12);
                prop_assert_eq!(u32::from(pos.captured(color)), lost[color.index()]);
            }
        }
    }

    #[test]
    fn yote_strings_round_trip(choices in prop::collection::vec(any::<usize>(), 0..150)) {
        for (pos, _) in yote_walk(&choices) {
            let again: yote::Position = pos.to_string().parse().unwrap();
            prop_assert_eq!(again, pos);
            prop_assert_eq!(again.hash(), pos.hash());
            for m in pos.legal_moves() {
                prop_assert_eq!(m.to_string().parse::<yote::Move>().unwrap(), m);
            }
        }
    }

    #[test]
    fn yote_play_accepts_exactly_the_legal_moves(
        choices in prop::collection::vec(any::<usize>(), 0..150),
        tries in prop::collection::vec(any_yote_move(), 64),
    ) {
        let walk = yote_walk(&choices);
        let (pos, _) = walk.last().unwrap();
        let legal = pos.legal_moves();
        prop_assert_eq!(legal.len() as u64, pos.count_moves());
        for m in legal.iter().chain(&tries) {
            let mut after = *pos;
            let accepted = after.play(m).is_ok();
            prop_assert_eq!(accepted, legal.contains(m), "{} in {}", m, pos);
            if !accepted {
                prop_assert_eq!(after, *pos);
            }
        }
    }

    #[test]
    fn yote_refuses_exactly_the_holes_where_no_move_starts(
        choices in prop::collection::vec(any::<usize>(), 0..150),
    ) {
        for (pos, _) in yote_walk(&choices) {
            let legal = pos.legal_moves();
            for sq in Square::all() {
                let starts = legal.iter().any(|m| match *m {
                    yote::Move::Place { to } => to == sq,
                    yote::Move::Step { from, .. } | yote::Move::Capture { from, .. } => from == sq,
                });
                prop_assert_eq!(pos.refusal(sq).is_none(), starts, "{} in {}", sq, pos);
            }
        }
    }

    #[test]
    fn yote_distinct_positions_hash_apart(
        a in prop::collection::vec(any::<usize>(), 0..60),
        b in prop::collection::vec(any::<usize>(), 0..60),
    ) {
        let (pa, _) = *yote_walk(&a).last().unwrap();
        let (pb, _) = *yote_walk(&b).last().unwrap();
        let same = pa.setup().balls == pb.setup().balls
            && pa.setup().reserve == pb.setup().reserve
            && pa.turn() == pb.turn();
        prop_assert_eq!(pa.hash() == pb.hash(), same);
    }

    #[test]
    fn nsolo_stones_change_only_by_capture(
        size in 8u8..=36,
        choices in prop::collection::vec((any::<usize>(), any::<u32>()), 0..120),
    ) {
        let walk = nsolo_walk(size, &choices);
        for pair in walk.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let mover = before.turn();
            let victim = mover.other();
            prop_assert_eq!(after.stones(mover), before.stones(mover));
            prop_assert!(after.stones(victim) <= before.stones(victim));
            let total = |p: &nsolo::Position| p.stones(mover) + p.stones(victim);
            prop_assert!(total(after) <= total(before));
            let on_board = |p: &nsolo::Position, s| p.circuit(s).iter().map(|&c| u32::from(c)).sum::<u32>();
            prop_assert_eq!(on_board(after, mover), after.stones(mover));
            prop_assert_eq!(on_board(after, victim), after.stones(victim));
        }
    }

    #[test]
    fn nsolo_a_bonus_found_by_rank_is_the_one_listed_at_that_rank(
        size in 8u8..=12,
        choices in prop::collection::vec((any::<usize>(), any::<u32>()), 0..80),
    ) {
        for pos in nsolo_walk(size, &choices) {
            for (_, sown) in pos.sowings().filter(|(_, s)| s.required() > 0) {
                let count = sown.count_bonuses();
                if count > 3000 {
                    continue;
                }
                for (rank, listed) in sown.distributions().enumerate() {
                    prop_assert_eq!(sown.distribution(rank as u128), Some(listed), "{} in {}", rank, pos);
                }
                prop_assert_eq!(sown.distribution(count), None);
            }
        }
    }

    #[test]
    fn nsolo_refuses_exactly_the_pits_where_no_move_starts(
        size in 8u8..=12,
        choices in prop::collection::vec((any::<usize>(), any::<u32>()), 0..120),
    ) {
        for pos in nsolo_walk(size, &choices) {
            let origins = pos.legal_origins();
            for row in Row::ALL {
                for col in 1..=size {
                    let pit = Pit::new(row, col).unwrap();
                    let starts = origins.iter().any(|o| o.pit == pit);
                    prop_assert_eq!(pos.refusal(pit).is_none(), starts, "{} in {}", pit, pos);
                }
            }
        }
    }

    #[test]
    fn nsolo_hash_and_strings_round_trip(
        size in 8u8..=36,
        choices in prop::collection::vec((any::<usize>(), any::<u32>()), 0..120),
    ) {
        for pos in nsolo_walk(size, &choices) {
            prop_assert!(pos.hash_is_consistent());
            let again: nsolo::Position = pos.to_string().parse().unwrap();
            prop_assert_eq!(again.hash(), pos.hash());
            prop_assert_eq!(&again, &pos);
        }
    }

    #[test]
    fn nsolo_play_accepts_exactly_the_legal_moves(
        size in 8u8..=12,
        choices in prop::collection::vec((any::<usize>(), any::<u32>()), 0..80),
        tries in prop::collection::vec((any_pit(12), prop::collection::vec((any_pit(12), 1u8..4), 0..3)), 32),
    ) {
        let walk = nsolo_walk(size, &choices);
        let pos = walk.last().unwrap();
        prop_assume!(pos.count_moves() <= 20_000);
        let legal: Vec<nsolo::Move> = pos.legal_moves().collect();
        prop_assert_eq!(legal.len() as u128, pos.count_moves());
        let tried = tries.iter().filter_map(|(origin, items)| {
            let mut bonus = Bonus::none(origin.owner().other());
            for (pit, n) in items {
                if pit.owner() != bonus.victim() || bonus.get(*pit) > 0 {
                    return None;
                }
                bonus.add(*pit, *n);
            }
            Some(nsolo::Move::new(*origin, bonus))
        });
        for m in legal.iter().copied().chain(tried) {
            prop_assert_eq!(m.to_string().parse::<nsolo::Move>().unwrap(), m);
            let mut after = pos.clone();
            let accepted = after.play(&m).is_ok();
            prop_assert_eq!(accepted, legal.contains(&m), "{} in {}", m, pos);
            if !accepted {
                prop_assert_eq!(&after, pos);
            }
        }
    }

    #[test]
    fn parsers_never_panic(s in "\\PC{0,40}") {
        let _ = s.parse::<yote::Position>();
        let _ = s.parse::<yote::Move>();
        let _ = s.parse::<nsolo::Position>();
        let _ = s.parse::<nsolo::Move>();
    }

    #[test]
    fn near_miss_strings_never_panic(s in "[0-9rb/, ]{0,40}|[A-D0-9/:,]{0,30}|[a-e1-5x/r-]{0,9}") {
        let _ = s.parse::<yote::Position>();
        let _ = s.parse::<yote::Move>();
        let _ = s.parse::<nsolo::Position>();
        let _ = s.parse::<nsolo::Move>();
    }
}
