//! Seats: the secrets that let a person move for a side. Only their SHA-256
//! hash is stored; a seat is never logged or shown to anyone else.

use axum::http::{HeaderMap, header};
use rand::Rng;
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};

use crate::domain::Side;

/// Who a seat belongs to in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Role {
    /// The one seat of a game against the machine or on one screen.
    Owner,
    /// A member of an online game's side.
    Member { side: Side, position: u8 },
}

/// What shows who acts in a game: a seat's secret, or a signed-in account
/// (its session or personal token, already checked).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Key {
    Seat(String),
    Account(i64),
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

/// The seat in game `game` that follows from the secret `seat` held in
/// another game (a rematch): as secret as `seat`, and the same each time, so
/// that its holder asking again finds their place rather than a second one.
pub fn follow_on_seat(seat: &str, game: &str) -> String {
    let mut digest = Sha256::new();
    for part in ["palabre follow-on seat", game, seat.trim()] {
        digest.update(part.as_bytes());
        digest.update([0]);
    }
    // As long as a random seat (`random_token(16)`).
    hex::encode(&digest.finalize()[..16])
}

/// The seat in `Authorization: Bearer <seat>`, if the header is there.
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(|s| s.trim().to_owned())
}
