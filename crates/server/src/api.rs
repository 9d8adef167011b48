//! `/api/games`: create a game, read it, move, resign, offer a draw, take
//! back, ask for a hint. Every refusal changes nothing.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::{get, post};
use axum::{Json, Router};
use palabre_ai::player::{accepts_draw, think};
use palabre_ai::tt::Table;
use palabre_ai::{Level, Limits, Request as AiRequest, SearchLimit};
use palabre_rules::{nsolo, yote};
use rand::Rng;
use rand::rngs::OsRng;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

use crate::error::AppError;
use crate::session::{Ended, MoveError, Session};
use crate::state::{AppState, SharedSession};
use crate::store::GameRow;
use crate::view::{self, State as GameState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(read))
        .route("/api/games/{id}/moves", post(play_move))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
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
            Err(r) => Err(AppError::BadRequest(rejection_message(&r))),
        }
    }
}

fn rejection_message(r: &JsonRejection) -> String {
    r.body_text()
}

fn random_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    OsRng.fill(&mut buf[..]);
    hex::encode(buf)
}

fn seat_hash(seat: &str) -> String {
    hex::encode(Sha256::digest(seat.as_bytes()))
}

/// Checks the bearer seat against the game's.
fn authorise(headers: &HeaderMap, session: &Session) -> Result<(), AppError> {
    let value = headers
        .get(header::AUTHORIZATION)
        .ok_or(AppError::MissingSeat)?;
    let seat = value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or(AppError::MissingSeat)?;
    if seat_hash(seat.trim()) == session.row.seat_hash {
        Ok(())
    } else {
        Err(AppError::WrongSeat)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    game: String,
    #[serde(default)]
    size: Option<u8>,
    #[serde(default)]
    opponent: Option<String>,
    #[serde(default)]
    level: Option<String>,
    #[serde(default)]
    side: Option<String>,
}

#[derive(Debug, serde::Serialize)]
pub struct Created {
    id: String,
    seat: String,
    side: Option<String>,
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

fn human_side(game: &str, asked: Option<&str>) -> Result<String, AppError> {
    let sides = if game == "yote" {
        ["red", "black"]
    } else {
        ["south", "north"]
    };
    match asked.unwrap_or("random") {
        "random" => Ok(sides[usize::from(rand::random::<bool>())].to_owned()),
        s if sides.contains(&s) => Ok(s.to_owned()),
        s => Err(AppError::BadRequest(format!(
            "side {s:?} is not one of {sides:?} or random"
        ))),
    }
}

async fn create(
    State(app): State<AppState>,
    Body(req): Body<NewGame>,
) -> Result<(StatusCode, Json<Created>), AppError> {
    let (fen, size) = start_fen(&req.game, req.size.unwrap_or(8))?;
    let opponent = req.opponent.unwrap_or_else(|| "machine".into());
    let level: Level = req
        .level
        .as_deref()
        .unwrap_or("debutant")
        .parse()
        .map_err(|e: palabre_ai::level::UnknownLevel| AppError::BadRequest(e.to_string()))?;
    let human = match opponent.as_str() {
        "machine" => Some(human_side(&req.game, req.side.as_deref())?),
        "local" => None,
        other => {
            return Err(AppError::BadRequest(format!(
                "opponent {other:?} is not machine or local"
            )));
        }
    };
    let seat = random_token(16);
    let row = GameRow {
        id: random_token(6),
        game: req.game,
        size,
        start_fen: fen,
        opponent,
        level: level.to_string(),
        human: human.clone(),
        seat_hash: seat_hash(&seat),
        ended_winner: None,
        ended_reason: None,
    };
    app.store.insert_game(&row).await?;
    let session = app.session(&row.id).await?;
    crate::machine::reply_if_due(&app, &session).await;
    let state = view::state(&*session.lock().await);
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id: row.id,
            seat,
            side: human,
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
pub struct MoveBody {
    #[serde(rename = "move")]
    notation: String,
    ply: usize,
}

/// Broadcasts the session's state to its event streams.
pub fn publish(s: &Session) {
    if let Ok(json) = serde_json::to_string(&view::state(s)) {
        let _ = s.events.send(json.into());
    }
}

async fn play_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(body): Body<MoveBody>,
) -> Result<(StatusCode, Json<GameState>), AppError> {
    let session = app.session(&id).await?;
    {
        let mut s = session.lock().await;
        authorise(&headers, &s)?;
        if s.result().is_some() {
            return Err(AppError::GameOver);
        }
        if s.machine_to_move() {
            return Err(AppError::NotYourTurn);
        }
        let current = s.play.ply();
        if body.ply != current {
            return Err(AppError::StalePly {
                current,
                given: body.ply,
            });
        }
        s.play.check(&body.notation).map_err(|e| match e {
            MoveError::Malformed(m) => AppError::MalformedMove(m),
            MoveError::Illegal(m) => AppError::IllegalMove(m),
        })?;
        app.store.append_move(&id, current, &body.notation).await?;
        s.play
            .play(&body.notation)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("{e:?}")))?;
        s.draw_offer = None;
        s.draw_declined = false;
        publish(&s);
    }
    crate::machine::reply_if_due(&app, &session).await;
    let s = session.lock().await;
    Ok((StatusCode::CREATED, Json(view::state(&s))))
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ResignBody {
    side: Option<String>,
}

async fn end_game(app: &AppState, s: &mut Session, ended: Ended) -> Result<(), AppError> {
    app.store
        .set_ended(&s.row.id, ended.winner.as_deref(), &ended.reason)
        .await?;
    s.ended = Some(ended);
    s.draw_offer = None;
    if let Some(stop) = s.stop.take() {
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
    }
    s.thinking = false;
    publish(s);
    Ok(())
}

fn other_side(side: &str) -> &'static str {
    match side {
        "red" => "black",
        "black" => "red",
        "south" => "north",
        _ => "south",
    }
}

