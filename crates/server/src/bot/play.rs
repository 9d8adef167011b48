//! A bot's games: becoming a bot, the stream of one game (`gameFull`, then
//! a `gameState` after each change), a move and a resignation. A bot plays
//! with its account, as a signed-in person does; the game's owner checks
//! every move.

use axum::extract::State;
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

use super::streams::{KEEP_ALIVE, Lines, ndjson};
use crate::accounts::{Account, Viewer};
use crate::api::Path;
use crate::error::AppError;
use crate::game::{Action, DrawAction, Subscription};
use crate::guards::ClientIp;
use crate::ratings::Pool;
use crate::seats::Key;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/bot/account/upgrade", post(upgrade))
        .route("/api/bot/game/stream/{id}", get(game_stream))
        .route("/api/bot/game/{id}/move/{*move}", post(play_move))
        .route("/api/bot/game/{id}/resign", post(resign))
        .route("/api/bot/game/{id}/draw/{answer}", post(draw))
}

/// The account, if its token (or session) may play as a bot.
fn scoped(viewer: &Viewer) -> Result<&Account, AppError> {
    let account = viewer.account()?;
    if !account.may("bot:play") {
        return Err(AppError::Forbidden("this token lacks the bot:play scope"));
    }
    Ok(account)
}

/// The account, if it may use the Bot API.
fn bot(viewer: &Viewer) -> Result<&Account, AppError> {
    let account = scoped(viewer)?;
    if !account.bot {
        return Err(AppError::Forbidden(
            "the Bot API is for bot accounts: upgrade first",
        ));
    }
    Ok(account)
}

/// Makes the account a bot, for good (an account that has played cannot).
#[utoipa::path(
    post,
    path = "/api/bot/account/upgrade",
    operation_id = "upgradeToBot",
    tag = "bot",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account is a bot", body = crate::openapi::shapes::Done),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn upgrade(State(app): State<AppState>, viewer: Viewer) -> Result<Json<Value>, AppError> {
    let account = scoped(&viewer)?;
    if !account.bot && !app.store().make_bot(account.id).await? {
        return Err(AppError::BadRequest(
            "an account that has played cannot become a bot".into(),
        ));
    }
    Ok(Json(json!({ "ok": true })))
}

