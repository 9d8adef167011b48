//! The one error type of the server: a status, a string code and a message.
//! Internal faults are logged with their details and answered with a bare
//! `internal` code, over HTTP and over the live socket alike.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
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
    #[error("this page's origin may not use this server")]
    ForbiddenOrigin,
    #[error("{0}")]
    Forbidden(&'static str),
    #[error("no such game")]
    NotFound,
    #[error("this server has no endgame tables")]
    NoTables,
    #[error("the game is at ply {current}, not {given}")]
    StalePly { current: usize, given: usize },
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("the game is over")]
    GameOver,
    #[error("no draw offer is pending")]
    NoDrawOffer,
    #[error("nothing to take back")]
    NothingToTakeBack,
    #[error("no take-back offer is pending")]
    NoTakebackOffer,
    #[error("the other side's take-back offer waits for an answer")]
    TakebackPending,
    #[error("the take-back offer pending is the one made at ply {current}, not {given}")]
    StaleTakeback { current: usize, given: usize },
    #[error("request too large")]
    TooLarge,
    #[error("the game waits for its players")]
    NotStarted,
    #[error("the game has started")]
    AlreadyStarted,
    #[error("every place is taken")]
    GameFull,
    #[error("you already have a place in this game")]
    AlreadySeated,
    #[error("sign in first")]
    SignInRequired,
    #[error("your rating {rating} is outside this seek's {min}–{max}")]
    RatingOutOfRange { rating: i64, min: i64, max: i64 },
    #[error("wrong username or password")]
    WrongCredentials,
    #[error("this username is taken")]
    NameTaken,
    #[error("a request from another site was refused")]
    Csrf,
    #[error("this token is unknown or revoked")]
    BadToken,
    #[error("not allowed in a rated game")]
    RatedGame,
    #[error("this challenge was answered already")]
    ChallengeAnswered,
    #[error("it is {0}'s hand")]
    NotYourHand(String),
    #[error("the stored moves of this game do not replay; it is kept read-only")]
    Damaged,
    #[error("too many requests, try again in {0} s")]
    RateLimited(u64),
    #[error("too many connections")]
    TooManyConnections,
    #[error("{0}")]
    IllegalMove(String),
    #[error("the machine is busy, try again in {0} s")]
    Busy(u64),
    /// The database or the bus between nodes cannot be reached, or the
    /// node holds as many games in memory as it may: nothing was done.
    #[error("the service is unavailable, try again in {0} s")]
    Unavailable(u64),
    /// This node lost the game to another (a cluster's lease): the request
    /// is tried again on the new owner.
    #[error("the game moved to another node")]
    Moved,
    /// An error answered by the node that owns the game, passed on as it was.
    #[error("{message}")]
    Relayed {
        status: u16,
        code: String,
        message: String,
        retry_after: Option<u64>,
    },
    /// Another error with an object that says more (which move of an
    /// imported record, and why), for a page to word in its own language.
    #[error("{error}")]
    Detailed {
        error: Box<AppError>,
        details: serde_json::Value,
    },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl AppError {
    /// This error, with `details` next to its code and message.
    pub fn with_details(self, details: serde_json::Value) -> AppError {
        AppError::Detailed {
            error: Box::new(self),
            details,
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            AppError::Detailed { error, .. } => error.status(),
            AppError::BadRequest(_) | AppError::MalformedMove(_) => StatusCode::BAD_REQUEST,
            AppError::MissingSeat
            | AppError::SignInRequired
            | AppError::WrongCredentials
            | AppError::BadToken => StatusCode::UNAUTHORIZED,
            AppError::Csrf | AppError::RatingOutOfRange { .. } => StatusCode::FORBIDDEN,
            AppError::AlreadySeated
            | AppError::NameTaken
            | AppError::RatedGame
            | AppError::ChallengeAnswered => StatusCode::CONFLICT,
            AppError::WrongSeat | AppError::ForbiddenOrigin | AppError::Forbidden(_) => {
                StatusCode::FORBIDDEN
            }
            AppError::NotFound | AppError::NoTables => StatusCode::NOT_FOUND,
            AppError::StalePly { .. }
            | AppError::NotYourTurn
            | AppError::GameOver
            | AppError::NoDrawOffer
            | AppError::NothingToTakeBack
            | AppError::NoTakebackOffer
            | AppError::TakebackPending
            | AppError::StaleTakeback { .. }
            | AppError::NotStarted
            | AppError::AlreadyStarted
            | AppError::GameFull
            | AppError::NotYourHand(_)
            | AppError::Damaged => StatusCode::CONFLICT,
            AppError::RateLimited(_) | AppError::TooManyConnections => {
                StatusCode::TOO_MANY_REQUESTS
            }
            AppError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::IllegalMove(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Busy(_) | AppError::Unavailable(_) | AppError::Moved => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            AppError::Relayed { status, .. } => {
                StatusCode::from_u16(*status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            }
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &str {
        match self {
            AppError::Detailed { error, .. } => error.code(),
            AppError::BadRequest(_) => "bad_request",
            AppError::MalformedMove(_) => "malformed_move",
            AppError::MissingSeat => "missing_seat",
            AppError::WrongSeat => "wrong_seat",
            AppError::ForbiddenOrigin => "forbidden_origin",
            AppError::Forbidden(_) => "forbidden",
            AppError::NotFound => "not_found",
            AppError::NoTables => "no_tables",
            AppError::StalePly { .. } => "stale_ply",
            AppError::NotYourTurn => "not_your_turn",
            AppError::GameOver => "game_over",
            AppError::NoDrawOffer => "no_draw_offer",
            AppError::NothingToTakeBack => "nothing_to_take_back",
            AppError::NoTakebackOffer => "no_takeback_offer",
            AppError::TakebackPending => "takeback_pending",
            AppError::StaleTakeback { .. } => "stale_takeback",
            AppError::TooLarge => "too_large",
            AppError::NotStarted => "not_started",
            AppError::AlreadyStarted => "already_started",
            AppError::GameFull => "game_full",
            AppError::AlreadySeated => "already_seated",
            AppError::SignInRequired => "sign_in_required",
            AppError::RatingOutOfRange { .. } => "rating_out_of_range",
            AppError::WrongCredentials => "wrong_credentials",
            AppError::NameTaken => "name_taken",
            AppError::Csrf => "csrf",
            AppError::BadToken => "bad_token",
            AppError::RatedGame => "rated_game",
            AppError::ChallengeAnswered => "challenge_answered",
            AppError::NotYourHand(_) => "not_your_hand",
            AppError::Damaged => "damaged",
            AppError::RateLimited(_) => "rate_limited",
            AppError::TooManyConnections => "too_many_connections",
            AppError::IllegalMove(_) => "illegal_move",
            AppError::Busy(_) => "busy",
            AppError::Unavailable(_) => "unavailable",
            AppError::Moved => "moved",
            AppError::Relayed { code, .. } => code,
            AppError::Internal(_) => "internal",
        }
    }

    /// Seconds after which a refused request may be tried again.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            AppError::RateLimited(s) | AppError::Busy(s) | AppError::Unavailable(s) => Some(*s),
            AppError::Moved => Some(1),
            AppError::Relayed { retry_after, .. } => *retry_after,
            AppError::Detailed { error, .. } => error.retry_after(),
            AppError::TooManyConnections => Some(5),
            _ => None,
        }
    }

    /// The message a client may see: internal details are logged, not shown.
    pub fn public_message(&self) -> String {
        match self {
            AppError::Internal(e) => {
                tracing::error!("internal error: {e:#}");
                "internal error".to_owned()
            }
            AppError::Detailed { error, .. } => error.public_message(),
            other => other.to_string(),
        }
    }

    /// The error as JSON: `{"code", "message"}`, and `"details"` if any.
    pub fn body(&self) -> serde_json::Value {
        let mut body = json!({ "code": self.code(), "message": self.public_message() });
        if let AppError::Detailed { details, .. } = self {
            body["details"] = details.clone();
        }
        body
    }
}

/// Seconds a client waits before trying again an unreachable service.
pub const UNAVAILABLE_RETRY_S: u64 = 2;

/// A database that cannot be reached is a `503` (try again), not a fault.
impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> AppError {
        match e {
            sqlx::Error::Io(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed => {
                tracing::warn!("the database is unreachable: {e}");
                AppError::Unavailable(UNAVAILABLE_RETRY_S)
            }
            e => AppError::Internal(e.into()),
        }
    }
}

impl From<crate::store::StoreError> for AppError {
    fn from(e: crate::store::StoreError) -> AppError {
        match e {
            crate::store::StoreError::LeaseLost => AppError::Moved,
            crate::store::StoreError::Db(e) => e.into(),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let mut res = (self.status(), Json(json!({ "error": self.body() }))).into_response();
        if let Some(s) = self.retry_after() {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_details_never_reach_a_client() {
        let e = AppError::Internal(anyhow::anyhow!("database or disk is full"));
        assert_eq!(e.public_message(), "internal error");
        assert_eq!(
            e.body(),
            json!({"code": "internal", "message": "internal error"})
        );
        let hidden = AppError::Internal(anyhow::anyhow!("disk")).with_details(json!({}));
        assert_eq!(hidden.public_message(), "internal error");
        let busy = AppError::Busy(2);
        assert_eq!(busy.retry_after(), Some(2));
        assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
    }

    #[test]
    fn details_ride_along_with_the_code() {
        let e =
            AppError::IllegalMove("e5 is not next to c5".into()).with_details(json!({"ply": 3}));
        assert_eq!(e.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            e.body(),
            json!({"code": "illegal_move", "message": "e5 is not next to c5", "details": {"ply": 3}})
        );
    }
}
