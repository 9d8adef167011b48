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

use crate::clock::TimeControl;
use crate::domain::{GameKind, Opponent, Side};
use crate::error::AppError;
use crate::game::{Action, Done, DrawAction, Games, Joined};
use crate::guards::ClientIp;
use crate::names::display_name;
use crate::seats::{bearer, random_token, seat_hash};
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

/// A new game's row, its first member (online) and the creator's seat.
fn new_game(req: NewGame) -> Result<(GameRow, Option<Member>, String, Option<Side>), AppError> {
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
    let side = match opponent {
        Opponent::Machine | Opponent::Online => Some(chosen_side(kind, req.side.as_deref())?),
        Opponent::Local => None,
    };
    let seat = random_token(16);
    let first = match (opponent, side) {
        (Opponent::Online, Some(side)) => Some(Member {
            side,
            position: 0,
            name: display_name(req.name.as_deref().unwrap_or(""))?,
            seat_hash: seat_hash(&seat),
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
    Body(req): Body<NewGame>,
) -> Result<(StatusCode, Json<Created>), AppError> {
    app.guards.creates.check(ip)?;
    let (row, first, seat, side) = new_game(req)?;
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
    name: String,
    side: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct JoinedBody {
    seat: String,
    side: Side,
    state: Box<RawValue>,
}

/// Joins game `id` on `side` (or the first side with a free place).
pub async fn join_game(
    games: &Games,
    id: &str,
    name: &str,
    side: Option<Side>,
) -> Result<Joined, AppError> {
    games.join(id, name.to_owned(), side).await
}

async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    ip: ClientIp,
    Body(body): Body<JoinBody>,
) -> Result<(StatusCode, Json<JoinedBody>), AppError> {
    app.guards.joins.check(ip)?;
    let side = body
        .side
        .as_deref()
        .map(|s| s.parse::<Side>().map_err(bad))
        .transpose()?;
    let joined = join_game(&app.games, &id, &body.name, side).await?;
    Ok((
        StatusCode::CREATED,
        Json(JoinedBody {
            seat: joined.seat,
            side: joined.side,
            state: raw(&joined.state),
        }),
    ))
}

/// Sends an action to game `id` for the seat in `seat`.
pub async fn act(
    games: &Games,
    id: &str,
    seat: Option<String>,
    action: Action,
) -> Result<crate::game::Acted, AppError> {
    games.act(id, seat, action).await
}

async fn act_http(
    app: &AppState,
    id: &str,
    headers: &HeaderMap,
    action: Action,
) -> Result<Response, AppError> {
    let acted = act(&app.games, id, bearer(headers), action).await?;
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
    headers: HeaderMap,
    Body(body): Body<MoveBody>,
) -> Result<Response, AppError> {
    let action = Action::Move {
        notation: body.notation,
        ply: body.ply,
    };
    act_http(&app, &id, &headers, action).await
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ResignBody {
    side: Option<String>,
}

async fn resign(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    let body: ResignBody = optional_body(&body)?;
    let side = body
        .side
        .as_deref()
        .map(|s| s.parse::<Side>().map_err(bad))
        .transpose()?;
    act_http(&app, &id, &headers, Action::Resign { side }).await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawBody {
    action: DrawAction,
}

async fn draw(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<DrawBody>,
) -> Result<Response, AppError> {
    act_http(&app, &id, &headers, Action::Draw(body.action)).await
}

async fn abort(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    act_http(&app, &id, &headers, Action::Abort).await
}

async fn start(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    act_http(&app, &id, &headers, Action::Start).await
}

async fn take_back(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    act_http(&app, &id, &headers, Action::TakeBack).await
}

/// The rematch game and this member's seat in it: the first asker creates
/// it, the others join it.
pub async fn rematch(
    games: &Games,
    id: &str,
    seat: Option<String>,
) -> Result<(String, String), AppError> {
    match act(games, id, seat, Action::Rematch).await?.done {
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
        } => {
            let joined = join_game(games, &id, &name, Some(side)).await?;
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
    headers: HeaderMap,
) -> Result<(StatusCode, Json<serde_json::Value>), AppError> {
    let (id, seat) = rematch(&app.games, &id, bearer(&headers)).await?;
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
    headers: HeaderMap,
    ip: ClientIp,
    Query(q): Query<HintQuery>,
) -> Result<Json<serde_json::Value>, AppError> {
    app.guards.hints.check(ip)?;
    let level = parse_level(q.level.as_deref(), Level::Confirme)?;
    let best = app.games.hint(&id, bearer(&headers), level).await?;
    Ok(Json(serde_json::json!({ "move": best })))
}
