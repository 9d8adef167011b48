//! What players do to a game, whatever carries it (HTTP or the live socket):
//! move, offer or answer a draw, resign, abort, join, ask for a rematch.
//! Each checks everything first, stores the change, then applies and
//! broadcasts it; a refusal changes nothing.

use std::sync::atomic::Ordering;

use palabre_ai::player::accepts_draw;

use crate::clock::{Flagged, now_ms};
use crate::error::AppError;
use crate::seats::{Role, random_token, seat_hash};
use crate::session::{Ended, MoveError, Session, sides};
use crate::state::{AppState, SharedSession};
use crate::store::{GameRow, Member};
use crate::view;

/// Broadcasts the session's state to its event streams and sockets.
pub fn publish(s: &Session) {
    if let Ok(json) = serde_json::to_string(&view::state(s)) {
        let _ = s.events.send(json.into());
    }
}

/// Whether a move was new or a repeat of the last one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Played {
    New,
    Duplicate,
}

fn other_side(game: &str, side: &str) -> String {
    let [a, b] = sides(game);
    (if side == a { b } else { a }).to_owned()
}

/// Stores and applies an end decided by the players or the clock.
pub async fn end_game(app: &AppState, s: &mut Session, ended: Ended) -> Result<(), AppError> {
    app.store
        .set_ended(&s.row.id, ended.winner.as_deref(), &ended.reason)
        .await?;
    app.store
        .set_result(&s.row.id, Some((ended.winner.as_deref(), &ended.reason)))
        .await?;
    s.ended = Some(ended);
    s.draw_offer = None;
    if let Some(stop) = s.stop.take() {
        stop.store(true, Ordering::SeqCst);
    }
    s.thinking = false;
    publish(s);
    Ok(())
}

/// Keeps the records up to date after a move that may have ended the game.
pub async fn record_result(app: &AppState, s: &Session) -> Result<(), AppError> {
    if let Some(r) = s.play.outcome() {
        app.store
            .set_result(&s.row.id, Some((r.winner.as_deref(), &r.reason)))
            .await?;
    }
    Ok(())
}

/// Checks that `role` may move now, for the side to move.
fn check_turn(s: &Session, role: &Role) -> Result<(), AppError> {
    if s.machine_to_move() {
        return Err(AppError::NotYourTurn);
    }
    match role {
        Role::Owner if !s.is_online() => Ok(()),
        Role::Member { side, position } if s.is_online() => {
            if s.status() == "waiting" {
                return Err(AppError::NotStarted);
            }
            match s.next_hand() {
                Some(m) if m.side == *side && m.position == *position => Ok(()),
                Some(m) => Err(AppError::NotYourHand(m.name.clone())),
                None => Err(AppError::NotYourHand(String::new())),
            }
        }
        _ => Err(AppError::WrongSeat),
    }
}

/// Whether `notation` at `ply` repeats the last move, sent again by its side.
fn is_duplicate(s: &Session, role: &Role, notation: &str, ply: usize) -> bool {
    let moves = s.play.moves();
    let current = s.play.ply();
    if ply + 1 != current || moves.last().map(String::as_str) != Some(notation) {
        return false;
    }
    let mover = sides(&s.row.game)[ply % 2];
    match role {
        Role::Owner => true,
        Role::Member { side, .. } => side == mover,
    }
}

/// Plays a move for `role`; the machine's reply, if due, follows by itself.
pub async fn play(
    app: &AppState,
    session: &SharedSession,
    role: &Role,
    notation: &str,
    ply: usize,
) -> Result<Played, AppError> {
    {
        let mut s = session.lock().await;
        if is_duplicate(&s, role, notation, ply) {
            return Ok(Played::Duplicate);
        }
        if s.result().is_some() {
            return Err(AppError::GameOver);
        }
        check_turn(&s, role)?;
        let current = s.play.ply();
        if ply != current {
            return Err(AppError::StalePly {
                current,
                given: ply,
            });
        }
        s.play.check(notation).map_err(|e| match e {
            MoveError::Malformed(m) => AppError::MalformedMove(m),
            MoveError::Illegal(m) => AppError::IllegalMove(m),
        })?;
        let mover = s.side_index(&s.play.turn());
        let clock = match s.clocks.as_mut().map(|c| c.on_move(mover, now_ms())) {
            Some(Err(Flagged)) => {
                let winner = other_side(&s.row.game, &s.play.turn());
                end_game(
                    app,
                    &mut s,
                    Ended {
                        winner: Some(winner),
                        reason: "timeout".into(),
                    },
                )
                .await?;
                return Err(AppError::GameOver);
            }
            Some(Ok(left)) => Some(left),
            None => None,
        };
        let before = s.clocks;
        if let Err(e) = app
            .store
            .append_move(&s.row.id, current, notation, clock)
            .await
        {
            if let (Some(c), Some(b)) = (s.clocks.as_mut(), before) {
                *c = b;
            }
            return Err(e.into());
        }
        s.play
            .play(notation)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("{e:?}")))?;
        s.draw_offer = None;
        s.draw_declined = false;
        record_result(app, &s).await?;
        publish(&s);
    }
    crate::timer::watch_flag(app, session).await;
    crate::machine::reply_if_due(app, session).await;
    Ok(Played::New)
}

