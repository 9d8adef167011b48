//! Who is at the table: live connections, joining an online game, starting
//! it with teams not full, and the rematch (one per game, whoever asks first
//! creates it).

use std::sync::Arc;

use tokio::time::Instant;

use super::owner::Owner;
use super::{Done, Game, Games, Joined, Presence, Report, Subscription};
use crate::clock::now_ms;
use crate::domain::{Side, Status};
use crate::error::AppError;
use crate::names::display_name;
use crate::seats::{Key, Role, follow_on_seat, random_token, seat_hash};
use crate::store::{GameRow, Member, Summary};

impl Owner {
    pub fn subscribe(
        &mut self,
        game: &mut Game,
        key: Option<&Key>,
        counted: bool,
    ) -> Result<Subscription, AppError> {
        let role = match key.map(|k| (k, game.role_of(k))) {
            None => None,
            Some((_, Some(role))) => Some(role),
            // A signed-in spectator watches like a guest.
            Some((Key::Account(_), None)) => None,
            Some((Key::Seat(_), None)) => return Err(AppError::WrongSeat),
        };
        if !counted {
            return Ok(Subscription {
                presence: Presence::uncounted(role),
                now: Arc::clone(&self.current),
                updates: self.events.subscribe(),
            });
        }
        if let Some(Role::Member { side, position }) = role {
            *game.presence.entry((side, position)).or_default() += 1;
            self.publish(game);
        }
        // The guard is made here, before the answer leaves: an asker that
        // is gone by then drops it with the answer, and the count is undone.
        Ok(Subscription {
            presence: Presence::new(Games(Arc::clone(&self.ctx)), &self.id, role),
            now: Arc::clone(&self.current),
            updates: self.events.subscribe(),
        })
    }

    /// A node's count of its connections: published when it changes who
    /// shows as online.
    pub fn present(&mut self, game: &mut Game, from: String, report: Report) {
        let before = game.online_members();
        game.reported.update(from, report, Instant::now());
        if game.online_members() != before {
            self.publish(game);
        }
    }

    pub fn leave(&mut self, game: &mut Game, role: Role) {
        if let Role::Member { side, position } = role {
            if let Some(n) = game.presence.get_mut(&(side, position)) {
                *n = n.saturating_sub(1);
            }
            self.publish(game);
        }
    }

    /// Takes a free place on `side` (or the first side with one). The game
    /// starts when the last place is taken. A joiner whose seat holds a
    /// place already is given that place again.
    pub async fn join(
        &mut self,
        game: &mut Game,
        joiner: &super::Joiner,
        side: Option<Side>,
    ) -> Result<Joined, AppError> {
        if let Some(seat) = &joiner.seat
            && let Some(m) = game.members.iter().find(|m| m.seat_hash == seat_hash(seat))
        {
            return Ok(Joined {
                seat: seat.clone(),
                side: m.side,
                state: Arc::clone(&self.current),
            });
        }
        let name = display_name(&joiner.name)?;
        if !game.is_online() {
            return Err(AppError::BadRequest(
                "only online games can be joined".into(),
            ));
        }
        match game.status() {
            Status::Waiting => {}
            Status::Damaged => return Err(AppError::Damaged),
            _ => return Err(AppError::AlreadyStarted),
        }
        check_joiner(game, joiner)?;
        let size = usize::from(game.row.team_size);
        let free = |s: Side| game.team_len(s) < size;
        let side = match side {
            Some(side) if game.row.kind.side(side).is_none() => {
                return Err(AppError::BadRequest(format!("no side {side} in this game")));
            }
            Some(side) if free(side) => side,
            Some(_) => return Err(AppError::GameFull),
            None => game
                .row
                .kind
                .sides()
                .into_iter()
                .find(|s| free(*s))
                .ok_or(AppError::GameFull)?,
        };
        let seat = joiner.seat.clone().unwrap_or_else(|| random_token(16));
        let member = Member {
            side,
            position: game.team_len(side) as u8,
            name,
            seat_hash: seat_hash(&seat),
            account: joiner.account,
            bot: joiner.bot,
        };
        game.members.push(member.clone());
        let started = game.is_full().then(now_ms);
        let saved = game.row.started_at_ms;
        if let Some(at) = started {
            begin(game, at);
        }
        let summary = game.summary();
        let stored = self
            .ctx
            .store
            .join(&self.id, self.fence.as_ref(), &member, started, &summary)
            .await;
        if let Err(e) = self.stored(stored) {
            game.members.pop();
            game.row.started_at_ms = saved;
            return Err(e);
        }
        self.changed(game);
        Ok(Joined {
            seat,
            side,
            state: Arc::clone(&self.current),
        })
    }

