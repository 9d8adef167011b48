//! `/api/games`: create a game, join one, read it, move, resign, offer a
//! draw, abort, start, take back, ask for a rematch or a hint. Every change
//! is a command to the game's owner ([`crate::game`]); this module speaks
//! HTTP.

use std::sync::Arc;

use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use palabre_ai::Level;
use palabre_rules::{nsolo, yote};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_json::value::RawValue;

use crate::accounts::Viewer;
use crate::clock::TimeControl;
use crate::domain::{GameKind, Opponent, Side};
use crate::error::AppError;
use crate::game::{Action, Done, DrawAction, Games, Joined, Joiner};
use crate::guards::ClientIp;
use crate::names::display_name;
use crate::seats::{Key, random_token, seat_hash};
use crate::state::AppState;
use crate::store::{GameRow, Member};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(read))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/moves", post(play_move))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/start", post(start))
        .route("/api/games/{id}/takeback", post(take_back))
        .route("/api/games/{id}/rematch", post(rematch_route))
        .route("/api/games/{id}/hint", get(hint))
}

/// JSON bodies whose rejections speak the API's error format.
#[derive(Debug)]
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Body<T>, AppError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(AppError::TooLarge),
            Err(r) => Err(AppError::BadRequest(r.body_text())),
        }
    }
}

/// Path parameters whose rejections speak the API's error format (a path
/// that does not decode as UTF-8 is a `bad_request`, not plain text).
#[derive(Debug)]
pub struct Path<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Path<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Path<T>, AppError> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value)),
            Err(r) if r.status().is_server_error() => Err(AppError::Internal(anyhow::anyhow!(
                "path: {}",
                r.body_text()
            ))),
            Err(r) => Err(AppError::BadRequest(r.body_text())),
        }
    }
}

/// A query string whose rejections speak the API's error format.
#[derive(Debug)]
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Query<T>, AppError> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(value)| Query(value))
            .map_err(|r| AppError::BadRequest(r.body_text()))
    }
}

/// An optional JSON body: empty means the default.
fn optional_body<T: DeserializeOwned + Default>(bytes: &[u8]) -> Result<T, AppError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice(bytes).map_err(|e| AppError::BadRequest(e.to_string()))
}

/// A state already serialised by the game's owner.
fn raw(state: &Arc<str>) -> Box<RawValue> {
    RawValue::from_string(state.to_string())
        .unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON"))
}

/// A JSON answer that is a state.
fn state_response(status: StatusCode, state: &Arc<str>) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        state.to_string(),
    )
        .into_response()
}

/// A new game.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"game": "nsolo", "size": 8, "opponent": "local"}))]
pub struct NewGame {
    #[schema(value_type = GameKind)]
    game: String,
    /// Nsolo: pits a row, 8 to 36 (default 8; ignored for Yoté).
    #[schema(minimum = 8, maximum = 36)]
    size: Option<u8>,
    /// Who plays against the creator (default `machine`).
    #[schema(value_type = Option<Opponent>)]
    opponent: Option<String>,
    /// The machine's level (default `debutant`).
    #[schema(value_type = Option<crate::openapi::shapes::LevelName>)]
    level: Option<String>,
    /// The creator's side (default `random`); none on one screen.
    #[schema(value_type = Option<crate::openapi::shapes::SideChoice>)]
    side: Option<String>,
    /// Online, a guest's name (a signed-in player is shown by their username).
    #[schema(max_length = 32)]
    name: Option<String>,
    /// Players a side: 1, or up to 6 for online Nsolo.
    #[schema(minimum = 1, maximum = 6)]
    team_size: Option<u8>,
    /// Only for games between people (default `none`).
    #[schema(value_type = Option<crate::openapi::shapes::TimeControlName>)]
    time_control: Option<String>,
    /// Online between two signed-in players: changes their ratings.
    rated: Option<bool>,
    /// The ratings a rated seek accepts from the player who joins it.
    #[schema(minimum = 0, maximum = 4000)]
    rating_min: Option<i64>,
    #[schema(minimum = 0, maximum = 4000)]
    rating_max: Option<i64>,
}