/// A `gameState` line from a state the owner published.
fn game_state(state: &Value) -> Value {
    let moves: Vec<&str> = state["moves"]
        .as_array()
        .map(|m| m.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    json!({
        "type": "gameState",
        "moves": moves.join(" "),
        "ply": state["ply"],
        "turn": state["turn"],
        "status": state["status"],
        "result": state["result"],
        "clocks": state["clocks"],
        "draw_offer": state["draw_offer"],
    })
}

fn finished(state: &Value) -> bool {
    matches!(state["status"].as_str(), Some("finished" | "damaged"))
}

/// The `gameFull` line: the game's terms and players, and its state now.
async fn game_full(app: &AppState, id: &str, state: &Value) -> Result<Value, AppError> {
    let id_owned = id.to_owned();
    let (mut full, members, pool) = app
        .games
        .read(id, move |g| {
            let members: Vec<_> = g
                .members
                .iter()
                .map(|m| (m.side, m.name.clone(), m.account, m.bot))
                .collect();
            let full = json!({
                "type": "gameFull",
                "id": id_owned,
                "game": g.row.kind,
                "size": g.row.size,
                "rated": g.row.rated,
                "time_control": g.row.time_control.to_string(),
                "initial_fen": g.row.start_fen,
            });
            (full, members, Pool::of(g.row.kind, g.row.size))
        })
        .await?;
    let mut players = serde_json::Map::new();
    for (side, name, account, bot) in members {
        let rating = match account {
            Some(a) => Some(app.store().rating(a, pool).await?.rating),
            None => None,
        };
        players.insert(
            side.to_string(),
            json!({"username": name, "account": account.is_some(), "bot": bot, "rating": rating}),
        );
    }
    full["players"] = Value::Object(players);
    full["state"] = game_state(state);
    Ok(full)
}

/// A game's stream, one JSON object a line: `gameFull`, then a
/// `gameState` after each change, until the game ends.
#[utoipa::path(
    get,
    path = "/api/bot/game/stream/{id}",
    operation_id = "streamGame",
    tag = "bot",
    params(crate::openapi::GameId),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Newline-delimited JSON lines",
            content_type = "application/x-ndjson", body = String),
        (status = 401, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn game_stream(
    State(app): State<AppState>,
    viewer: Viewer,
    ip: ClientIp,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let account = viewer.account()?.id;
    let place = app.guards.open_socket(ip)?;
    // A player's stream counts as their presence, as a live socket does;
    // anyone else's watches. The presence goes back when the subscription
    // is dropped: by the stream's task at its end, or here, by an error
    // below or by the request itself dropped before the stream began.
    let Subscription {
        presence,
        now,
        updates,
    } = app
        .games
        .subscribe(&id, Some(Key::Account(account)))
        .await?;
    let now: Value = serde_json::from_str(&now).map_err(|e| AppError::Internal(e.into()))?;
    let full = game_full(&app, &id, &now).await?;
    let within = app.guards.limits.socket_write;
    Ok(ndjson(place, within, move |lines: Lines| async move {
        let _presence = presence;
        follow(&app, &lines, full, now, updates).await;
    }))
}

/// Writes a game's lines until it ends, the reader leaves or the server
/// stops.
async fn follow(
    app: &AppState,
    lines: &Lines,
    full: Value,
    now: Value,
    mut updates: tokio::sync::broadcast::Receiver<std::sync::Arc<str>>,
) {
    let shutdown = app.shutdown.clone();
    if !lines.send(&full.to_string()).await || finished(&now) {
        return;
    }
    // Presence changes publish states too: only news goes out (the
    // clocks alone, read at each publication, are no news).
    let news = |line: &Value| {
        let mut key = line.clone();
        key["clocks"] = Value::Null;
        key
    };
    let mut last = news(&game_state(&now));
    loop {
        let alive = tokio::select! {
            next = updates.recv() => match next {
                Ok(state) => {
                    let Ok(state) = serde_json::from_str::<Value>(&state) else { continue };
                    let line = game_state(&state);
                    if news(&line) == last {
                        continue;
                    }
                    last = news(&line);
                    if !lines.send(&line.to_string()).await || finished(&state) {
                        return;
                    }
                    true
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => true,
                Err(_) => false,
            },
            () = tokio::time::sleep(KEEP_ALIVE) => lines.keep_alive().await,
            () = shutdown.cancelled() => false,
        };
        if !alive {
            return;
        }
    }
}

/// Plays a bot's move at the game's current ply.
#[utoipa::path(
    post,
    path = "/api/bot/game/{id}/move/{move}",
    operation_id = "botMove",
    tag = "bot",
    params(
        crate::openapi::GameId,
        ("move" = String, Path, description = "The move in rules.md's notation"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Played", body = crate::openapi::shapes::Done),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 422, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn play_move(
    State(app): State<AppState>,
    viewer: Viewer,
    Path((id, notation)): Path<(String, String)>,
) -> Result<Json<Value>, AppError> {
    let account = bot(&viewer)?;
    let ply = app.games.read(&id, |g| g.play.ply()).await?;
    let action = Action::Move { notation, ply };
    app.games
        .act(&id, Some(Key::Account(account.id)), action)
        .await?;
    Ok(Json(json!({ "ok": true })))
}

/// Resigns a bot's game.
#[utoipa::path(
    post,
    path = "/api/bot/game/{id}/resign",
    operation_id = "botResign",
    tag = "bot",
    params(crate::openapi::GameId),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Resigned", body = crate::openapi::shapes::Done),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn resign(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Json<Value>, AppError> {
    let account = bot(&viewer)?;
    app.games
        .act(
            &id,
            Some(Key::Account(account.id)),
            Action::Resign { side: None },
        )
        .await?;
    Ok(Json(json!({ "ok": true })))
}

/// Offers or accepts a draw (`yes`), or declines the other side's offer
/// (`no`), as lichess's bots do.
#[utoipa::path(
    post,
    path = "/api/bot/game/{id}/draw/{answer}",
    operation_id = "botDraw",
    tag = "bot",
    params(
        crate::openapi::GameId,
        ("answer" = String, Path, description = "`yes` offers or accepts a draw, `no` declines one", example = "yes"),
    ),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "Done", body = crate::openapi::shapes::Done),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn draw(
    State(app): State<AppState>,
    viewer: Viewer,
    Path((id, answer)): Path<(String, String)>,
) -> Result<Json<Value>, AppError> {
    let key = Some(Key::Account(bot(&viewer)?.id));
    let acted = match answer.as_str() {
        "yes" | "true" => {
            // Accepting the other side's offer, or making one.
            match app
                .games
                .act(&id, key.clone(), Action::Draw(DrawAction::Accept))
                .await
            {
                Err(AppError::NoDrawOffer) => {
                    app.games
                        .act(&id, key, Action::Draw(DrawAction::Offer))
                        .await
                }
                other => other,
            }
        }
        "no" | "false" => {
            app.games
                .act(&id, key, Action::Draw(DrawAction::Decline))
                .await
        }
        _ => return Err(AppError::BadRequest("a draw answer is yes or no".into())),
    };
    acted?;
    Ok(Json(json!({ "ok": true })))
}
