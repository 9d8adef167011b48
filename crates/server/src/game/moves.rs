//! Moves: a player's and the machine's. `commit_move` is the one place
//! where a move enters a game.

use palabre_ai::{Limits, Request, SearchLimit, Thought};

use super::owner::{MACHINE_RETRY, Owner, Search};
use super::state::Stamp;
use super::{Acted, DrawAction};
use super::{Action, Command, Done, Game, Reply};
use crate::clock::{Clocks, Flagged, now_ms};
use crate::domain::{EndReason, Ended, Status};
use crate::error::AppError;
use crate::play::MoveError;
use crate::seats::{Key, Role};
use crate::thinker::Lane;

/// A hint searches this long at most.
const HINT_MS: u64 = 1000;

impl From<MoveError> for AppError {
    fn from(e: MoveError) -> AppError {
        match e {
            MoveError::Malformed(m) => AppError::MalformedMove(m),
            MoveError::Illegal(m) => AppError::IllegalMove(m),
        }
    }
}

/// Checks that `role` may move now.
fn check_turn(game: &Game, role: Role) -> Result<(), AppError> {
    match game.status() {
        Status::Damaged => return Err(AppError::Damaged),
        Status::Finished => return Err(AppError::GameOver),
        Status::Waiting => return Err(AppError::NotStarted),
        Status::Playing => {}
    }
    if game.machine_to_move() {
        return Err(AppError::NotYourTurn);
    }
    match role {
        Role::Owner if !game.is_online() => Ok(()),
        Role::Member { side, position } if game.is_online() => match game.next_hand() {
            Some(m) if m.side == side && m.position == position => Ok(()),
            Some(m) => Err(AppError::NotYourHand(m.name.clone())),
            None => Err(AppError::NotYourTurn),
        },
        _ => Err(AppError::WrongSeat),
    }
}

/// Whether `notation` at `ply` repeats the last move, sent again by its side.
fn is_duplicate(game: &Game, role: Role, notation: &str, ply: usize) -> bool {
    // `ply` is the client's: at the top of its range, `ply + 1` would overflow.
    if game.play.ply().checked_sub(1) != Some(ply)
        || game.play.last_move().as_deref() != Some(notation)
    {
        return false;
    }
    let mover = game.row.kind.sides()[ply % 2];
    match role {
        Role::Owner => game.machine_side() != Some(mover),
        Role::Member { side, .. } => side == mover,
    }
}

impl Owner {
    /// Carries out a player's action and answers it.
    pub async fn act(
        &mut self,
        game: &mut Game,
        key: Option<&Key>,
        action: Action,
        reply: Reply<Acted>,
    ) {
        let role = match key.map(|k| game.role_of(k)) {
            None => Err(AppError::MissingSeat),
            Some(None) => Err(AppError::WrongSeat),
            Some(Some(role)) => Ok(role),
        };
        let done = match (role, action) {
            (Err(e), _) => Err(e),
            (Ok(_), _) if game.row.damaged.is_some() => Err(AppError::Damaged),
            (Ok(role), Action::Draw(DrawAction::Offer)) if game.machine_side().is_some() => {
                return self.ask_machine_for_draw(game, role, reply);
            }
            (Ok(role), Action::Move { notation, ply }) => {
                self.play(game, role, &notation, ply).await
            }
            (Ok(role), Action::Draw(a)) => self.draw(game, role, a).await,
            (Ok(role), Action::Resign { side }) => self.resign(game, role, side).await,
            (Ok(_), Action::Abort) => self.abort(game).await,
            (Ok(_), Action::Start) => self.start(game).await,
            (Ok(role), Action::TakeBack) => self.take_back(game, role).await,
            (Ok(role), Action::TakeBackOffer { action, ply }) => {
                self.take_back_offer(game, role, action, ply).await
            }
            (Ok(role), Action::Rematch) => self.rematch(game, key, role).await,
            (Ok(role), Action::Hint { level }) => hint(game, role, level),
        };
        self.settle_ratings(game).await;
        let _ = reply.send(done.map(|d| self.acted(d)));
    }

    async fn play(
        &mut self,
        game: &mut Game,
        role: Role,
        notation: &str,
        ply: usize,
    ) -> Result<Done, AppError> {
        if is_duplicate(game, role, notation, ply) {
            return Ok(Done::Duplicate);
        }
        // A move for a ply already played is stale whoever sent it: the
        // loser of two moves racing for one ply hears `stale_ply`.
        let current = game.play.ply();
        if ply != current && game.status() == Status::Playing {
            return Err(AppError::StalePly {
                current,
                given: ply,
            });
        }
        check_turn(game, role)?;
        game.play.check(notation)?;
        if game.machine_side().is_some()
            && !self.ctx.thinker.has_room(Lane::for_level(game.row.level))
        {
            return Err(AppError::Busy(crate::thinker::RETRY_AFTER_S));
        }
        let mover = game.play.turn().index();
        let mut clocks = game.clocks;
        let left = match clocks.as_mut().map(|c| c.on_move(mover, now_ms())) {
            Some(Err(Flagged)) => {
                // The client hears `game_over` only if the end was stored.
                self.flag(game).await?;
                return Err(AppError::GameOver);
            }
            Some(Ok(left)) => Some(left),
            None => None,
        };
        self.commit_move(game, notation, left, clocks).await?;
        Ok(Done::Moved)
    }