/// A game just created, and the creator's seat.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Created {
    id: String,
    /// The secret that plays the creator's side(s): `Authorization: Bearer <seat>`.
    seat: String,
    /// The creator's side (none on one screen).
    #[schema(required)]
    side: Option<Side>,
    /// Online: the page that invites the other players.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    invite: Option<String>,
    #[schema(value_type = crate::game::view::State)]
    state: Box<RawValue>,
}

fn bad(e: impl std::fmt::Display) -> AppError {
    AppError::BadRequest(e.to_string())
}

pub(crate) fn start_fen(kind: GameKind, size: u8) -> Result<(String, u8), AppError> {
    match kind {
        GameKind::Yote => Ok((yote::Position::START.to_string(), 5)),
        GameKind::Nsolo => nsolo::Position::start(size)
            .map(|p| (p.to_string(), size))
            .map_err(|_| bad(format!("size {size} is outside 8 to 36"))),
    }
}

fn chosen_side(kind: GameKind, asked: Option<&str>) -> Result<Side, AppError> {
    match asked.unwrap_or("random") {
        "random" => Ok(kind.sides()[usize::from(rand::random::<bool>())]),
        s => s
            .parse::<Side>()
            .ok()
            .and_then(|side| kind.side(side))
            .ok_or_else(|| {
                bad(format!(
                    "side {s:?} is not one of {:?} or random",
                    kind.sides()
                ))
            }),
    }
}

fn parse_level(level: Option<&str>, default: Level) -> Result<Level, AppError> {
    level.map_or(Ok(default), |l| l.parse().map_err(bad))
}

/// The ratings a rated seek accepts, if it limits them.
fn rating_range(req: &NewGame, rated: bool) -> Result<Option<(i64, i64)>, AppError> {
    match (req.rating_min, req.rating_max) {
        (None, None) => Ok(None),
        _ if !rated => Err(bad("a rating range is for rated games")),
        (min, max) => {
            let (min, max) = (min.unwrap_or(0), max.unwrap_or(4000));
            if min > max || !(0..=4000).contains(&min) || !(0..=4000).contains(&max) {
                return Err(bad(
                    "a rating range is rating_min <= rating_max, within 0 to 4000",
                ));
            }
            Ok(Some((min, max)))
        }
    }
}

/// A new game's row, its first member (online) and the creator's seat.
fn new_game(
    req: NewGame,
    viewer: &Viewer,
) -> Result<(GameRow, Option<Member>, String, Option<Side>), AppError> {
    let kind: GameKind = req.game.parse().map_err(bad)?;
    let (fen, size) = start_fen(kind, req.size.unwrap_or(8))?;
    let opponent: Opponent = req
        .opponent
        .as_deref()
        .unwrap_or("machine")
        .parse()
        .map_err(bad)?;
    let level = parse_level(req.level.as_deref(), Level::Debutant)?;
    let time_control: TimeControl = req
        .time_control
        .as_deref()
        .unwrap_or("none")
        .parse()
        .map_err(bad)?;
    if opponent == Opponent::Machine && time_control != TimeControl::None {
        return Err(bad("time controls are for games between people"));
    }
    let team_size = req.team_size.unwrap_or(1);
    if !(1..=6).contains(&team_size)
        || (team_size > 1 && (kind != GameKind::Nsolo || opponent != Opponent::Online))
    {
        return Err(bad("team_size is 1, or up to 6 for online Nsolo"));
    }
    let rated = req.rated.unwrap_or(false);
    if rated && (opponent != Opponent::Online || team_size != 1) {
        return Err(bad("rated games are online, one player a side"));
    }
    if rated && viewer.0.is_none() {
        return Err(AppError::SignInRequired);
    }
    let range = rating_range(&req, rated)?;
    let side = match opponent {
        Opponent::Machine | Opponent::Online => Some(chosen_side(kind, req.side.as_deref())?),
        Opponent::Local => None,
    };
    // Online, a signed-in player is shown by their username.
    let name = match (&viewer.0, opponent) {
        (_, Opponent::Machine | Opponent::Local) => String::new(),
        (Some(account), Opponent::Online) => account.username.clone(),
        (None, Opponent::Online) => display_name(req.name.as_deref().unwrap_or(""))?,
    };
    let seat = random_token(16);
    let first = match (opponent, side) {
        (Opponent::Online, Some(side)) => Some(Member {
            side,
            position: 0,
            name,
            seat_hash: seat_hash(&seat),
            account: viewer.id(),
            bot: viewer.0.as_ref().is_some_and(|a| a.bot),
        }),
        _ => None,
    };
    let online = opponent == Opponent::Online;
    let row = GameRow {
        id: random_token(6),
        kind,
        size,
        start_fen: fen,
        opponent,
        level,
        human: if online { None } else { side },
        seat_hash: seat_hash(&seat),
        ended: None,
        team_size,
        time_control,
        // Games against the machine or on one screen start at once.
        started_at_ms: (!online).then(crate::clock::now_ms),
        rematch_id: None,
        damaged: None,
        account: if online { None } else { viewer.id() },
        rated,
        rating_range: range,
        clock_credit_ms: 0,
    };
    Ok((row, first, seat, side))
}

