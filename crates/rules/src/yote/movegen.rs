//! Legal move generation and counting, without heap allocation.
//!
//! Jumps are found a direction at a time on the bitboards. Every jump removes
//! one opponent ball, so every jump has the same number of second-ball
//! choices, which lets [`Position::count_moves`] count without listing.

use arrayvec::ArrayVec;

use super::bitboard::{Bits, Dir};
use super::{Color, Move, Position, Second, Square};
use crate::Refusal;

/// Room for every legal move of any position: at most 48 steps, or 25
/// placements, plus 48 jumps times 11 second balls.
pub const MAX_MOVES: usize = 48 + 48 * 11;

/// The legal moves of a position, on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

fn sq(index: i8) -> Square {
    Square::new(index as u8).expect("shifts stay on the board")
}

impl Position {
    /// Every legal move: placements or steps, then captures.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// Appends every legal move to `list`; nothing once the game is over.
    pub fn generate(&self, list: &mut MoveList) {
        if self.is_over_by_count() {
            return;
        }
        let me = self.turn.index();
        let (own, empty) = (self.balls[me], self.empty());
        if self.reserve[me] > 0 {
            list.extend(Bits(empty).map(|i| Move::Place { to: sq(i as i8) }));
        } else {
            for dir in Dir::ALL {
                for to in Bits(dir.shift(own) & empty) {
                    let to = to as i8;
                    list.push(Move::Step {
                        from: sq(to - dir.delta()),
                        to: sq(to),
                    });
                }
            }
        }
        self.generate_captures(list);
    }

    /// Appends every capture, with each choice of second ball.
    pub fn generate_captures(&self, list: &mut MoveList) {
        let them = 1 - self.turn.index();
        let (opp, reserve) = (self.balls[them], self.reserve[them]);
        self.for_each_jump(|from, to, over| {
            let left = opp & !over.bit();
            let before = list.len();
            list.extend(Bits(left).map(|i| Move::Capture {
                from,
                to,
                second: Some(Second::Board(sq(i as i8))),
            }));
            if reserve > 0 {
                list.push(Move::Capture {
                    from,
                    to,
                    second: Some(Second::Reserve),
                });
            }
            if list.len() == before {
                list.push(Move::Capture {
                    from,
                    to,
                    second: None,
                });
            }
        });
    }

    /// Calls `f(from, to, jumped)` for every capture jump.
    fn for_each_jump(&self, mut f: impl FnMut(Square, Square, Square)) {
        let me = self.turn.index();
        let (own, opp, empty) = (self.balls[me], self.balls[1 - me], self.empty());
        for dir in Dir::ALL {
            let land = dir.shift(dir.shift(own) & opp) & empty;
            for to in Bits(land) {
                let (to, d) = (to as i8, dir.delta());
                f(sq(to - 2 * d), sq(to), sq(to - d));
            }
        }
    }

    fn jump_count(&self) -> u32 {
        self.jumps_for(self.turn)
    }

    /// The capture jumps `color` could make if it were to move.
    pub fn jumps_for(&self, color: Color) -> u32 {
        let (own, opp, empty) = (self.balls(color), self.balls(color.other()), self.empty());
        Dir::ALL
            .iter()
            .map(|d| (d.shift(d.shift(own) & opp) & empty).count_ones())
            .sum()
    }

    /// The steps `color` could make if it were to move and had no reserve.
    pub fn steps_for(&self, color: Color) -> u32 {
        let (own, empty) = (self.balls(color), self.empty());
        Dir::ALL
            .iter()
            .map(|d| (d.shift(own) & empty).count_ones())
            .sum()
    }

    /// The number of legal moves, computed from bit counts.
    pub fn count_moves(&self) -> u64 {
        if self.is_over_by_count() {
            return 0;
        }
        let me = self.turn.index();
        let (own, empty) = (self.balls[me], self.empty());
        let quiet = if self.reserve[me] > 0 {
            empty.count_ones()
        } else {
            Dir::ALL
                .iter()
                .map(|d| (d.shift(own) & empty).count_ones())
                .sum()
        };
        let them = 1 - me;
        let choices = (self.balls[them].count_ones().saturating_sub(1)
            + u32::from(self.reserve[them] > 0))
        .max(1);
        let jumps = self.jump_count();
        u64::from(quiet) + u64::from(jumps) * u64::from(choices)
    }

    /// Why `sq` cannot start a move of the side to move, or `None` if a
    /// legal move starts there: a placement on an empty hole, a step or a
    /// capture from one of the mover's balls.
    pub fn refusal(&self, sq: Square) -> Option<Refusal> {
        if self.is_over_by_count() {
            return Some(Refusal::GameOver);
        }
        let me = self.turn;
        let (bit, opp, empty) = (sq.bit(), self.balls(me.other()), self.empty());
        let reserve = self.reserve(me) > 0;
        if opp & bit != 0 {
            return Some(Refusal::NotYours);
        }
        if empty & bit != 0 {
            return (!reserve).then_some(Refusal::ChooseBall);
        }
        if Dir::ALL
            .iter()
            .any(|d| d.shift(d.shift(bit) & opp) & empty != 0)
        {
            None
        } else if reserve {
            Some(Refusal::ReserveFirst)
        } else if Dir::ALL.iter().any(|d| d.shift(bit) & empty != 0) {
            None
        } else {
            Some(Refusal::Blocked)
        }
    }

    /// Whether the side to move can act at all (not Ndar-Kepp).
    pub(super) fn has_action(&self) -> bool {
        let me = self.turn.index();
        let (own, empty) = (self.balls[me], self.empty());
        self.reserve[me] > 0
            || Dir::ALL.iter().any(|d| d.shift(own) & empty != 0)
            || self.jump_count() > 0
    }
}