/// The side a role speaks for in draw offers and resignations.
fn role_side(s: &Session, role: &Role) -> String {
    match role {
        Role::Member { side, .. } => side.clone(),
        Role::Owner => s.row.human.clone().unwrap_or_else(|| s.play.turn()),
    }
}

pub async fn draw(
    app: &AppState,
    session: &SharedSession,
    role: &Role,
    action: &str,
) -> Result<(), AppError> {
    let agreed = Ended {
        winner: None,
        reason: "agreement".into(),
    };
    let against_machine = {
        let s = session.lock().await;
        if s.result().is_some() {
            return Err(AppError::GameOver);
        }
        s.row.human.is_some()
    };
    if against_machine && action == "offer" {
        let (position, history) = session.lock().await.play.for_ai();
        let params = (*app.params).clone();
        let accepted =
            tokio::task::spawn_blocking(move || accepts_draw(&position, &history, &params))
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
        let mut s = session.lock().await;
        if accepted {
            return end_game(app, &mut s, agreed).await;
        }
        s.draw_declined = true;
        publish(&s);
        return Ok(());
    }
    let mut s = session.lock().await;
    let side = role_side(&s, role);
    // On one screen anyone answers; online, only the other side.
    let answerable = s
        .draw_offer
        .as_ref()
        .is_some_and(|offer| !s.is_online() || *offer != side);
    match (action, answerable) {
        ("offer", _) => {
            s.draw_offer = Some(if s.is_online() { side } else { s.play.turn() });
            s.draw_declined = false;
            publish(&s);
        }
        ("accept", true) => end_game(app, &mut s, agreed).await?,
        ("decline", true) => {
            s.draw_offer = None;
            s.draw_declined = true;
            publish(&s);
        }
        ("accept" | "decline", false) => return Err(AppError::NoDrawOffer),
        (other, _) => {
            return Err(AppError::BadRequest(format!(
                "action {other:?} is not offer, accept or decline"
            )));
        }
    }
    Ok(())
}

pub async fn resign(
    app: &AppState,
    session: &SharedSession,
    role: &Role,
    side: Option<String>,
) -> Result<(), AppError> {
    let mut s = session.lock().await;
    if s.result().is_some() {
        return Err(AppError::GameOver);
    }
    let game_sides = sides(&s.row.game);
    let loser = match (role, side) {
        (Role::Owner, Some(side)) if s.row.human.is_none() => {
            if !game_sides.contains(&side.as_str()) {
                return Err(AppError::BadRequest(format!(
                    "no side {side:?} in this game"
                )));
            }
            side
        }
        _ => role_side(&s, role),
    };
    let winner = other_side(&s.row.game, &loser);
    end_game(
        app,
        &mut s,
        Ended {
            winner: Some(winner),
            reason: "resignation".into(),
        },
    )
    .await
}

/// Ends an online game with no result, before its first move.
pub async fn abort(app: &AppState, session: &SharedSession) -> Result<(), AppError> {
    let mut s = session.lock().await;
    if s.result().is_some() {
        return Err(AppError::GameOver);
    }
    if s.play.ply() > 0 {
        return Err(AppError::AlreadyStarted);
    }
    end_game(
        app,
        &mut s,
        Ended {
            winner: None,
            reason: "aborted".into(),
        },
    )
    .await
}

/// A validated display name.
pub fn display_name(name: &str) -> Result<String, AppError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 32 || name.chars().any(char::is_control) {
        return Err(AppError::BadRequest(
            "a name has 1 to 32 printable characters".into(),
        ));
    }
    Ok(name.to_owned())
}

