//! The one error type of the server: a status, a string code and a message.
//! Internal faults are logged with their details and answered with a bare
//! `internal` code.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    MalformedMove(String),
    #[error("missing Authorization: Bearer <seat>")]
    MissingSeat,
    #[error("this seat does not play this game")]
    WrongSeat,
    #[error("no such game")]
    NotFound,
    #[error("the game is at ply {current}, not {given}")]
    StalePly { current: usize, given: usize },
    #[error("the machine is to move")]
    NotYourTurn,
    #[error("the game is over")]
    GameOver,
    #[error("no draw offer is pending")]
    NoDrawOffer,
    #[error("nothing to take back")]
    NothingToTakeBack,
    #[error("request body too large")]
    TooLarge,
    #[error("the game waits for its players")]
    NotStarted,
    #[error("the game has started")]
    AlreadyStarted,
    #[error("every place is taken")]
    GameFull,
    #[error("it is {0}'s hand")]
    NotYourHand(String),
    #[error("too many messages")]
    RateLimited,
    #[error("{0}")]
    IllegalMove(String),
    #[error("the machine is busy, try again")]
    Busy,
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl AppError {
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) | AppError::MalformedMove(_) => StatusCode::BAD_REQUEST,
            AppError::MissingSeat => StatusCode::UNAUTHORIZED,
            AppError::WrongSeat => StatusCode::FORBIDDEN,
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::StalePly { .. }
            | AppError::NotYourTurn
            | AppError::GameOver
            | AppError::NoDrawOffer
            | AppError::NothingToTakeBack
            | AppError::NotStarted
            | AppError::AlreadyStarted
            | AppError::GameFull
            | AppError::NotYourHand(_) => StatusCode::CONFLICT,
            AppError::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            AppError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::IllegalMove(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Busy => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            AppError::BadRequest(_) => "bad_request",
            AppError::MalformedMove(_) => "malformed_move",
            AppError::MissingSeat => "missing_seat",
            AppError::WrongSeat => "wrong_seat",
            AppError::NotFound => "not_found",
            AppError::StalePly { .. } => "stale_ply",
            AppError::NotYourTurn => "not_your_turn",
            AppError::GameOver => "game_over",
            AppError::NoDrawOffer => "no_draw_offer",
            AppError::NothingToTakeBack => "nothing_to_take_back",
            AppError::TooLarge => "too_large",
            AppError::NotStarted => "not_started",
            AppError::AlreadyStarted => "already_started",
            AppError::GameFull => "game_full",
            AppError::NotYourHand(_) => "not_your_hand",
            AppError::RateLimited => "rate_limited",
            AppError::IllegalMove(_) => "illegal_move",
            AppError::Busy => "busy",
            AppError::Internal(_) => "internal",
        }
    }
}

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> AppError {
        AppError::Internal(e.into())
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let message = match &self {
            AppError::Internal(e) => {
                tracing::error!("internal error: {e:#}");
                "internal error".to_owned()
            }
            other => other.to_string(),
        };
        let body = json!({ "error": { "code": self.code(), "message": message } });
        (self.status(), Json(body)).into_response()
    }
}