    /// Starts an online game whose sides each have at least one member
    /// (teams need not be full: 3 may play 2).
    pub async fn start(&mut self, game: &mut Game) -> Result<Done, AppError> {
        if game.status() != Status::Waiting {
            return Err(AppError::AlreadyStarted);
        }
        if game.row.kind.sides().iter().any(|s| game.team_len(*s) == 0) {
            return Err(AppError::NotStarted);
        }
        let saved = game.row.started_at_ms;
        let at = now_ms();
        begin(game, at);
        let stored = self
            .ctx
            .store
            .start(&self.id, self.fence.as_ref(), at, &game.summary())
            .await;
        if let Err(e) = self.stored(stored) {
            game.row.started_at_ms = saved;
            return Err(e);
        }
        self.changed(game);
        Ok(Done::Changed)
    }

    /// The member's place in the rematch, sides swapped. The first request
    /// creates the rematch with its asker in it; later ones join it. A
    /// member who asks with their seat gets the seat that follows from it,
    /// the same each time: asking again (or twice at once) finds the place
    /// taken the first time, where a team's free places would otherwise
    /// seat them twice. One asking with their account has the account's
    /// one place in a game instead.
    pub async fn rematch(
        &mut self,
        game: &mut Game,
        key: Option<&Key>,
        role: Role,
    ) -> Result<Done, AppError> {
        let Role::Member { side, position } = role else {
            return Err(AppError::BadRequest(
                "rematches are for online games".into(),
            ));
        };
        if game.status() != Status::Finished {
            return Err(AppError::BadRequest("the game is not over".into()));
        }
        let (name, account, bot) = game
            .members
            .iter()
            .find(|m| m.side == side && m.position == position)
            .map(|m| (m.name.clone(), m.account, m.bot))
            .unwrap_or_default();
        let side = side.other();
        let seat_in = |id: &str| match key {
            Some(Key::Seat(seat)) => follow_on_seat(seat, id),
            _ => random_token(16),
        };
        if let Some(id) = &game.row.rematch_id {
            return Ok(Done::Rematch {
                id: id.clone(),
                seat: seat_in(id),
                created: false,
                side,
                name,
                account,
                bot,
            });
        }
        let id = random_token(6);
        let seat = seat_in(&id);
        let fresh = GameRow {
            id,
            seat_hash: seat_hash(&random_token(16)),
            ended: None,
            started_at_ms: None,
            rematch_id: None,
            damaged: None,
            // Both players agreed to play again: no seek to filter.
            rating_range: None,
            clock_credit_ms: 0,
            ..game.row.clone()
        };
        let member = Member {
            side,
            position: 0,
            name: name.clone(),
            seat_hash: seat_hash(&seat),
            account,
            bot,
        };
        let summary = Summary {
            status: Status::Waiting,
            ply: 0,
            result: None,
            machine_due: false,
            deadline_ms: None,
            clock_credit_ms: 0,
        };
        let stored = self
            .ctx
            .store
            .create_rematch(&self.id, self.fence.as_ref(), &fresh, &member, &summary)
            .await;
        self.stored(stored)?;
        game.row.rematch_id = Some(fresh.id.clone());
        self.publish(game);
        Ok(Done::Rematch {
            id: fresh.id,
            seat,
            created: true,
            side,
            name,
            account,
            bot,
        })
    }
}

/// A rated game takes signed-in players whose rating its seek accepts, and
/// no account plays twice in one game.
fn check_joiner(game: &Game, joiner: &super::Joiner) -> Result<(), AppError> {
    if let Some(account) = joiner.account
        && game.members.iter().any(|m| m.account == Some(account))
    {
        return Err(AppError::AlreadySeated);
    }
    if !game.row.rated {
        return Ok(());
    }
    if joiner.account.is_none() {
        return Err(AppError::SignInRequired);
    }
    if let Some((min, max)) = game.row.rating_range {
        let pool = crate::ratings::Pool::of(game.row.kind, game.row.size);
        let rating = joiner
            .ratings
            .iter()
            .find(|(p, _)| *p == pool)
            .map_or_else(|| crate::ratings::Rating::default().rating, |(_, r)| *r);
        let rating = rating.round() as i64;
        if rating < min || rating > max {
            return Err(AppError::RatingOutOfRange { rating, min, max });
        }
    }
    Ok(())
}

/// Marks the game started at `at`. The clocks wait for the first move, so
/// that a game nobody moves in is aborted, not lost on time.
fn begin(game: &mut Game, at: i64) {
    game.row.started_at_ms = Some(at);
}
