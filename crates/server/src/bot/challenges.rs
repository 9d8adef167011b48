//! Challenges: one account asks another for a game; the other accepts
//! (the game starts, and both hear `gameStart`), declines, or the asker
//! cancels. The game is made like any online game, through its owner.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::events::game_start;
use crate::accounts::{Account, Viewer};
use crate::api::{Body, Path, start_fen};
use crate::clock::TimeControl;
use crate::domain::{GameKind, Opponent, Side};
use crate::error::AppError;
use crate::game::Joiner;
use crate::guards::ClientIp;
use crate::ratings::Pool;
use crate::seats::{random_token, seat_hash};
use crate::state::AppState;
use crate::store::{ChallengeRow, GameRow, Member};

/// Challenges an account may have waiting for an answer at once: each is
/// shown to its player every time their event stream opens.
const MAX_WAITING: usize = 20;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/challenge/{username}", post(create))
        .route("/api/challenge/{id}/show", get(show))
        .route("/api/challenge/{id}/accept", post(accept))
        .route("/api/challenge/{id}/decline", post(decline))
        .route("/api/challenge/{id}/cancel", post(cancel))
}

/// A challenge's terms.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"game": "yote", "rated": false, "time_control": "1d", "side": "random"}))]
pub struct NewChallenge {
    #[schema(value_type = GameKind)]
    game: String,
    /// Nsolo: pits a row, 8 to 36 (default 8; ignored for Yoté).
    #[schema(minimum = 8, maximum = 36)]
    size: Option<u8>,
    rated: Option<bool>,
    /// Default `none`.
    #[schema(value_type = Option<crate::openapi::shapes::TimeControlName>)]
    time_control: Option<String>,
    /// The challenger's side, or `random` (the default).
    #[schema(value_type = Option<crate::openapi::shapes::SideChoice>)]
    side: Option<String>,
}

fn bad(e: impl std::fmt::Display) -> AppError {
    AppError::BadRequest(e.to_string())
}

/// A player of a challenge as its JSON shows them.
async fn player(app: &AppState, account: i64, pool: Pool) -> Result<Value, AppError> {
    let row = app.store().account(account).await?;
    let rating = app.store().rating(account, pool).await?;
    Ok(json!({
        "username": row.as_ref().map(|a| a.username.clone()),
        "bot": row.is_some_and(|a| a.bot),
        "rating": rating.rating,
    }))
}

/// A challenge as the API shows it.
pub async fn challenge_json(app: &AppState, c: &ChallengeRow) -> Result<Value, AppError> {
    let pool = Pool::of(c.kind, c.size);
    Ok(json!({
        "id": c.id,
        "status": c.status,
        "challenger": player(app, c.challenger, pool).await?,
        "dest_user": player(app, c.dest, pool).await?,
        "game": c.kind,
        "size": c.size,
        "rated": c.rated,
        "time_control": c.time_control,
        "side": c.side.map_or("random", Side::as_str),
        "game_id": c.game_id,
    }))
}

/// Challenges another account to a game.
#[utoipa::path(
    post,
    path = "/api/challenge/{username}",
    operation_id = "challenge",
    tag = "bot",
    params(("username" = String, Path, description = "The account challenged")),
    request_body = NewChallenge,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The challenge", body = crate::openapi::shapes::Challenge),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn create(
    State(app): State<AppState>,
    ip: ClientIp,
    viewer: Viewer,
    Path(username): Path<String>,
    Body(body): Body<NewChallenge>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let me = viewer.account()?;
    // A challenge is a game's creation waiting for its answer: counted as one.
    app.guards.creates.check(ip)?;
    let dest = app
        .store()
        .account_named(&username)
        .await?
        .ok_or(AppError::NotFound)?;
    if dest.id == me.id {
        return Err(bad("one does not challenge oneself"));
    }
    let kind: GameKind = body.game.parse().map_err(bad)?;
    let (_, size) = start_fen(kind, body.size.unwrap_or(8))?;
    let time_control: TimeControl = body
        .time_control
        .as_deref()
        .unwrap_or("none")
        .parse()
        .map_err(bad)?;
    let side = match body.side.as_deref() {
        None | Some("random") => None,
        Some(s) => Some(
            s.parse::<Side>()
                .ok()
                .and_then(|side| kind.side(side))
                .ok_or_else(|| bad(format!("side {s:?} is not one of {:?}", kind.sides())))?,
        ),
    };
    let c = ChallengeRow {
        id: random_token(6),
        challenger: me.id,
        dest: dest.id,
        kind,
        size,
        rated: body.rated.unwrap_or(false),
        time_control: time_control.to_string(),
        side,
        status: "created".into(),
        game_id: None,
    };
    if !app.store().create_challenge(&c, MAX_WAITING).await? {
        return Err(bad(format!(
            "an account has at most {MAX_WAITING} challenges waiting for an answer"
        )));
    }
    let shown = challenge_json(&app, &c).await?;
    app.hub
        .send(dest.id, &json!({"type": "challenge", "challenge": shown}));
    Ok((StatusCode::CREATED, Json(shown)))
}

