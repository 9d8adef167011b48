//! A game in memory, as its owner holds it: the stored facts, the record
//! replayed from the store, and what is happening around it (a draw or
//! take-back offer, who is connected). Only pure questions are answered here; changes are
//! made by the owner.

use std::collections::HashMap;

use serde::Serialize;

use super::presence::Reports;
use crate::clock::{Clocks, TimeControl, now_ms};
use crate::domain::{EndReason, Ended, Opponent, Side, Status};
use crate::play::Play;
use crate::seats::{Key, Role, seat_hash};
use crate::store::{GameRow, Member, StoredMove, Summary};

/// A game being played (or finished, or damaged).
#[derive(Debug)]
pub struct Game {
    pub row: GameRow,
    pub play: Play,
    /// The side that offered a draw, until answered.
    pub draw_offer: Option<Side>,
    /// The last offer was declined.
    pub draw_declined: bool,
    /// Online: a take-back asked for, until answered.
    pub takeback_offer: Option<TakebackOffer>,
    /// The last take-back offer was declined.
    pub takeback_declined: bool,
    /// The machine is searching for its move.
    pub thinking: bool,
    /// Online games: the members of each side, in the order they joined.
    pub members: Vec<Member>,
    /// Open live connections per member, counted here (a single node).
    pub presence: HashMap<(Side, u8), usize>,
    /// In a cluster, each node's count of its own connections.
    pub reported: Reports,
    pub clocks: Option<Clocks>,
    /// When each move was played and its mover's clock after it, as stored:
    /// what the clocks are rebuilt from after a take-back.
    pub stamps: Vec<Stamp>,
}

/// Draw offer, draw declined, take-back offer, take-back declined.
pub type Offers = (Option<Side>, bool, Option<TakebackOffer>, bool);

/// A take-back asked for by `by` when the game was at `ply`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct TakebackOffer {
    pub by: Side,
    pub ply: usize,
}

/// When a move was played and the time its mover had left after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub played_at_ms: Option<i64>,
    pub clock_ms: Option<i64>,
}

impl From<&StoredMove> for Stamp {
    fn from(m: &StoredMove) -> Stamp {
        Stamp {
            played_at_ms: m.played_at_ms,
            clock_ms: m.clock_ms,
        }
    }
}

/// Rebuilds the clocks from the moves' stamps: none runs before the first
/// move, then the side to move's runs from the last move, later by the
/// `credit` it was given since.
fn restore_clocks(row: &GameRow, moves: &[Stamp], credit: i64) -> Option<Clocks> {
    let mut clocks = Clocks::new(row.time_control)?;
    for (ply, m) in moves.iter().enumerate() {
        if let (Some(at), Some(left)) = (m.played_at_ms, m.clock_ms) {
            clocks.left[ply % 2] = left;
            clocks.since = Some(at);
            if let TimeControl::Correspondence { per_move_ms } = row.time_control {
                clocks.left[1 - ply % 2] = per_move_ms;
            }
        }
    }
    // The stored moves do not show the fall itself: a side that lost on
    // time had nothing left.
    if let Some(Ended {
        reason: EndReason::Timeout,
        winner: Some(winner),
    }) = row.ended
    {
        clocks.left[winner.other().index()] = 0;
    }
    clocks.credit(credit);
    Some(clocks)
}

impl Game {
    /// Rebuilds a game from its stored facts, moves and members. A game
    /// whose moves do not replay comes back with the moves that do, and the
    /// reason in `row.damaged`.
    pub fn replay(mut row: GameRow, moves: &[StoredMove], members: Vec<Member>) -> Game {
        // A gap in the plies is a damaged store too: replay up to it.
        let whole = moves
            .iter()
            .enumerate()
            .take_while(|(i, m)| m.ply == *i)
            .count();
        if whole < moves.len() {
            row.damaged
                .get_or_insert(format!("no stored move at ply {whole}"));
        }
        let notation: Vec<&str> = moves[..whole].iter().map(|m| m.notation.as_str()).collect();
        let play = match Play::replay(row.kind, &row.start_fen, &notation) {
            Ok(play) => play,
            Err((partial, why)) => {
                row.damaged.get_or_insert(why);
                partial.map(|p| *p).unwrap_or_else(|| {
                    let fen = match row.kind {
                        crate::domain::GameKind::Yote => {
                            palabre_rules::yote::Position::START.to_string()
                        }
                        crate::domain::GameKind::Nsolo => palabre_rules::nsolo::Position::start(8)
                            .map(|p| p.to_string())
                            .unwrap_or_default(),
                    };
                    Play::start(row.kind, &fen).expect("a start position replays")
                })
            }
        };
        let stamps: Vec<Stamp> = moves[..play.ply()].iter().map(Stamp::from).collect();
        let clocks = restore_clocks(&row, &stamps, row.clock_credit_ms);
        Game {
            row,
            play,
            draw_offer: None,
            draw_declined: false,
            takeback_offer: None,
            takeback_declined: false,
            thinking: false,
            members,
            presence: HashMap::new(),
            reported: Reports::default(),
            clocks,
            stamps,
        }
    }

