//! `/api/account`: sign up, log in and out, read one's account, change the
//! password, delete the account, export one's data, list one's games, and
//! personal API tokens.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use tower_sessions::Session;

use super::password::{self, check_strength};
use super::session::{SignedIn, sign_in, sign_out};
use super::username;
use super::viewer::{TOKEN_PREFIX, Viewer};
use crate::api::Body;
use crate::error::AppError;
use crate::game::Command;
use crate::guards::ClientIp;
use crate::lobby::listing_json;
use crate::ratings::every_pool;
use crate::seats::{random_token, seat_hash};
use crate::state::AppState;
use crate::store::is_unique_violation;

/// Games listed on one's account.
const GAMES: i64 = 100;
/// Tokens an account may hold.
const MAX_TOKENS: usize = 20;
/// The scopes a token may have.
const SCOPES: &[&str] = &["bot:play"];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/account", get(me).delete(delete_account))
        .route("/api/account/signup", post(signup))
        .route("/api/account/login", post(login))
        .route("/api/account/logout", post(logout))
        .route("/api/account/password", post(change_password))
        .route("/api/account/export", get(export))
        .route("/api/account/games", get(my_games))
        .route("/api/account/tokens", get(tokens).post(create_token))
        .route("/api/account/tokens/{id}", delete(revoke_token))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    username: String,
    password: String,
}

async fn signup(
    State(app): State<AppState>,
    ip: ClientIp,
    session: Session,
    Body(body): Body<Credentials>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    app.guards.signups.check(ip)?;
    let name = username::check(&body.username)?;
    check_strength(&body.password)?;
    let hash = password::hash(body.password).await?;
    let id = match app.store().create_account(name, &hash).await {
        Ok(id) => id,
        Err(e) if is_unique_violation(&e) => return Err(AppError::NameTaken),
        Err(e) => return Err(e.into()),
    };
    sign_in(&session, SignedIn { id, epoch: 0 }).await?;
    Ok((StatusCode::CREATED, Json(json!({ "username": name }))))
}

async fn login(
    State(app): State<AppState>,
    ip: ClientIp,
    session: Session,
    Body(body): Body<Credentials>,
) -> Result<Json<Value>, AppError> {
    app.guards.logins.check(ip)?;
    app.guards
        .logins_per_name
        .check_key(&body.username.to_lowercase())?;
    if body.password.len() > password::MAX_PASSWORD {
        return Err(AppError::WrongCredentials);
    }
    let account = match username::check(&body.username) {
        Ok(name) => app.store().account_named(name).await?,
        Err(_) => None,
    };
    let stored = account.as_ref().map(|a| a.password_hash.clone());
    if !password::verify(body.password, stored).await? {
        return Err(AppError::WrongCredentials);
    }
    let account = account.ok_or(AppError::WrongCredentials)?;
    let signed = SignedIn {
        id: account.id,
        epoch: account.auth_epoch,
    };
    sign_in(&session, signed).await?;
    Ok(Json(json!({ "username": account.username })))
}

