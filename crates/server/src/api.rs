//! `/api/games`: create a game, join one, read it, move, resign, offer a
//! draw, abort, start, take back, ask for a rematch or a hint. Every change
//! is a command to the game's owner ([`crate::game`]); this module speaks
//! HTTP.

use std::sync::Arc;

use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use palabre_ai::Level;
use palabre_rules::{nsolo, yote};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    game: String,
    size: Option<u8>,
    opponent: Option<String>,
    level: Option<String>,
    side: Option<String>,
    name: Option<String>,
    team_size: Option<u8>,
    time_control: Option<String>,
    /// Online between two signed-in players: changes their ratings.
    rated: Option<bool>,
    /// The ratings a rated seek accepts from the player who joins it.
    rating_min: Option<i64>,
    rating_max: Option<i64>,
}

#[derive(Debug, Serialize)]
pub struct Created {
    id: String,
    seat: String,
    side: Option<Side>,
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<String>,
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
    };
    Ok((row, first, seat, side))
}

/// The state of a game, freshly made by its owner.
async fn state_of(games: &Games, id: &str) -> Result<Arc<str>, AppError> {
    games.state(id).await
}

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

async fn read(State(app): State<AppState>, Path(id): Path<String>) -> Result<Response, AppError> {
    Ok(state_response(
        StatusCode::OK,
        &state_of(&app.games, &id).await?,
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    /// A guest's name (a signed-in player is shown by their username).
    name: Option<String>,
    side: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct JoinedBody {
    seat: String,
    side: Side,
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
        },
        None => Joiner {
            name: name
                .ok_or_else(|| bad("a guest joins with a name"))?
                .to_owned(),
            account: None,
            bot: false,
            ratings: Vec::new(),
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    #[serde(rename = "move")]
    notation: String,
    ply: usize,
}

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

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ResignBody {
    side: Option<String>,
}

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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawBody {
    action: DrawAction,
}

async fn draw(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
    Body(body): Body<DrawBody>,
) -> Result<Response, AppError> {
    act_http(&app, &id, viewer.key(&headers), Action::Draw(body.action)).await
}

async fn abort(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    act_http(&app, &id, viewer.key(&headers), Action::Abort).await
}

async fn start(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    act_http(&app, &id, viewer.key(&headers), Action::Start).await
}

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
            seat: Some(seat),
            ..
        } => Ok((id, seat)),
        Done::Rematch {
            id,
            seat: None,
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
            };
            let joined = join_game(games, &id, joiner, Some(side)).await?;
            Ok((id, joined.seat))
        }
        other => Err(AppError::Internal(anyhow::anyhow!(
            "rematch answered {other:?}"
        ))),
    }
}

async fn rematch_route(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<serde_json::Value>), AppError> {
    let (id, seat) = rematch(&app.games, &id, viewer.key(&headers)).await?;
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({ "id": id, "seat": seat })),
    ))
}

#[derive(Debug, Deserialize)]
pub struct HintQuery {
    level: Option<String>,
}

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
    Ok(Json(serde_json::json!({ "move": best })))
}
