//! `/api/account`: sign up, log in and out, read one's account, change the
//! password, delete the account, export one's data, list one's games, and
//! personal API tokens; and `/api/session`, who is signed in, if anyone.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use tower_sessions::Session;

use super::password::{self, check_strength};
use super::session::{SignedIn, sign_in, sign_out};
use super::username;
use super::viewer::{Account, TOKEN_PREFIX, Viewer};
use crate::api::{Body, Path};
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
        .route("/api/session", get(session_account))
        .route("/api/account/signup", post(signup))
        .route("/api/account/login", post(login))
        .route("/api/account/logout", post(logout))
        .route("/api/account/password", post(change_password))
        .route("/api/account/export", get(export))
        .route("/api/account/games", get(my_games))
        .route("/api/account/tokens", get(tokens).post(create_token))
        .route("/api/account/tokens/{id}", delete(revoke_token))
}

/// A username and its password.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"username": "awa_ndiaye", "password": "correct horse"}))]
pub struct Credentials {
    /// 2 to 20 characters from `A–Z a–z 0–9 _ -`, unique whatever their case.
    #[schema(pattern = "^[A-Za-z0-9_-]{2,20}$")]
    username: String,
    /// At least 8 characters, at most 256 bytes.
    #[schema(min_length = 8, max_length = 256)]
    password: String,
}