/// The challenge `id` if `me` is one of its players.
async fn mine(app: &AppState, me: &Account, id: &str) -> Result<ChallengeRow, AppError> {
    match app.store().challenge(id).await? {
        Some(c) if c.dest == me.id || c.challenger == me.id => Ok(c),
        _ => Err(AppError::NotFound),
    }
}

/// A challenge one made or received.
#[utoipa::path(
    get,
    path = "/api/challenge/{id}/show",
    operation_id = "showChallenge",
    tag = "bot",
    params(("id" = String, Path, description = "The challenge's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The challenge", body = crate::openapi::shapes::Challenge),
        (status = 401, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn show(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Json<Value>, AppError> {
    let c = mine(&app, viewer.account()?, &id).await?;
    Ok(Json(challenge_json(&app, &c).await?))
}

/// The accounts that hold a place in game `id`.
async fn players(app: &AppState, id: &str) -> Result<Vec<i64>, AppError> {
    app.games
        .read(id, |g| g.members.iter().filter_map(|m| m.account).collect())
        .await
}

/// Starts the challenge's game, or finishes what an earlier accept of it
/// stored before it failed: the challenger takes their side (or a random
/// one), the challenged player the other. The game takes the challenge's
/// id, so a second try finds the first one's game rather than failing on
/// it for good.
async fn start_game(app: &AppState, c: &ChallengeRow) -> Result<String, AppError> {
    let id = c.id.clone();
    if !app.games.exists(&id).await? {
        let created = create_game(app, c).await;
        // Another accept of the same challenge may have stored it first.
        if let Err(e) = created
            && !app.games.exists(&id).await?
        {
            return Err(e);
        }
    }
    let seated = players(app, &id).await?;
    if !seated.contains(&c.challenger) {
        let e = anyhow::anyhow!("game {id} exists without its challenger");
        return Err(AppError::Internal(e));
    }
    if seated.contains(&c.dest) {
        return Ok(id);
    }
    let dest = app
        .store()
        .account(c.dest)
        .await?
        .ok_or(AppError::NotFound)?;
    let joiner = Joiner {
        name: dest.username,
        account: Some(dest.id),
        bot: dest.bot,
        ratings: Vec::new(),
        seat: None,
    };
    // The one place left, whichever side an earlier try gave the
    // challenger. A failure is none if another accept seated them first.
    let joined = app.games.join(&id, joiner, None).await;
    if let Err(e) = joined
        && !players(app, &id).await?.contains(&c.dest)
    {
        return Err(e);
    }
    Ok(id)
}

/// Stores the challenge's game with the challenger in it.
async fn create_game(app: &AppState, c: &ChallengeRow) -> Result<(), AppError> {
    let (fen, size) = start_fen(c.kind, c.size)?;
    let side = c
        .side
        .unwrap_or_else(|| c.kind.sides()[usize::from(rand::random::<bool>())]);
    let challenger = app
        .store()
        .account(c.challenger)
        .await?
        .ok_or(AppError::NotFound)?;
    let row = GameRow {
        // As on lichess, the game takes the challenge's id.
        id: c.id.clone(),
        kind: c.kind,
        size,
        start_fen: fen,
        opponent: Opponent::Online,
        level: palabre_ai::Level::Debutant,
        human: None,
        seat_hash: seat_hash(&random_token(16)),
        ended: None,
        team_size: 1,
        time_control: c.time_control.parse().map_err(bad)?,
        started_at_ms: None,
        rematch_id: None,
        damaged: None,
        account: None,
        rated: c.rated,
        rating_range: None,
        clock_credit_ms: 0,
    };
    // Both play with their accounts: the seats are secrets nobody holds.
    let first = Member {
        side,
        position: 0,
        name: challenger.username,
        seat_hash: seat_hash(&random_token(16)),
        account: Some(challenger.id),
        bot: challenger.bot,
    };
    app.games.create(row, Some(first)).await
}

/// Accepts a challenge received: the game starts.
#[utoipa::path(
    post,
    path = "/api/challenge/{id}/accept",
    operation_id = "acceptChallenge",
    tag = "bot",
    params(("id" = String, Path, description = "The challenge's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The game started", body = crate::openapi::shapes::ChallengeAccepted),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn accept(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Json<Value>, AppError> {
    let me = viewer.account()?;
    let c = mine(&app, me, &id).await?;
    if c.dest != me.id {
        return Err(AppError::Forbidden("only the challenged player accepts"));
    }
    // `accepting` keeps a declining or canceling answer out while the game
    // is made. An accept that failed half-way leaves it so, never undone
    // (the undoing write may fail too, and part of the game may be stored
    // already): accepting again finishes the game.
    let accepting = match c.status.as_str() {
        "created" => {
            app.store()
                .answer_challenge(&id, "created", "accepting", None)
                .await?
        }
        status => status == "accepting",
    };
    if !accepting {
        return Err(AppError::ChallengeAnswered);
    }
    let game = start_game(&app, &c).await?;
    // Only the accept that closes the challenge announces its game.
    if app
        .store()
        .answer_challenge(&id, "accepting", "accepted", Some(&game))
        .await?
    {
        for account in [c.challenger, c.dest] {
            if let Ok(event) = game_start(&app, &game, account).await {
                app.hub.send(account, &event);
            }
        }
    }
    Ok(Json(json!({ "ok": true, "game_id": game })))
}

/// Closes a challenge without a game and tells the other player.
async fn close(
    app: &AppState,
    me: &Account,
    id: &str,
    to: &str,
    event: &str,
) -> Result<Json<Value>, AppError> {
    let c = mine(app, me, id).await?;
    let allowed = match to {
        "declined" => c.dest == me.id,
        _ => c.challenger == me.id,
    };
    if !allowed {
        return Err(AppError::Forbidden(
            "the challenged player declines; the challenger cancels",
        ));
    }
    if !app
        .store()
        .answer_challenge(id, "created", to, None)
        .await?
    {
        return Err(AppError::ChallengeAnswered);
    }
    let c = ChallengeRow {
        status: to.to_owned(),
        ..c
    };
    let shown = challenge_json(app, &c).await?;
    let other = if c.dest == me.id {
        c.challenger
    } else {
        c.dest
    };
    app.hub
        .send(other, &json!({"type": event, "challenge": shown}));
    Ok(Json(json!({ "ok": true })))
}

/// Declines a challenge received.
#[utoipa::path(
    post,
    path = "/api/challenge/{id}/decline",
    operation_id = "declineChallenge",
    tag = "bot",
    params(("id" = String, Path, description = "The challenge's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Declined", body = crate::openapi::shapes::Done),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn decline(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Json<Value>, AppError> {
    close(
        &app,
        viewer.account()?,
        &id,
        "declined",
        "challengeDeclined",
    )
    .await
}

/// Cancels a challenge one made.
#[utoipa::path(
    post,
    path = "/api/challenge/{id}/cancel",
    operation_id = "cancelChallenge",
    tag = "bot",
    params(("id" = String, Path, description = "The challenge's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Canceled", body = crate::openapi::shapes::Done),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn cancel(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Json<Value>, AppError> {
    close(
        &app,
        viewer.account()?,
        &id,
        "canceled",
        "challengeCanceled",
    )
    .await
}
