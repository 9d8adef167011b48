//! Why a hole or a pit cannot start a move, so that a board can say so in
//! a word without knowing the rules.
//!
//! [`yote::Position::refusal`](crate::yote::Position::refusal) and
//! [`nsolo::Position::refusal`](crate::nsolo::Position::refusal) answer
//! `None` exactly for the places where a legal move of the side to move
//! starts, and otherwise the first reason that applies. Each reason has a
//! stable snake_case [`code`](Refusal::code) for the pages' dictionaries.

use std::fmt;

/// Why a place cannot start a move of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// The game is over: nothing starts a move.
    GameOver,
    /// The place is the opponent's (or, in Nsolo, not on this board).
    NotYours,
    /// Yoté: the mover still has balls in reserve, and balls on the board
    /// only move by capturing until they are all placed.
    ReserveFirst,
    /// Yoté: the ball can neither step nor jump.
    Blocked,
    /// Yoté: an empty hole with the reserve empty: a move starts from a ball.
    ChooseBall,
    /// Nsolo: a single stone while another pit of the mover holds two or more.
    SingleStone,
    /// Nsolo: a single stone whose next pit on the circuit is occupied.
    NextOccupied,
    /// Nsolo: the pit of the mover is empty.
    Empty,
    /// Nsolo: the sowing from this pit would never end.
    Endless,
}

impl Refusal {
    /// A stable name for the reason, e.g. `reserve_first`.
    pub const fn code(self) -> &'static str {
        match self {
            Refusal::GameOver => "game_over",
            Refusal::NotYours => "not_yours",
            Refusal::ReserveFirst => "reserve_first",
            Refusal::Blocked => "blocked",
            Refusal::ChooseBall => "choose_ball",
            Refusal::SingleStone => "single_stone",
            Refusal::NextOccupied => "next_occupied",
            Refusal::Empty => "empty",
            Refusal::Endless => "endless",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Refusal::GameOver => "the game is over",
            Refusal::NotYours => "not the mover's",
            Refusal::ReserveFirst => "balls in reserve must be placed first",
            Refusal::Blocked => "this ball cannot move",
            Refusal::ChooseBall => "choose a ball to move first",
            Refusal::SingleStone => "a single stone while a pit holds two or more",
            Refusal::NextOccupied => "the next pit is occupied",
            Refusal::Empty => "the pit is empty",
            Refusal::Endless => "the sowing would never end",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Refusal::*;
    use super::*;
    use crate::nsolo::{self, Pit};
    use crate::yote::{self, Square};

    fn yote(fen: &str, hole: &str) -> Option<Refusal> {
        let pos: yote::Position = fen.parse().unwrap();
        pos.refusal(hole.parse::<Square>().unwrap())
    }

    fn nsolo(fen: &str, pit: &str) -> Option<Refusal> {
        let pos: nsolo::Position = fen.parse().unwrap();
        pos.refusal(pit.parse::<Pit>().unwrap())
    }

    #[test]
    fn a_yote_ball_waits_for_the_reserve_unless_it_can_capture() {
        let fen = "5/5/2r2/5/5 11 12 r 1";
        assert_eq!(yote(fen, "c3"), Some(ReserveFirst));
        assert_eq!(yote(fen, "a1"), None, "an empty hole takes a placement");
        let jump = "5/2b2/2r2/5/5 11 11 r 2";
        assert_eq!(yote(jump, "c3"), None, "a capture needs no empty reserve");
        assert_eq!(yote(jump, "c4"), Some(NotYours));
    }

    #[test]
    fn with_the_reserve_empty_a_yote_move_starts_from_a_free_ball() {
        let fen = "rbb2/b4/b4/5/4r 0 8 r 0";
        assert_eq!(yote(fen, "a5"), Some(Blocked));
        assert_eq!(yote(fen, "e1"), None);
        assert_eq!(yote(fen, "c3"), Some(ChooseBall));
        assert_eq!(yote(fen, "b5"), Some(NotYours));
        assert_eq!(yote("5/5/2r2/5/5 11 12 r 120", "c3"), Some(GameOver));
    }

    #[test]
    fn an_nsolo_pit_is_refused_for_the_rule_it_breaks() {
        // RULES.md's example: South's legal moves are A4 A5 A7 B3.
        let fen = "1,1,1,1,1,1,1,1/0,2,0,0,0,0,0,0/1,0,3,0,1,0,1,0/0,1,0,2,3,2,4,1 s";
        for pit in ["A4", "A5", "A7", "B3"] {
            assert_eq!(nsolo(fen, pit), None, "{pit}");
        }
        assert_eq!(nsolo(fen, "A6"), Some(Endless));
        assert_eq!(nsolo(fen, "A2"), Some(SingleStone));
        assert_eq!(nsolo(fen, "A1"), Some(Empty));
        assert_eq!(nsolo(fen, "C2"), Some(NotYours));
        assert_eq!(nsolo(fen, "A9"), Some(NotYours), "no such pit on 4x8");
        let singles = "2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0 s";
        assert_eq!(nsolo(singles, "A1"), Some(NextOccupied));
        assert_eq!(nsolo(singles, "A2"), None);
        let bare = "2,2,2,2,2,2,2,2/0,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 s";
        assert_eq!(nsolo(bare, "A1"), Some(GameOver));
    }

    #[test]
    fn codes_are_snake_case_and_distinct() {
        let all = [
            GameOver,
            NotYours,
            ReserveFirst,
            Blocked,
            ChooseBall,
            SingleStone,
            NextOccupied,
            Empty,
            Endless,
        ];
        let codes: std::collections::HashSet<_> = all.iter().map(|r| r.code()).collect();
        assert_eq!(codes.len(), all.len());
        assert!(
            codes
                .iter()
                .all(|c| c.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
        );
    }
}