    /// The one way a move enters a game: applied (a refused move changes
    /// nothing), stored with the game's summary in one transaction, undone
    /// if storing fails, then published.
    pub async fn commit_move(
        &mut self,
        game: &mut Game,
        notation: &str,
        clock_ms: Option<i64>,
        clocks: Option<Clocks>,
    ) -> Result<(), AppError> {
        let ply = game.play.ply();
        game.play.play(notation)?;
        let before = game.offers();
        let clocks_before = game.clocks;
        game.clocks = clocks;
        game.clear_offers();
        game.stamps.push(Stamp {
            played_at_ms: Some(clocks.and_then(|c| c.since).unwrap_or_else(now_ms)),
            clock_ms,
        });
        let summary = game.summary();
        let stored = self
            .ctx
            .store
            .append_move(
                &self.id,
                self.fence.as_ref(),
                ply,
                notation,
                clock_ms,
                &summary,
            )
            .await;
        if let Err(e) = self.stored(stored) {
            game.play.undo();
            game.stamps.pop();
            game.clocks = clocks_before;
            game.set_offers(before);
            return Err(e);
        }
        self.stop_machine(game);
        self.changed(game);
        Ok(())
    }

    /// Queues the machine's search if it is to move and not searching yet.
    pub fn machine_if_due(&mut self, game: &mut Game) {
        if !game.machine_to_move() || self.machine.is_some() || self.machine_retry.is_some() {
            return;
        }
        let Some(me) = self.me.upgrade() else { return };
        let fingerprint = game.play.fingerprint();
        let seed = self.id.bytes().fold(fingerprint.0 as u64, |h, b| {
            h.wrapping_mul(31).wrapping_add(u64::from(b))
        });
        let request = self.machine_request(game, seed);
        let token = self.token();
        let lane = Lane::for_level(game.row.level);
        let key = Some(self.ponder_key());
        let submitted = self.ctx.thinker.submit(lane, request, key, move |thought| {
            let _ = me.blocking_send(Command::MachineDone { token, thought });
        });
        game.thinking = true;
        match submitted {
            Ok(stop) => {
                self.machine = Some(Search {
                    token,
                    fingerprint,
                    stop,
                });
            }
            Err(_) => {
                self.machine_retry = Some(tokio::time::Instant::now() + MACHINE_RETRY);
            }
        }
    }

    /// The machine's answer: played if it answers the current search.
    pub async fn machine_done(&mut self, game: &mut Game, token: u64, thought: Thought) {
        let current = self
            .machine
            .as_ref()
            .is_some_and(|s| s.token == token && s.fingerprint == game.play.fingerprint());
        if !current {
            return;
        }
        self.machine = None;
        game.thinking = false;
        let Some(m) = thought.best else {
            return self.changed(game);
        };
        let notation = m.to_string();
        if let Err(e) = self.commit_move(game, &notation, None, game.clocks).await {
            // After a failed write the owner stops before this retry (the
            // move may be stored, and a retry from this memory would fail
            // for good); the next command's owner goes on from the store.
            tracing::error!(
                "game {}: the machine's move {notation} was not played: {}",
                self.id,
                e.public_message()
            );
            self.machine_retry = Some(tokio::time::Instant::now() + MACHINE_RETRY * 4);
            self.publish(game);
            return;
        }
        self.ponder_if_due(game);
    }

    /// After the machine's move, thinks on the person's time while they
    /// choose theirs (Expert only; the thinker decides whether a thread is
    /// free for it).
    pub fn ponder_if_due(&self, game: &Game) {
        let persons_turn = game.machine_side() == Some(game.play.turn().other());
        if game.status() != Status::Playing || !persons_turn {
            return;
        }
        let request = self.machine_request(game, 0);
        self.ctx.thinker.ponder(self.ponder_key(), request);
    }

    /// A search at the game's level in its current position.
    fn machine_request(&self, game: &Game, seed: u64) -> Request {
        let (position, history) = game.play.for_ai();
        Request {
            position,
            history,
            level: game.row.level,
            limits: Limits::new(),
            seed,
            tables: self.ctx.thinker.tables_for(Some(game.row.level)),
            ponder: Default::default(),
        }
    }
}

/// The search for a hint: for the person to move in a game against the
/// machine or on one screen, never in a game between people online.
fn hint(game: &Game, role: Role, level: palabre_ai::Level) -> Result<Done, AppError> {
    if game.row.rated {
        return Err(AppError::RatedGame);
    }
    if game.is_online() || role != Role::Owner {
        return Err(AppError::Forbidden(
            "hints are for games against the machine or on one screen",
        ));
    }
    check_turn(game, role)?;
    let (position, history) = game.play.for_ai();
    let limits = Limits::new().with(SearchLimit::MoveTime(std::time::Duration::from_millis(
        HINT_MS,
    )));
    Ok(Done::Hint(Box::new(Request {
        position,
        history,
        level,
        limits,
        seed: 0,
        tables: None, // the thinker's, added where the hint is searched
        ponder: Default::default(),
    })))
}

/// An end by the clock: the side to move lost on time.
pub fn timeout(game: &Game) -> Ended {
    Ended::win(game.play.turn().other(), EndReason::Timeout)
}
