//! Seats: the secrets that let a person move for a side. Only their SHA-256
//! hash is stored; a seat is never logged or shown to anyone else.

use axum::http::{HeaderMap, header};
use rand::Rng;
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};

use crate::error::AppError;
use crate::session::Session;

/// Who a seat belongs to in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// The one seat of a game against the machine or on one screen.
    Owner,
    /// A member of an online game's side.
    Member { side: String, position: u8 },
}

/// `bytes` random bytes from the OS, in hex.
pub fn random_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    OsRng.fill(&mut buf[..]);
    hex::encode(buf)
}

pub fn seat_hash(seat: &str) -> String {
    hex::encode(Sha256::digest(seat.as_bytes()))
}

/// The role of `seat` in the game, if it has one.
pub fn role_of(seat: &str, s: &Session) -> Option<Role> {
    let hash = seat_hash(seat.trim());
    if s.is_online() {
        s.members
            .iter()
            .find(|m| m.seat_hash == hash)
            .map(|m| Role::Member {
                side: m.side.clone(),
                position: m.position,
            })
    } else {
        (hash == s.row.seat_hash).then_some(Role::Owner)
    }
}

/// The role of the request's `Authorization: Bearer <seat>`.
pub fn authorise(headers: &HeaderMap, s: &Session) -> Result<Role, AppError> {
    let value = headers
        .get(header::AUTHORIZATION)
        .ok_or(AppError::MissingSeat)?;
    let seat = value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or(AppError::MissingSeat)?;
    role_of(seat, s).ok_or(AppError::WrongSeat)
}