/// Takes a free place on `side` (or the first side with one); returns the
/// new seat and the side. The game starts when the last place is taken.
pub async fn join(
    app: &AppState,
    session: &SharedSession,
    name: &str,
    side: Option<&str>,
) -> Result<(String, String), AppError> {
    let name = display_name(name)?;
    let mut s = session.lock().await;
    if !s.is_online() {
        return Err(AppError::BadRequest(
            "only online games can be joined".into(),
        ));
    }
    if s.status() != "waiting" {
        return Err(AppError::AlreadyStarted);
    }
    let size = usize::from(s.row.team_size);
    let free = |s: &Session, side: &str| s.team(side).len() < size;
    let side = match side {
        Some(side) if !sides(&s.row.game).contains(&side) => {
            return Err(AppError::BadRequest(format!(
                "no side {side:?} in this game"
            )));
        }
        Some(side) if free(&s, side) => side.to_owned(),
        Some(_) => return Err(AppError::GameFull),
        None => sides(&s.row.game)
            .into_iter()
            .find(|side| free(&s, side))
            .ok_or(AppError::GameFull)?
            .to_owned(),
    };
    let seat = random_token(16);
    let member = Member {
        side: side.clone(),
        position: s.team(&side).len() as u8,
        name,
        seat_hash: seat_hash(&seat),
    };
    app.store.add_seat(&s.row.id, &member).await?;
    s.members.push(member);
    if s.is_full() {
        begin(app, &mut s).await?;
    }
    publish(&s);
    drop(s);
    crate::timer::watch_flag(app, session).await;
    Ok((seat, side))
}

/// Starts an online game whose sides each have at least one member (teams
/// need not be full: 3 may play 2).
pub async fn start(app: &AppState, session: &SharedSession) -> Result<(), AppError> {
    {
        let mut s = session.lock().await;
        if s.status() != "waiting" {
            return Err(AppError::AlreadyStarted);
        }
        if sides(&s.row.game)
            .iter()
            .any(|side| s.team(side).is_empty())
        {
            return Err(AppError::NotStarted);
        }
        begin(app, &mut s).await?;
        publish(&s);
    }
    crate::timer::watch_flag(app, session).await;
    Ok(())
}

/// Marks the game started now and starts the first clock.
async fn begin(app: &AppState, s: &mut Session) -> Result<(), AppError> {
    let now = now_ms();
    app.store.set_started(&s.row.id, now).await?;
    s.row.started_at_ms = Some(now);
    if let Some(c) = s.clocks.as_mut() {
        c.since = Some(now);
    }
    Ok(())
}

/// Creates a game row and its first member (online) or its one seat.
pub async fn create(
    app: &AppState,
    row: GameRow,
    creator: Option<(String, String)>,
    seat: &str,
) -> Result<SharedSession, AppError> {
    app.store.insert_game(&row).await?;
    if let Some((name, side)) = creator {
        let member = Member {
            side,
            position: 0,
            name,
            seat_hash: seat_hash(seat),
        };
        app.store.add_seat(&row.id, &member).await?;
    }
    app.session(&row.id).await
}

/// The member's seat in the rematch (created on the first request), sides swapped.
pub async fn rematch(
    app: &AppState,
    session: &SharedSession,
    role: &Role,
) -> Result<(String, String), AppError> {
    let Role::Member { side, position } = role else {
        return Err(AppError::BadRequest(
            "rematches are for online games".into(),
        ));
    };
    let (existing, row, name) = {
        let s = session.lock().await;
        if s.result().is_none() {
            return Err(AppError::BadRequest("the game is not over".into()));
        }
        let name = s
            .members
            .iter()
            .find(|m| m.side == *side && m.position == *position)
            .map(|m| m.name.clone());
        (
            s.row.rematch_id.clone(),
            s.row.clone(),
            name.unwrap_or_default(),
        )
    };
    let new_side = other_side(&row.game, side);
    let id = match existing {
        Some(id) => id,
        None => {
            let fresh = GameRow {
                id: random_token(6),
                seat_hash: seat_hash(&random_token(16)),
                ended_winner: None,
                ended_reason: None,
                started_at_ms: None,
                rematch_id: None,
                ..row.clone()
            };
            create(app, fresh.clone(), None, "").await?;
            app.store.set_rematch(&row.id, &fresh.id).await?;
            let mut s = session.lock().await;
            s.row.rematch_id = Some(fresh.id.clone());
            publish(&s);
            fresh.id
        }
    };
    let new_session = app.session(&id).await?;
    let (seat, _) = join(app, &new_session, &name, Some(&new_side)).await?;
    Ok((id, seat))
}

/// Asks a running search of the machine to stop (take-back, game over).
pub fn stop_machine(s: &mut Session) {
    if let Some(stop) = s.stop.take() {
        stop.store(true, Ordering::SeqCst);
    }
    s.thinking = false;
}