async fn locked_open_game(
    app: &AppState,
    id: &str,
    headers: &HeaderMap,
) -> Result<SharedSession, AppError> {
    let session = app.session(id).await?;
    let s = session.lock().await;
    authorise(headers, &s)?;
    if s.result().is_some() {
        return Err(AppError::GameOver);
    }
    drop(s);
    Ok(session)
}

async fn resign(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<GameState>, AppError> {
    // The body is optional: `{}` or nothing at all.
    let body: ResignBody = if body.iter().all(u8::is_ascii_whitespace) {
        ResignBody::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| AppError::BadRequest(e.to_string()))?
    };
    let session = locked_open_game(&app, &id, &headers).await?;
    let mut s = session.lock().await;
    let loser = match (&s.row.human, body.side) {
        (Some(human), _) => human.clone(),
        (None, Some(side))
            if [s.play.turn().as_str(), other_side(&s.play.turn())].contains(&side.as_str()) =>
        {
            side
        }
        (None, Some(side)) => {
            return Err(AppError::BadRequest(format!(
                "no side {side:?} in this game"
            )));
        }
        (None, None) => s.play.turn(),
    };
    let ended = Ended {
        winner: Some(other_side(&loser).to_owned()),
        reason: "resignation".into(),
    };
    end_game(&app, &mut s, ended).await?;
    Ok(Json(view::state(&s)))
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
    let session = locked_open_game(&app, &id, &headers).await?;
    let agreed = Ended {
        winner: None,
        reason: "agreement".into(),
    };
    if s_is_machine(&session).await && body.action == "offer" {
        let (position, history) = session.lock().await.play.for_ai();
        let params = (*app.params).clone();
        let accepted =
            tokio::task::spawn_blocking(move || accepts_draw(&position, &history, &params))
                .await
                .map_err(|e| AppError::Internal(e.into()))?;
        let mut s = session.lock().await;
        if accepted {
            end_game(&app, &mut s, agreed).await?;
        } else {
            s.draw_declined = true;
            publish(&s);
        }
        return Ok(Json(view::state(&s)));
    }
    let mut s = session.lock().await;
    match (body.action.as_str(), s.draw_offer.is_some()) {
        ("offer", _) => {
            s.draw_offer = Some(s.play.turn());
            s.draw_declined = false;
            publish(&s);
        }
        ("accept", true) => end_game(&app, &mut s, agreed).await?,
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
    Ok(Json(view::state(&s)))
}

async fn s_is_machine(session: &SharedSession) -> bool {
    session.lock().await.row.human.is_some()
}

/// Against the machine: back to the human's previous turn; on one screen:
/// one ply back. A game ended by the position can be taken back too.
async fn takeback(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameState>, AppError> {
    let session = app.session(&id).await?;
    let mut s = session.lock().await;
    authorise(&headers, &s)?;
    if s.ended.is_some() {
        return Err(AppError::GameOver);
    }
    // Back to the human's previous turn: two plies when it is the human's
    // turn (the machine's reply and the human's move), one otherwise.
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
    for _ in 0..back {
        s.play.undo();
    }
    if let Some(stop) = s.stop.take() {
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
    }
    s.thinking = false;
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
    let session = locked_open_game(&app, &id, &headers).await?;
    let level: Level = q
        .level
        .as_deref()
        .unwrap_or("confirme")
        .parse()
        .map_err(|e: palabre_ai::level::UnknownLevel| AppError::BadRequest(e.to_string()))?;
    let (position, history) = {
        let s = session.lock().await;
        if s.machine_to_move() {
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
