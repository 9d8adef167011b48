//! Ends decided by people or the clock: draw offers and answers (the
//! machine's decision is a search like any other), resignation, abort
//! before the first move, and the flag.

use palabre_ai::Thought;
use palabre_ai::player::{DrawOffer, accepts, draw_request};

use super::moves::timeout;
use super::owner::{DrawAsk, Owner};
use super::{Acted, Command, Done, DrawAction, Game, Reply};
use crate::clock::now_ms;
use crate::domain::{EndReason, Ended, Side, Status};
use crate::error::AppError;
use crate::seats::Role;
use crate::thinker::Lane;

/// The side a role speaks for in draw offers and resignations.
fn role_side(game: &Game, role: Role) -> Side {
    match role {
        Role::Member { side, .. } => side,
        Role::Owner => game.row.human.unwrap_or_else(|| game.play.turn()),
    }
}

/// Draws, take-back offers and resignations need a game in play.
pub(super) fn check_playing(game: &Game) -> Result<(), AppError> {
    match game.status() {
        Status::Playing => Ok(()),
        Status::Waiting => Err(AppError::NotStarted),
        Status::Finished => Err(AppError::GameOver),
        Status::Damaged => Err(AppError::Damaged),
    }
}

impl Owner {
    /// Stores and applies an end the position does not show.
    pub async fn end(&mut self, game: &mut Game, ended: Ended) -> Result<(), AppError> {
        let saved = (game.row.ended, game.clocks, game.offers());
        game.row.ended = Some(ended);
        game.draw_offer = None;
        game.takeback_offer = None;
        if let (EndReason::Timeout, Some(winner), Some(c)) =
            (ended.reason, ended.winner, game.clocks.as_mut())
        {
            c.left[winner.other().index()] = 0;
        }
        let summary = game.summary();
        let stored = self
            .ctx
            .store
            .end(&self.id, self.fence.as_ref(), &ended, &summary)
            .await;
        if let Err(e) = self.stored(stored) {
            let offers;
            (game.row.ended, game.clocks, offers) = saved;
            game.set_offers(offers);
            return Err(e);
        }
        self.stop_machine(game);
        if let Some(ask) = self.draw_ask.take() {
            ask.stop.store(true, std::sync::atomic::Ordering::SeqCst);
            let _ = ask.reply.send(Err(AppError::GameOver));
        }
        self.changed(game);
        Ok(())
    }

    /// Offers and answers between people (on one screen anyone answers;
    /// online, only the other side).
    pub async fn draw(
        &mut self,
        game: &mut Game,
        role: Role,
        action: DrawAction,
    ) -> Result<Done, AppError> {
        check_playing(game)?;
        let side = role_side(game, role);
        let answerable = game
            .draw_offer
            .is_some_and(|offer| !game.is_online() || offer != side);
        match (action, answerable) {
            // Online, an offer made while the other side's waits agrees to
            // it: both sides want the draw.
            (DrawAction::Offer, true) if game.is_online() => {
                self.end(game, Ended::draw(EndReason::Agreement)).await?;
            }
            (DrawAction::Offer, _) => {
                game.draw_offer = Some(if game.is_online() {
                    side
                } else {
                    game.play.turn()
                });
                game.draw_declined = false;
                self.publish(game);
            }
            (DrawAction::Accept, true) => {
                self.end(game, Ended::draw(EndReason::Agreement)).await?;
            }
            (DrawAction::Decline, true) => {
                game.draw_offer = None;
                game.draw_declined = true;
                self.publish(game);
            }
            (_, false) => return Err(AppError::NoDrawOffer),
        }
        Ok(Done::Changed)
    }

