//! Legal move generation and counting, without heap allocation.
//!
//! Jumps are found a direction at a time on the bitboards. Every jump removes
//! one opponent ball, so every jump has the same number of second-ball
//! choices, which lets [`Position::count_moves`] count without listing.
//!
//! Listing is the inner loop of random playouts and of the search, and a list
//! is short (about 15 moves a ply in random games), so the fixed costs are
//! what matter: the four directions are walked in one loop ([`DirBits`]),
//! holes come straight from the bit arithmetic without a range check, and the
//! list's capacity is the exact maximum ([`MAX_MOVES`]).

use arrayvec::ArrayVec;

use super::bitboard::{Bits, Dir, DirBits};
use super::{Color, Move, Position, Second, Square};
use crate::Refusal;

/// The most legal moves of any position: room for every list, and no more,
/// since a [`MoveList`] returned by value is copied whole (at 576 slots the
/// copy took a third of a random playout).
///
/// A jump takes at most 11 second balls (the opponent's other balls on the
/// board, and one more for a reserve: 12 balls in all), so a position has at
/// most `quiet + 11 × jumps` moves. `max_moves_bounds_every_position` below
/// maximises that over every board, and `max_moves_is_reached` shows a
/// position with exactly this many.
pub const MAX_MOVES: usize = 183;

/// The legal moves of a position, on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// A hole produced by the bitboard arithmetic, so on the board.
#[inline(always)]
fn hole(index: u8) -> Square {
    Square::new_unchecked(index)
}

/// The hole `steps` steps back from `to` along `dir`: where a move that
/// arrived at `to` going `dir` started from or jumped over.
#[inline(always)]
fn back(to: u8, steps: i8, dir: Dir) -> Square {
    hole(to.wrapping_add_signed(-steps * dir.delta()))
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
            for to in Bits(empty) {
                list.push(Move::Place { to: hole(to) });
            }
        } else {
            for (to, dir) in DirBits::new(|d| d.shift(own) & empty) {
                list.push(Move::Step {
                    from: back(to, 1, dir),
                    to: hole(to),
                });
            }
        }
        self.push_captures(list);
    }

    /// Appends every capture, with each choice of second ball.
    pub fn generate_captures(&self, list: &mut MoveList) {
        self.push_captures(list);
    }

    /// [`Position::generate_captures`], inlined into [`Position::generate`]
    /// to save a call per listing.
    #[inline(always)]
    fn push_captures(&self, list: &mut MoveList) {
        let me = self.turn.index();
        let (own, opp, empty) = (self.balls[me], self.balls[1 - me], self.empty());
        let reserve = self.reserve[1 - me] > 0;
        for (to, dir) in DirBits::new(|d| d.jump_landings(own, opp, empty)) {
            let (from, over, to) = (back(to, 2, dir), back(to, 1, dir), hole(to));
            let left = opp & !over.bit();
            for second in Bits(left) {
                list.push(Move::Capture {
                    from,
                    to,
                    second: Some(Second::Board(hole(second))),
                });
            }
            if reserve {
                list.push(Move::Capture {
                    from,
                    to,
                    second: Some(Second::Reserve),
                });
            } else if left == 0 {
                // The opponent's last ball: nothing left to take second.
                list.push(Move::Capture {
                    from,
                    to,
                    second: None,
                });
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
            .map(|d| d.jump_landings(own, opp, empty).count_ones())
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
            .any(|d| d.jump_landings(bit, opp, empty) != 0)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What a hole holds, from the side to move's point of view.
    #[derive(Clone, Copy, PartialEq)]
    enum Cell {
        Empty,
        Own,
        Opp,
    }

    /// The maximum of `quiet + 11 × jumps` over every board with at most 12
    /// opponent balls, where `quiet` counts the empty holes if `placing`, the
    /// steps otherwise.
    ///
    /// Holes are filled in index order; a step or a jump spans at most ten
    /// consecutive indices (two ranks), so the state is the last ten holes
    /// (base 3, newest lowest) and the opponent balls so far, each keeping the
    /// best partial sum: 3¹⁰ × 13 states, three choices, 25 holes.
    fn most_moves(placing: bool) -> i32 {
        const WINDOW: usize = 3usize.pow(10);
        const CELLS: [Cell; 3] = [Cell::Empty, Cell::Own, Cell::Opp];
        let cell = |window: usize, back: u32| CELLS[window / 3usize.pow(back) % 3];
        let mut best = vec![i32::MIN; WINDOW * 13];
        best[0] = 0;
        for hole in 0..25 {
            let (file, rank) = (hole % 5, hole / 5);
            let mut next = vec![i32::MIN; WINDOW * 13];
            for window in 0..WINDOW {
                // The holes 1 and 2 to the left, and 1 and 2 ranks below.
                let (left, left2) = (cell(window, 0), cell(window, 1));
                let (below, below2) = (cell(window, 4), cell(window, 9));
                for opp in 0..13 {
                    let value = best[window * 13 + opp];
                    if value == i32::MIN {
                        continue;
                    }
                    for (digit, new) in CELLS.into_iter().enumerate() {
                        let opp = opp + usize::from(new == Cell::Opp);
                        if opp > 12 {
                            continue;
                        }
                        // One end holds the mover's ball, the other is empty.
                        let ends = |a: Cell| {
                            (a, new) == (Cell::Own, Cell::Empty)
                                || (a, new) == (Cell::Empty, Cell::Own)
                        };
                        let jump = |a: Cell, over: Cell| over == Cell::Opp && ends(a);
                        let quiet = if placing {
                            i32::from(new == Cell::Empty)
                        } else {
                            i32::from(file >= 1 && ends(left)) + i32::from(rank >= 1 && ends(below))
                        };
                        let jumps = i32::from(file >= 2 && jump(left2, left))
                            + i32::from(rank >= 2 && jump(below2, below));
                        let slot = &mut next[(window * 3 % WINDOW + digit) * 13 + opp];
                        *slot = (*slot).max(value + quiet + 11 * jumps);
                    }
                }
            }
            best = next;
        }
        best.into_iter().max().expect("states")
    }

    #[test]
    fn max_moves_bounds_every_position() {
        let most = most_moves(true).max(most_moves(false));
        assert_eq!(most, MAX_MOVES as i32);
    }

    #[test]
    fn max_moves_is_reached() {
        let pos: Position = "1brb1/brb1b/rb1br/b1brb/1brb1 6 0 r 0".parse().unwrap();
        assert_eq!(pos.count_moves(), MAX_MOVES as u64);
        assert_eq!(pos.legal_moves().len(), MAX_MOVES);
    }
}
