//! Taking moves back. Against the machine or on one screen the seat holder
//! takes back at once; online the other side must agree, as with a draw: an
//! offer, then an accept or a decline. An accepted offer takes back the
//! asker's last move, and the opponent's reply too if there is one, so that
//! it is the asker's turn again. Either way the moves leave the store and
//! the clocks go back to what the remaining moves left them, as a reload
//! would rebuild them.

use super::ending::check_playing;
use super::owner::Owner;
use super::state::TakebackOffer;
use super::{Done, DrawAction, Game};
use crate::domain::Side;
use crate::error::AppError;
use crate::seats::Role;

/// The ply of `side`'s last move, where a take-back it asked for returns.
fn target_for(game: &Game, side: Side) -> Option<usize> {
    let back = if game.play.turn() == side { 2 } else { 1 };
    game.play.ply().checked_sub(back)
}

impl Owner {
    /// Against the machine: back to the human's previous turn; on one
    /// screen: one ply back. A game ended by the position can be taken back.
    pub async fn take_back(&mut self, game: &mut Game, role: Role) -> Result<Done, AppError> {
        if game.row.rated {
            return Err(AppError::RatedGame);
        }
        if role != Role::Owner {
            return Err(AppError::Forbidden(
                "online, a take-back is offered and answered: send an action",
            ));
        }
        if game.row.ended.is_some() {
            return Err(AppError::GameOver);
        }
        let back = match game.row.human {
            Some(human) if game.play.turn() == human => 2,
            _ => 1,
        };
        let target = game
            .play
            .ply()
            .checked_sub(back)
            .ok_or(AppError::NothingToTakeBack)?;
        self.rewind(game, target).await?;
        Ok(Done::Changed)
    }

    /// Online: a take-back offer, or the other side's answer to one. `ply`
    /// is the offer's ply as the answering client saw it: an answer to an
    /// offer that has since been replaced is stale.
    pub async fn take_back_offer(
        &mut self,
        game: &mut Game,
        role: Role,
        action: DrawAction,
        ply: Option<usize>,
    ) -> Result<Done, AppError> {
        let Role::Member { side, .. } = role else {
            return Err(AppError::Forbidden(
                "take-back offers are for games between people online",
            ));
        };
        if game.row.rated {
            return Err(AppError::RatedGame);
        }
        check_playing(game)?;
        if action == DrawAction::Offer {
            if game.takeback_offer.is_some_and(|o| o.by != side) {
                return Err(AppError::TakebackPending);
            }
            target_for(game, side).ok_or(AppError::NothingToTakeBack)?;
            game.takeback_offer = Some(TakebackOffer {
                by: side,
                ply: game.play.ply(),
            });
            game.takeback_declined = false;
            self.publish(game);
            return Ok(Done::Changed);
        }
        let offer = game
            .takeback_offer
            .filter(|o| o.by != side)
            .ok_or(AppError::NoTakebackOffer)?;
        if let Some(given) = ply.filter(|p| *p != offer.ply) {
            return Err(AppError::StaleTakeback {
                current: offer.ply,
                given,
            });
        }
        if action == DrawAction::Accept {
            let target = target_for(game, offer.by).ok_or(AppError::NothingToTakeBack)?;
            self.rewind(game, target).await?;
        } else {
            game.takeback_offer = None;
            game.takeback_declined = true;
            self.publish(game);
        }
        Ok(Done::Changed)
    }

    /// Takes the moves from `target` on back: stored, then applied and
    /// published; a failed write changes nothing.
    async fn rewind(&mut self, game: &mut Game, target: usize) -> Result<(), AppError> {
        let saved = (
            game.play.clone(),
            game.offers(),
            game.clocks,
            game.stamps.clone(),
        );
        while game.play.ply() > target {
            game.play.undo();
        }
        game.stamps.truncate(target);
        game.clocks = game.stamped_clocks();
        game.clear_offers();
        let summary = game.summary();
        let stored = self
            .ctx
            .store
            .take_back(&self.id, self.fence.as_ref(), target, &summary)
            .await;
        if let Err(e) = self.stored(stored) {
            let (play, offers, clocks, stamps) = saved;
            (game.play, game.clocks, game.stamps) = (play, clocks, stamps);
            game.set_offers(offers);
            return Err(e);
        }
        self.stop_machine(game);
        // A ponder on the position taken back thinks about nothing now.
        self.ctx.thinker.cancel_ponder(self.ponder_key());
        self.changed(game);
        self.ponder_if_due(game);
        Ok(())
    }
}