    /// An offer to the machine: it decides by a search; the answer waits
    /// for it, and anything that ends the game meanwhile wins.
    pub fn ask_machine_for_draw(&mut self, game: &mut Game, role: Role, reply: Reply<Acted>) {
        let refused = match check_playing(game) {
            Err(e) => Some(e),
            Ok(()) if role != Role::Owner => Some(AppError::WrongSeat),
            Ok(()) if self.draw_ask.is_some() => Some(AppError::BadRequest(
                "a draw offer is already being considered".into(),
            )),
            Ok(()) => None,
        };
        if let Some(e) = refused {
            let _ = reply.send(Err(e));
            return;
        }
        let Some(me) = self.me.upgrade() else { return };
        let (position, history) = game.play.for_ai();
        let token = self.token();
        // A dead draw by the tables is a draw the machine can see.
        let request = palabre_ai::Request {
            tables: self.ctx.thinker.tables_for(None),
            ..draw_request(&position, &history)
        };
        let submitted = self
            .ctx
            .thinker
            .submit(Lane::Quick, request, None, move |thought| {
                let _ = me.blocking_send(Command::DrawDecided { token, thought });
            });
        match submitted {
            Ok(stop) => {
                self.draw_ask = Some(DrawAsk {
                    token,
                    fingerprint: game.play.fingerprint(),
                    stop,
                    reply,
                });
            }
            Err(e) => drop(reply.send(Err(e))),
        }
    }

    /// The machine's decision on a draw offer.
    pub async fn draw_decided(&mut self, game: &mut Game, token: u64, thought: Thought) {
        let Some(ask) = self.draw_ask.take_if(|a| a.token == token) else {
            return;
        };
        if let Err(e) = check_playing(game) {
            let _ = ask.reply.send(Err(e));
            return;
        }
        let unchanged = ask.fingerprint == game.play.fingerprint();
        let offer = DrawOffer {
            machine_to_move: game.machine_side() == Some(game.play.turn()),
            ply: game.play.ply(),
        };
        let answer = if unchanged && accepts(&thought, &self.ctx.thinker.params, offer) {
            self.end(game, Ended::draw(EndReason::Agreement)).await
        } else {
            game.draw_declined = true;
            self.publish(game);
            Ok(())
        };
        let _ = ask.reply.send(answer.map(|()| self.acted(Done::Changed)));
    }

    pub async fn resign(
        &mut self,
        game: &mut Game,
        role: Role,
        side: Option<Side>,
    ) -> Result<Done, AppError> {
        check_playing(game)?;
        let loser = match (role, side) {
            (Role::Owner, Some(side)) if game.row.human.is_none() => game
                .row
                .kind
                .side(side)
                .ok_or_else(|| AppError::BadRequest(format!("no side {side} in this game")))?,
            _ => role_side(game, role),
        };
        self.end(game, Ended::win(loser.other(), EndReason::Resignation))
            .await?;
        Ok(Done::Changed)
    }

    /// Ends a game with no result before its first move.
    pub async fn abort(&mut self, game: &mut Game) -> Result<Done, AppError> {
        match game.status() {
            Status::Finished => return Err(AppError::GameOver),
            Status::Damaged => return Err(AppError::Damaged),
            _ if game.play.ply() > 0 => return Err(AppError::AlreadyStarted),
            _ => {}
        }
        self.end(game, Ended::draw(EndReason::Aborted)).await?;
        Ok(Done::Changed)
    }

    /// Ends the game on time if the running clock has fallen. A failed
    /// write is logged and returned; the owner then stops (see
    /// [`Owner::stored`]), so its timer cannot spin on a failing store.
    pub async fn flag(&mut self, game: &mut Game) -> Result<(), AppError> {
        if self.paused_since.is_some() {
            // Cut off from the bus, nobody could move: the clock stands
            // still until the outage is given back.
            return Err(AppError::Unavailable(crate::error::UNAVAILABLE_RETRY_S));
        }
        if !game.flag_fallen(now_ms()) {
            return Ok(());
        }
        let ended = self.end(game, timeout(game)).await;
        if let Err(e) = &ended {
            tracing::error!("game {}: ending on time: {}", self.id, e.public_message());
        }
        ended
    }
}