/// The state of a game, freshly made by its owner.
async fn state_of(games: &Games, id: &str) -> Result<Arc<str>, AppError> {
    games.state(id).await
}

/// Creates a game: against the machine, on one screen, or online.
#[utoipa::path(
    post,
    path = "/api/games",
    operation_id = "createGame",
    tag = "games",
    request_body = NewGame,
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The game, with the creator's seat", body = Created),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError)
    )
)]
async fn create(
    State(app): State<AppState>,
    ip: ClientIp,
    viewer: Viewer,
    Body(req): Body<NewGame>,
) -> Result<(StatusCode, Json<Created>), AppError> {
    app.guards.creates.check(ip)?;
    let (row, first, seat, side) = new_game(req, &viewer)?;
    let id = row.id.clone();
    let invite = (row.opponent == Opponent::Online).then(|| format!("/partie/{id}/rejoindre"));
    app.games.create(row, first).await?;
    let state = state_of(&app.games, &id).await?;
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id,
            seat,
            side,
            invite,
            state: raw(&state),
        }),
    ))
}

/// A game's state.
#[utoipa::path(
    get,
    path = "/api/games/{id}",
    operation_id = "readGame",
    tag = "games",
    params(crate::openapi::GameId),
    responses(
        (status = 200, description = "The game's state", body = crate::game::view::State),
        (status = 404, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError)
    )
)]
async fn read(State(app): State<AppState>, Path(id): Path<String>) -> Result<Response, AppError> {
    Ok(state_response(
        StatusCode::OK,
        &state_of(&app.games, &id).await?,
    ))
}

/// A place asked for in an online game.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Kofi"}))]
pub struct JoinBody {
    /// A guest's name (a signed-in player is shown by their username).
    #[schema(max_length = 32)]
    name: Option<String>,
    /// The side to join (default: the first with a free place).
    #[schema(value_type = Option<Side>)]
    side: Option<String>,
}

/// A place taken in an online game.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct JoinedBody {
    /// The secret that plays this place: `Authorization: Bearer <seat>`.
    seat: String,
    side: Side,
    #[schema(value_type = crate::game::view::State)]
    state: Box<RawValue>,
}

/// Who `viewer` joins a game as: signed in, their account and ratings;
/// a guest, the name they give.
pub async fn joiner(
    app: &AppState,
    viewer: &Viewer,
    name: Option<&str>,
) -> Result<Joiner, AppError> {
    Ok(match &viewer.0 {
        Some(account) => Joiner {
            name: account.username.clone(),
            account: Some(account.id),
            bot: account.bot,
            ratings: app
                .store()
                .ratings(account.id)
                .await?
                .into_iter()
                .map(|(pool, r)| (pool, r.rating))
                .collect(),
            seat: None,
        },
        None => Joiner {
            name: name
                .ok_or_else(|| bad("a guest joins with a name"))?
                .to_owned(),
            account: None,
            bot: false,
            ratings: Vec::new(),
            seat: None,
        },
    })
}

/// Joins game `id` on `side` (or the first side with a free place).
pub async fn join_game(
    games: &Games,
    id: &str,
    joiner: Joiner,
    side: Option<Side>,
) -> Result<Joined, AppError> {
    games.join(id, joiner, side).await
}