    /// The pending offers and their answers, to put back if a write fails.
    pub fn offers(&self) -> Offers {
        (
            self.draw_offer,
            self.draw_declined,
            self.takeback_offer,
            self.takeback_declined,
        )
    }

    pub fn set_offers(&mut self, offers: Offers) {
        (
            self.draw_offer,
            self.draw_declined,
            self.takeback_offer,
            self.takeback_declined,
        ) = offers;
    }

    /// A move or a take-back answers every offer: it was about another
    /// position.
    pub fn clear_offers(&mut self) {
        self.set_offers((None, false, None, false));
    }

    /// The clocks as the stored moves left them, as a reload would rebuild
    /// them (after a take-back: the time since the last remaining move is
    /// the side to move's; a credit given since the move taken back was for
    /// another position's clock, and goes with it).
    pub fn stamped_clocks(&self) -> Option<Clocks> {
        restore_clocks(&self.row, &self.stamps, 0)
    }

    pub fn is_online(&self) -> bool {
        self.row.opponent == Opponent::Online
    }

    /// Members of `side`, in the order they joined.
    pub fn team(&self, side: Side) -> impl Iterator<Item = &Member> {
        self.members.iter().filter(move |m| m.side == side)
    }

    pub fn team_len(&self, side: Side) -> usize {
        self.team(side).count()
    }

    /// Whether every place of an online game is taken.
    pub fn is_full(&self) -> bool {
        self.row
            .kind
            .sides()
            .iter()
            .all(|s| self.team_len(*s) >= usize::from(self.row.team_size))
    }

    pub fn status(&self) -> Status {
        if self.row.damaged.is_some() {
            Status::Damaged
        } else if self.result().is_some() {
            Status::Finished
        } else if self.is_online() && self.row.started_at_ms.is_none() {
            Status::Waiting
        } else {
            Status::Playing
        }
    }

    /// The member whose hand is next: the side to move's k-th move is
    /// played by its member k mod n (sides alternate, so k = ply / 2).
    pub fn next_hand(&self) -> Option<&Member> {
        let team: Vec<&Member> = self.team(self.play.turn()).collect();
        (!team.is_empty()).then(|| team[(self.play.ply() / 2) % team.len()])
    }

    /// Whether member `position` of `side` has a live connection open, here
    /// or (in a cluster) on a node that reported it.
    pub fn online(&self, side: Side, position: u8) -> bool {
        self.presence.get(&(side, position)).is_some_and(|n| *n > 0)
            || self.reported.holds(Role::Member { side, position })
    }

    /// Which members show as online, in the order they joined.
    pub fn online_members(&self) -> Vec<bool> {
        self.members
            .iter()
            .map(|m| self.online(m.side, m.position))
            .collect()
    }

    /// The side whose clock runs, if one does: none before the first move.
    pub fn running_clock(&self) -> Option<Side> {
        let started = self.clocks.is_some_and(|c| c.since.is_some());
        (started && self.status() == Status::Playing).then(|| self.play.turn())
    }

    /// When the running clock falls, in ms since the epoch.
    pub fn deadline_ms(&self) -> Option<i64> {
        let side = self.running_clock()?;
        self.clocks?.deadline(side.index())
    }

    /// Whether the running clock has fallen by `now`.
    pub fn flag_fallen(&self, now: i64) -> bool {
        self.deadline_ms().is_some_and(|d| d <= now)
    }