async fn logout(session: Session) -> Result<StatusCode, AppError> {
    sign_out(&session).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn me(State(app): State<AppState>, viewer: Viewer) -> Result<Json<Value>, AppError> {
    let account = viewer.account()?;
    let ratings = every_pool(&app.store().ratings(account.id).await?);
    Ok(Json(json!({
        "username": account.username,
        "bot": account.bot,
        "ratings": ratings,
    })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPassword {
    password: String,
    new_password: String,
}

/// Checks `password` against the account's; `wrong_credentials` if not.
async fn confirm(app: &AppState, id: i64, password: String) -> Result<(), AppError> {
    let stored = app.store().account(id).await?.map(|a| a.password_hash);
    if password.len() > password::MAX_PASSWORD || !password::verify(password, stored).await? {
        return Err(AppError::WrongCredentials);
    }
    Ok(())
}

async fn change_password(
    State(app): State<AppState>,
    viewer: Viewer,
    session: Session,
    Body(body): Body<NewPassword>,
) -> Result<StatusCode, AppError> {
    let account = viewer.account()?;
    if account.scopes.is_some() {
        return Err(AppError::Forbidden("a token cannot change the password"));
    }
    check_strength(&body.new_password)?;
    confirm(&app, account.id, body.password).await?;
    let hash = password::hash(body.new_password).await?;
    let epoch = app.store().set_password(account.id, &hash).await?;
    // Other sessions end; this one goes on under a new id.
    sign_in(
        &session,
        SignedIn {
            id: account.id,
            epoch,
        },
    )
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Confirmation {
    password: String,
}

async fn delete_account(
    State(app): State<AppState>,
    viewer: Viewer,
    session: Session,
    Body(body): Body<Confirmation>,
) -> Result<StatusCode, AppError> {
    let account = viewer.account()?;
    if account.scopes.is_some() {
        return Err(AppError::Forbidden("a token cannot delete the account"));
    }
    confirm(&app, account.id, body.password).await?;
    let games = app.store().delete_account(account.id).await?;
    // Owners in memory rename the player too, or they would show the old
    // name until they are next loaded.
    for id in games {
        app.games.tell_local(
            &id,
            Command::AccountDeleted {
                account: account.id,
            },
        );
    }
    sign_out(&session).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn my_games(State(app): State<AppState>, viewer: Viewer) -> Result<Json<Value>, AppError> {
    let account = viewer.account()?;
    let games = app.store().account_games(account.id, GAMES).await?;
    Ok(Json(Value::Array(games.iter().map(listing_json).collect())))
}

async fn export(State(app): State<AppState>, viewer: Viewer) -> Result<Json<Value>, AppError> {
    let account = viewer.account()?;
    let store = app.store();
    let row = store
        .account(account.id)
        .await?
        .ok_or(AppError::SignInRequired)?;
    let ratings = every_pool(&store.ratings(account.id).await?);
    let history: Vec<Value> = store
        .rating_history(account.id)
        .await?
        .into_iter()
        .map(|(pool, p)| json!({ "pool": pool, "point": p }))
        .collect();
    let games = store.account_games(account.id, i64::MAX).await?;
    let tokens = store.tokens(account.id).await?;
    Ok(Json(json!({
        "username": row.username,
        "bot": row.bot,
        "created_at": row.created_at,
        "ratings": ratings,
        "rating_history": history,
        "games": games.iter().map(listing_json).collect::<Vec<_>>(),
        "tokens": tokens,
    })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    description: String,
    scopes: Vec<String>,
}

async fn create_token(
    State(app): State<AppState>,
    viewer: Viewer,
    Body(body): Body<NewToken>,
) -> Result<(StatusCode, Json<Value>), AppError> {
    let account = viewer.account()?;
    if account.scopes.is_some() {
        return Err(AppError::Forbidden("a token cannot make tokens"));
    }
    let description = crate::names::display_name(&body.description)
        .map_err(|_| AppError::BadRequest("a description has 1 to 32 visible characters".into()))?;
    if let Some(bad) = body.scopes.iter().find(|s| !SCOPES.contains(&s.as_str())) {
        return Err(AppError::BadRequest(format!(
            "scope {bad:?} is not one of {SCOPES:?}"
        )));
    }
    if app.store().tokens(account.id).await?.len() >= MAX_TOKENS {
        return Err(AppError::BadRequest(format!(
            "an account holds at most {MAX_TOKENS} tokens"
        )));
    }
    let token = format!("{TOKEN_PREFIX}{}", random_token(20));
    let id = random_token(6);
    app.store()
        .create_token(
            account.id,
            &id,
            &seat_hash(&token),
            &description,
            &body.scopes,
        )
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(
            json!({ "id": id, "token": token, "description": description, "scopes": body.scopes }),
        ),
    ))
}

async fn tokens(State(app): State<AppState>, viewer: Viewer) -> Result<Json<Value>, AppError> {
    let account = viewer.account()?;
    Ok(Json(json!(app.store().tokens(account.id).await?)))
}

async fn revoke_token(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<StatusCode, AppError> {
    let account = viewer.account()?;
    if app.store().revoke_token(account.id, &id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(AppError::NotFound)
    }
}
