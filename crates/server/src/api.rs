//! `/api/games`: create a game, join one, read it, move, resign, offer a
//! draw, abort, take back, ask for a hint. The work is done in
//! [`crate::actions`]; this module speaks HTTP.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use palabre_ai::player::think;
use palabre_ai::tt::Table;
use palabre_ai::{Level, Limits, Request as AiRequest, SearchLimit};
use palabre_rules::{nsolo, yote};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::actions::{self, Played, publish};
use crate::clock::TimeControl;
use crate::error::AppError;
use crate::seats::{Role, authorise, random_token, seat_hash};
use crate::session::sides;
use crate::state::AppState;
use crate::store::GameRow;
use crate::view::{self, State as GameState};

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
        .route("/api/games/{id}/takeback", post(takeback))
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

#[derive(Debug, serde::Serialize)]
pub struct Created {
    id: String,
    seat: String,
    side: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<String>,
    state: GameState,
}

fn start_fen(game: &str, size: u8) -> Result<(String, u8), AppError> {
    match game {
        "yote" => Ok((yote::Position::START.to_string(), 5)),
        "nsolo" => nsolo::Position::start(size)
            .map(|p| (p.to_string(), size))
            .map_err(|_| AppError::BadRequest(format!("size {size} is outside 8 to 36"))),
        other => Err(AppError::BadRequest(format!(
            "unknown game {other:?} (yote, nsolo)"
        ))),
    }
}

fn chosen_side(game: &str, asked: Option<&str>) -> Result<String, AppError> {
    let sides = sides(game);
    match asked.unwrap_or("random") {
        "random" => Ok(sides[usize::from(rand::random::<bool>())].to_owned()),
        s if sides.contains(&s) => Ok(s.to_owned()),
        s => Err(AppError::BadRequest(format!(
            "side {s:?} is not one of {sides:?} or random"
        ))),
    }
}

fn parse_level(level: Option<&str>, default: &str) -> Result<Level, AppError> {
    level
        .unwrap_or(default)
        .parse()
        .map_err(|e: palabre_ai::level::UnknownLevel| AppError::BadRequest(e.to_string()))
}

async fn create(
    State(app): State<AppState>,
    Body(req): Body<NewGame>,
) -> Result<(StatusCode, Json<Created>), AppError> {
    let (fen, size) = start_fen(&req.game, req.size.unwrap_or(8))?;
    let opponent = req.opponent.unwrap_or_else(|| "machine".into());
    let level = parse_level(req.level.as_deref(), "debutant")?;
    let control = req.time_control.as_deref().unwrap_or("none");
    control
        .parse::<TimeControl>()
        .map_err(AppError::BadRequest)?;
    let team_size = req.team_size.unwrap_or(1);
    if !(1..=6).contains(&team_size)
        || (team_size > 1 && (req.game != "nsolo" || opponent != "online"))
    {
        return Err(AppError::BadRequest(
            "team_size is 1, or up to 6 for online Nsolo".into(),
        ));
    }
    let side = match opponent.as_str() {
        "machine" | "online" => Some(chosen_side(&req.game, req.side.as_deref())?),
        "local" => None,
        other => {
            return Err(AppError::BadRequest(format!(
                "opponent {other:?} is not machine, local or online"
            )));
        }
    };
    let online = opponent == "online";
    let creator = match (online, &side) {
        (true, Some(side)) => Some((
            actions::display_name(req.name.as_deref().unwrap_or(""))?,
            side.clone(),
        )),
        _ => None,
    };
    let seat = random_token(16);
    let row = GameRow {
        id: random_token(6),
        game: req.game,
        size,
        start_fen: fen,
        opponent,
        level: level.to_string(),
        human: if online { None } else { side.clone() },
        seat_hash: seat_hash(&seat),
        ended_winner: None,
        ended_reason: None,
        team_size,
        time_control: control.to_owned(),
        started_at_ms: None,
        rematch_id: None,
    };
    let session = actions::create(&app, row.clone(), creator, &seat).await?;
    crate::machine::reply_if_due(&app, &session).await;
    let state = view::state(&*session.lock().await);
    let invite = online.then(|| format!("/partie/{}/rejoindre", row.id));
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id: row.id,
            seat,
            side,
            invite,
            state,
        }),
    ))
}