    /// The end of the game, whether decided by the people or the position.
    pub fn result(&self) -> Option<Ended> {
        self.row.ended.or_else(|| self.play.outcome())
    }

    /// The machine's side, if it plays in this game.
    pub fn machine_side(&self) -> Option<Side> {
        match self.row.opponent {
            Opponent::Machine => self.row.human.map(Side::other),
            _ => None,
        }
    }

    /// Whether the machine should move now.
    pub fn machine_to_move(&self) -> bool {
        self.status() == Status::Playing && self.machine_side() == Some(self.play.turn())
    }

    /// The role `key` gives in this game, if any: a seat's, or a signed-in
    /// account's whose seat it is.
    pub fn role_of(&self, key: &Key) -> Option<Role> {
        let (hash, account) = match key {
            Key::Seat(seat) => (Some(seat_hash(seat.trim())), None),
            Key::Account(id) => (None, Some(*id)),
        };
        if self.is_online() {
            self.members
                .iter()
                .find(|m| match (&hash, account) {
                    (Some(hash), _) => m.seat_hash == *hash,
                    (None, account) => account.is_some() && m.account == account,
                })
                .map(|m| Role::Member {
                    side: m.side,
                    position: m.position,
                })
        } else {
            let mine = match (&hash, account) {
                (Some(hash), _) => *hash == self.row.seat_hash,
                (None, account) => account.is_some() && self.row.account == account,
            };
            mine.then_some(Role::Owner)
        }
    }

    /// Forgets a deleted account: its places keep the game, under the name
    /// a deleted account leaves.
    pub fn forget_account(&mut self, account: i64) {
        for m in &mut self.members {
            if m.account == Some(account) {
                m.account = None;
                m.bot = false;
                m.name = crate::store::DELETED_NAME.to_owned();
            }
        }
        if self.row.account == Some(account) {
            self.row.account = None;
        }
    }

    /// What the games row should say now.
    pub fn summary(&self) -> Summary {
        Summary {
            status: self.status(),
            ply: self.play.ply(),
            result: self.result(),
            machine_due: self.machine_to_move(),
            deadline_ms: self.deadline_ms(),
            clock_credit_ms: self.clocks.map_or(0, |c| c.credit_ms),
        }
    }

    /// Milliseconds left on each clock now (never below zero).
    pub fn clocks_now(&self) -> Option<[i64; 2]> {
        let c = self.clocks?;
        let running = self.running_clock().map(Side::index);
        let now = now_ms();
        Some([0, 1].map(|i| c.left_at(i, running, now).max(0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed_out_game(ended: Option<Ended>) -> Game {
        let row = GameRow {
            level: palabre_ai::Level::Confirme,
            ended,
            time_control: "5+3".parse().unwrap(),
            ..GameRow::yote_for_test("aaaaaaaaaaaa", Opponent::Online)
        };
        let first = StoredMove {
            ply: 0,
            notation: "c3".into(),
            played_at_ms: Some(2_000),
            clock_ms: Some(302_000),
        };
        Game::replay(row, &[first], Vec::new())
    }

    #[test]
    fn a_reload_gives_back_the_credit_of_the_running_clock() {
        let row = GameRow {
            clock_credit_ms: 7_000,
            ..timed_out_game(None).row
        };
        let first = StoredMove {
            ply: 0,
            notation: "c3".into(),
            played_at_ms: Some(2_000),
            clock_ms: Some(302_000),
        };
        let game = Game::replay(row, &[first], Vec::new());
        assert_eq!(game.deadline_ms(), Some(2_000 + 7_000 + 300_000));
        assert_eq!(game.summary().clock_credit_ms, 7_000);
        assert_eq!(
            game.stamped_clocks().unwrap().since,
            Some(2_000),
            "not after a take-back"
        );
    }

    #[test]
    fn a_clock_that_fell_shows_nothing_left_after_a_reload() {
        let flagged = timed_out_game(Some(Ended::win(Side::Red, EndReason::Timeout)));
        assert_eq!(flagged.clocks_now(), Some([302_000, 0]));
        let resigned = timed_out_game(Some(Ended::win(Side::Red, EndReason::Resignation)));
        assert_eq!(resigned.clocks_now(), Some([302_000, 300_000]));
    }
}