/// Joins an online game, as a guest (with a name) or with one's account.
#[utoipa::path(
    post,
    path = "/api/games/{id}/join",
    operation_id = "joinGame",
    tag = "games",
    params(crate::openapi::GameId),
    request_body = JoinBody,
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The place taken, with its seat", body = JoinedBody),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError)
    )
)]
async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    ip: ClientIp,
    viewer: Viewer,
    Body(body): Body<JoinBody>,
) -> Result<(StatusCode, Json<JoinedBody>), AppError> {
    app.guards.joins.check(ip)?;
    let side = body
        .side
        .as_deref()
        .map(|s| s.parse::<Side>().map_err(bad))
        .transpose()?;
    let joiner = joiner(&app, &viewer, body.name.as_deref()).await?;
    let joined = join_game(&app.games, &id, joiner, side).await?;
    Ok((
        StatusCode::CREATED,
        Json(JoinedBody {
            seat: joined.seat,
            side: joined.side,
            state: raw(&joined.state),
        }),
    ))
}

/// Sends an action to game `id` for the player `key` shows.
pub async fn act(
    games: &Games,
    id: &str,
    key: Option<Key>,
    action: Action,
) -> Result<crate::game::Acted, AppError> {
    games.act(id, key, action).await
}

async fn act_http(
    app: &AppState,
    id: &str,
    key: Option<Key>,
    action: Action,
) -> Result<Response, AppError> {
    let acted = act(&app.games, id, key, action).await?;
    let status = match acted.done {
        Done::Moved => StatusCode::CREATED,
        _ => StatusCode::OK,
    };
    Ok(state_response(status, &acted.state))
}

/// A move, and the ply it is played at (a stale ply is refused).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"move": "c3", "ply": 0}))]
pub struct MoveBody {
    /// The move in rules.md's notation (`c3`, `b2-b4xd1`, `A3`).
    #[serde(rename = "move")]
    notation: String,
    /// Moves played before this one.
    ply: usize,
}

/// Plays a move for the seat's (or the account's) side.
#[utoipa::path(
    post,
    path = "/api/games/{id}/moves",
    operation_id = "playMove",
    tag = "games",
    params(crate::openapi::GameId),
    request_body = MoveBody,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The state after the move", body = crate::game::view::State),
        (status = 200, description = "The last move sent again (a retry): acknowledged, nothing played", body = crate::game::view::State),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 422, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError)
    )
)]
async fn play_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
    Body(body): Body<MoveBody>,
) -> Result<Response, AppError> {
    let action = Action::Move {
        notation: body.notation,
        ply: body.ply,
    };
    act_http(&app, &id, viewer.key(&headers), action).await
}

/// A resignation; on one screen, the side that resigns.
#[derive(Debug, Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResignBody {
    #[schema(value_type = Option<Side>)]
    side: Option<String>,
}

/// Resigns. The body may be empty.
#[utoipa::path(
    post,
    path = "/api/games/{id}/resign",
    operation_id = "resign",
    tag = "games",
    params(crate::openapi::GameId),
    request_body(content = ResignBody, description = "Optional (made so by `crate::openapi`): none, `{}`, or on one screen `{\"side\": …}`"),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The state after the resignation", body = crate::game::view::State),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError)
    )
)]
async fn resign(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    let body: ResignBody = optional_body(&body)?;
    let side = body
        .side
        .as_deref()
        .map(|s| s.parse::<Side>().map_err(bad))
        .transpose()?;
    act_http(&app, &id, viewer.key(&headers), Action::Resign { side }).await
}

/// A draw offer, or the answer to one.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"action": "offer"}))]
pub struct DrawBody {
    action: DrawAction,
}

/// Offers a draw, accepts or declines one.
#[utoipa::path(
    post,
    path = "/api/games/{id}/draw",
    operation_id = "draw",
    tag = "games",
    params(crate::openapi::GameId),
    request_body = DrawBody,
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The state after the offer or answer", body = crate::game::view::State),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 413, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError)
    )
)]
async fn draw(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
    Body(body): Body<DrawBody>,
) -> Result<Response, AppError> {
    act_http(&app, &id, viewer.key(&headers), Action::Draw(body.action)).await
}