/// Creates an account and signs it in (the session cookie).
#[utoipa::path(
    post,
    path = "/api/account/signup",
    operation_id = "signUp",
    tag = "accounts",
    request_body = Credentials,
    responses(
        (status = 201, description = "Signed up and in", body = crate::openapi::shapes::AccountName,
            headers(("Set-Cookie" = String, description = "`palabre_session`"))),
        (status = 400, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
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

/// Signs in (the session cookie).
#[utoipa::path(
    post,
    path = "/api/account/login",
    operation_id = "logIn",
    tag = "accounts",
    request_body = Credentials,
    responses(
        (status = 200, description = "Signed in", body = crate::openapi::shapes::AccountName,
            headers(("Set-Cookie" = String, description = "`palabre_session`"))),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
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

/// Signs out: the session ends and its cookie is cleared.
#[utoipa::path(
    post,
    path = "/api/account/logout",
    operation_id = "logOut",
    tag = "accounts",
    security((), ("session" = [])),
    responses(
        (status = 204, description = "Signed out"),
        (status = 403, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn logout(session: Session) -> Result<StatusCode, AppError> {
    sign_out(&session).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// One's account: its username, whether it is a bot, its ratings.
#[utoipa::path(
    get,
    path = "/api/account",
    operation_id = "me",
    tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account", body = crate::openapi::shapes::Me),
        (status = 401, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn me(State(app): State<AppState>, viewer: Viewer) -> Result<Json<Value>, AppError> {
    Ok(Json(account_json(&app, viewer.account()?).await?))
}

/// Who is signed in: `{"account": …}` as `GET /api/account` answers it, or
/// `{"account": null}` for a guest. Every page asks on load, and a guest
/// there is no error: an answer of 401 would show in the browser's console.
#[utoipa::path(
    get,
    path = "/api/session",
    operation_id = "session",
    tag = "accounts",
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account, or null for a guest", body = crate::openapi::shapes::SessionAccount),
        (status = 401, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn session_account(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Result<Json<Value>, AppError> {
    let account = match &viewer.0 {
        Some(account) => account_json(&app, account).await?,
        None => Value::Null,
    };
    Ok(Json(json!({ "account": account })))
}

/// An account as `GET /api/account` shows it.
async fn account_json(app: &AppState, account: &Account) -> Result<Value, AppError> {
    let ratings = every_pool(&app.store().ratings(account.id).await?);
    Ok(json!({
        "username": account.username,
        "bot": account.bot,
        "ratings": ratings,
    }))
}

/// The password now and the new one.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPassword {
    password: String,
    /// At least 8 characters, at most 256 bytes.
    #[schema(min_length = 8, max_length = 256)]
    new_password: String,
}

/// Checks `password` against the account's; `wrong_credentials` if not.
/// Each check counts as a log-in attempt (per address and per name), so
/// that a session cannot guess its account's password faster than a log-in.
async fn confirm(
    app: &AppState,
    ip: ClientIp,
    account: &Account,
    password: String,
) -> Result<(), AppError> {
    app.guards.logins.check(ip)?;
    app.guards
        .logins_per_name
        .check_key(&account.username.to_lowercase())?;
    let stored = app
        .store()
        .account(account.id)
        .await?
        .map(|a| a.password_hash);
    if password.len() > password::MAX_PASSWORD || !password::verify(password, stored).await? {
        return Err(AppError::WrongCredentials);
    }
    Ok(())
}

/// Changes the password: the account's other sessions end.
#[utoipa::path(
    post,
    path = "/api/account/password",
    operation_id = "changePassword",
    tag = "accounts",
    request_body = NewPassword,
    security(("session" = []), ("bearer" = [])),
    responses(
        (status = 204, description = "Changed"),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn change_password(
    State(app): State<AppState>,
    ip: ClientIp,
    viewer: Viewer,
    session: Session,
    Body(body): Body<NewPassword>,
) -> Result<StatusCode, AppError> {
    let account = viewer.account()?;
    if account.scopes.is_some() {
        return Err(AppError::Forbidden("a token cannot change the password"));
    }
    check_strength(&body.new_password)?;
    confirm(&app, ip, account, body.password).await?;
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

/// The password, to confirm.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Confirmation {
    password: String,
}

/// Deletes the account: its games stay, under a name that is no one's.
#[utoipa::path(
    delete,
    path = "/api/account",
    operation_id = "deleteAccount",
    tag = "accounts",
    request_body = Confirmation,
    security(("session" = []), ("bearer" = [])),
    responses(
        (status = 204, description = "Deleted"),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn delete_account(
    State(app): State<AppState>,
    ip: ClientIp,
    viewer: Viewer,
    session: Session,
    Body(body): Body<Confirmation>,
) -> Result<StatusCode, AppError> {
    let account = viewer.account()?;
    if account.scopes.is_some() {
        return Err(AppError::Forbidden("a token cannot delete the account"));
    }
    confirm(&app, ip, account, body.password).await?;
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

/// One's games (100 at most).
#[utoipa::path(
    get,
    path = "/api/account/games",
    operation_id = "myGames",
    tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account's games", body = Vec<crate::openapi::shapes::GameListing>),
        (status = 401, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn my_games(State(app): State<AppState>, viewer: Viewer) -> Result<Json<Value>, AppError> {
    let account = viewer.account()?;
    let games = app.store().account_games(account.id, GAMES).await?;
    Ok(Json(Value::Array(games.iter().map(listing_json).collect())))
}

/// Everything the server keeps about one's account.
#[utoipa::path(
    get,
    path = "/api/account/export",
    operation_id = "exportAccount",
    tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The account's data", body = crate::openapi::shapes::AccountExport),
        (status = 401, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
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

/// A personal token to make.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"description": "my bot", "scopes": ["bot:play"]}))]
pub struct NewToken {
    /// 1 to 32 visible characters.
    #[schema(max_length = 32)]
    description: String,
    #[schema(value_type = Vec<crate::openapi::shapes::Scope>)]
    scopes: Vec<String>,
}

/// Makes a personal token (20 at most an account); its secret is shown once.
#[utoipa::path(
    post,
    path = "/api/account/tokens",
    operation_id = "createToken",
    tag = "accounts",
    request_body = NewToken,
    security(("session" = []), ("bearer" = [])),
    responses(
        (status = 201, description = "The token, with its secret", body = crate::openapi::shapes::TokenCreated),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
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
    let token = format!("{TOKEN_PREFIX}{}", random_token(20));
    let id = random_token(6);
    let stored = app
        .store()
        .create_token(
            account.id,
            &id,
            &seat_hash(&token),
            &description,
            &body.scopes,
            MAX_TOKENS,
        )
        .await?;
    if !stored {
        return Err(AppError::BadRequest(format!(
            "an account holds at most {MAX_TOKENS} tokens"
        )));
    }
    Ok((
        StatusCode::CREATED,
        Json(
            json!({ "id": id, "token": token, "description": description, "scopes": body.scopes }),
        ),
    ))
}

/// One's personal tokens, without their secrets.
#[utoipa::path(
    get,
    path = "/api/account/tokens",
    operation_id = "listTokens",
    tag = "accounts",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The tokens", body = Vec<crate::store::TokenRow>),
        (status = 401, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
async fn tokens(State(app): State<AppState>, viewer: Viewer) -> Result<Json<Value>, AppError> {
    let account = viewer.account()?;
    Ok(Json(json!(app.store().tokens(account.id).await?)))
}

/// Revokes a personal token.
#[utoipa::path(
    delete,
    path = "/api/account/tokens/{id}",
    operation_id = "revokeToken",
    tag = "accounts",
    params(("id" = String, Path, description = "The token's id")),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError),
    )
)]
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