async fn read(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameState>, AppError> {
    let session = app.session(&id).await?;
    let s = session.lock().await;
    Ok(Json(view::state(&s)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    name: String,
    side: Option<String>,
}

#[derive(Debug, serde::Serialize)]
pub struct Joined {
    seat: String,
    side: String,
    state: GameState,
}

async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Body(body): Body<JoinBody>,
) -> Result<(StatusCode, Json<Joined>), AppError> {
    let session = app.session(&id).await?;
    let (seat, side) = actions::join(&app, &session, &body.name, body.side.as_deref()).await?;
    let state = view::state(&*session.lock().await);
    Ok((StatusCode::CREATED, Json(Joined { seat, side, state })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    #[serde(rename = "move")]
    notation: String,
    ply: usize,
}

async fn role_in(
    app: &AppState,
    id: &str,
    headers: &HeaderMap,
) -> Result<(crate::state::SharedSession, Role), AppError> {
    let session = app.session(id).await?;
    let role = authorise(headers, &*session.lock().await)?;
    Ok((session, role))
}

async fn play_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<MoveBody>,
) -> Result<(StatusCode, Json<GameState>), AppError> {
    let (session, role) = role_in(&app, &id, &headers).await?;
    let played = actions::play(&app, &session, &role, &body.notation, body.ply).await?;
    let status = if played == Played::New {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(view::state(&*session.lock().await))))
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
) -> Result<Json<GameState>, AppError> {
    let body: ResignBody = optional_body(&body)?;
    let (session, role) = role_in(&app, &id, &headers).await?;
    actions::resign(&app, &session, &role, body.side).await?;
    Ok(Json(view::state(&*session.lock().await)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawBody {
    action: String,
}

async fn draw(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<DrawBody>,
) -> Result<Json<GameState>, AppError> {
    let (session, role) = role_in(&app, &id, &headers).await?;
    actions::draw(&app, &session, &role, &body.action).await?;
    Ok(Json(view::state(&*session.lock().await)))
}

async fn abort(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, AppError> {
    let (session, _) = role_in(&app, &id, &headers).await?;
    actions::abort(&app, &session).await?;
    Ok(Json(view::state(&*session.lock().await)))
}

async fn start(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, AppError> {
    let (session, _) = role_in(&app, &id, &headers).await?;
    actions::start(&app, &session).await?;
    Ok(Json(view::state(&*session.lock().await)))
}

/// Against the machine: back to the human's previous turn; on one screen:
/// one ply back. A game ended by the position can be taken back too.
async fn takeback(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, AppError> {
    let (session, role) = role_in(&app, &id, &headers).await?;
    if role != Role::Owner {
        return Err(AppError::BadRequest(
            "take-backs are for games against the machine or on one screen".into(),
        ));
    }
    let mut s = session.lock().await;
    if s.ended.is_some() {
        return Err(AppError::GameOver);
    }
    // Two plies when it is the human's turn (the machine's reply and the
    // human's move), one otherwise.
    let back = match &s.row.human {
        Some(human) if s.play.turn() == *human => 2,
        _ => 1,
    };
    let target = s
        .play
        .ply()
        .checked_sub(back)
        .ok_or(AppError::NothingToTakeBack)?;
    app.store.truncate_moves(&id, target).await?;
    app.store.set_result(&id, None).await?;
    for _ in 0..back {
        s.play.undo();
    }
    actions::stop_machine(&mut s);
    s.draw_offer = None;
    s.draw_declined = false;
    publish(&s);
    Ok(Json(view::state(&s)))
}

#[derive(Debug, Deserialize)]
pub struct HintQuery {
    level: Option<String>,
}

async fn hint(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<HintQuery>,
) -> Result<Json<serde_json::Value>, AppError> {
    let (session, role) = role_in(&app, &id, &headers).await?;
    let level = parse_level(q.level.as_deref(), "confirme")?;
    let (position, history) = {
        let s = session.lock().await;
        if s.result().is_some() {
            return Err(AppError::GameOver);
        }
        if s.machine_to_move() || (s.is_online() && role == Role::Owner) {
            return Err(AppError::NotYourTurn);
        }
        s.play.for_ai()
    };
    let params = (*app.params).clone();
    let thought = tokio::task::spawn_blocking(move || {
        let limits = Limits::new().with(SearchLimit::MoveTime(Duration::from_millis(1000)));
        let req = AiRequest {
            position,
            history,
            level,
            limits,
            seed: 0,
        };
        let mut tt = Table::new(16);
        think(&req, &params, &mut tt, &AtomicBool::new(false), |_| {})
    })
    .await
    .map_err(|e| AppError::Internal(e.into()))?;
    Ok(Json(
        serde_json::json!({ "move": thought.best.map(|m| m.to_string()) }),
    ))
}