/// Ends a game with no result before its first move.
#[utoipa::path(
    post,
    path = "/api/games/{id}/abort",
    operation_id = "abort",
    tag = "games",
    params(crate::openapi::GameId),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The aborted game's state", body = crate::game::view::State),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError)
    )
)]
async fn abort(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    act_http(&app, &id, viewer.key(&headers), Action::Abort).await
}

/// Online: starts a team game before every place is taken.
#[utoipa::path(
    post,
    path = "/api/games/{id}/start",
    operation_id = "start",
    tag = "games",
    params(crate::openapi::GameId),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The started game's state", body = crate::game::view::State),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError)
    )
)]
async fn start(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    act_http(&app, &id, viewer.key(&headers), Action::Start).await
}

/// Against the machine or on one screen: takes back to the person's last
/// turn (online, take-backs are offered on the live socket: 403).
#[utoipa::path(
    post,
    path = "/api/games/{id}/takeback",
    operation_id = "takeBack",
    tag = "games",
    params(crate::openapi::GameId),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The state after the take-back", body = crate::game::view::State),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError)
    )
)]
async fn take_back(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    act_http(&app, &id, viewer.key(&headers), Action::TakeBack).await
}

/// The rematch game and this member's seat in it: the first asker creates
/// it, the others join it.
pub async fn rematch(
    games: &Games,
    id: &str,
    key: Option<Key>,
) -> Result<(String, String), AppError> {
    match act(games, id, key, Action::Rematch).await?.done {
        Done::Rematch {
            id,
            seat,
            created: true,
            ..
        } => Ok((id, seat)),
        Done::Rematch {
            id,
            seat,
            created: false,
            side,
            name,
            account,
            bot,
        } => {
            let joiner = Joiner {
                name,
                account,
                bot,
                ratings: Vec::new(),
                seat: Some(seat),
            };
            let joined = join_game(games, &id, joiner, Some(side)).await?;
            Ok((id, joined.seat))
        }
        other => Err(AppError::Internal(anyhow::anyhow!(
            "rematch answered {other:?}"
        ))),
    }
}

/// Asks for a rematch of a finished game: the first to ask creates it,
/// the others join it.
#[utoipa::path(
    post,
    path = "/api/games/{id}/rematch",
    operation_id = "rematch",
    tag = "games",
    params(crate::openapi::GameId),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 201, description = "The rematch game and the asker's seat in it", body = crate::openapi::shapes::Rematch),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError)
    )
)]
async fn rematch_route(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<serde_json::Value>), AppError> {
    let (id, seat) = rematch(&app.games, &id, viewer.key(&headers)).await?;
    Ok((StatusCode::CREATED, Json(json!({ "id": id, "seat": seat }))))
}

/// How strong a hint is.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HintQuery {
    /// The engine's level (default `confirme`).
    #[param(value_type = Option<crate::openapi::shapes::LevelName>)]
    level: Option<String>,
}

/// Against the machine or on one screen: the move the engine suggests.
#[utoipa::path(
    get,
    path = "/api/games/{id}/hint",
    operation_id = "hint",
    tag = "games",
    params(crate::openapi::GameId, HintQuery),
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The suggested move", body = crate::openapi::shapes::Hint),
        (status = 400, response = crate::openapi::ApiError),
        (status = 401, response = crate::openapi::ApiError),
        (status = 403, response = crate::openapi::ApiError),
        (status = 404, response = crate::openapi::ApiError),
        (status = 409, response = crate::openapi::ApiError),
        (status = 429, response = crate::openapi::ApiError),
        (status = 503, response = crate::openapi::ApiError)
    )
)]
async fn hint(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
    ip: ClientIp,
    Query(q): Query<HintQuery>,
) -> Result<Json<serde_json::Value>, AppError> {
    app.guards.hints.check(ip)?;
    let level = parse_level(q.level.as_deref(), Level::Confirme)?;
    let best = app.games.hint(&id, viewer.key(&headers), level).await?;
    Ok(Json(json!({ "move": best })))
}
