//! Passwords, hashed with argon2id (the `argon2` crate's defaults) off the
//! async runtime. An unknown name is checked against a fixed hash, so that
//! a log-in takes as long whether or not the account exists.

use std::sync::LazyLock;

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

use crate::error::AppError;

/// Shortest password, in characters.
pub const MIN_PASSWORD: usize = 8;
/// Longest password, in bytes: hashing is costly, bodies are small anyway.
pub const MAX_PASSWORD: usize = 256;

/// The hash checked when no account has the name given.
static DECOY: LazyLock<String> =
    LazyLock::new(|| hash_now("not a password of anyone").unwrap_or_default());

/// A password long enough (and not absurdly long).
pub fn check_strength(password: &str) -> Result<(), AppError> {
    if password.chars().count() < MIN_PASSWORD {
        return Err(AppError::BadRequest(format!(
            "a password has at least {MIN_PASSWORD} characters"
        )));
    }
    if password.len() > MAX_PASSWORD {
        return Err(AppError::BadRequest(format!(
            "a password has at most {MAX_PASSWORD} bytes"
        )));
    }
    Ok(())
}

fn hash_now(password: &str) -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::generate(&mut OsRng);
    Ok(Argon2::default()
        .hash_password(password.as_bytes(), &salt)?
        .to_string())
}

/// The argon2id hash of `password`, in PHC form.
pub async fn hash(password: String) -> Result<String, AppError> {
    tokio::task::spawn_blocking(move || hash_now(&password))
        .await
        .map_err(|e| AppError::Internal(e.into()))?
        .map_err(|e| AppError::Internal(anyhow::anyhow!("hashing a password: {e}")))
}

/// Whether `password` matches `stored`; with no stored hash, a check
/// against the decoy that takes as long and fails.
pub async fn verify(password: String, stored: Option<String>) -> Result<bool, AppError> {
    tokio::task::spawn_blocking(move || {
        let real = stored.is_some();
        let stored = stored.unwrap_or_else(|| DECOY.clone());
        let ok = PasswordHash::new(&stored)
            .map(|h| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &h)
                    .is_ok()
            })
            .unwrap_or(false);
        real && ok
    })
    .await
    .map_err(|e| AppError::Internal(e.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_checks_its_password_only() {
        let h = hash("correct horse".into()).await.unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(
            verify("correct horse".into(), Some(h.clone()))
                .await
                .unwrap()
        );
        assert!(!verify("wrong horse".into(), Some(h)).await.unwrap());
        assert!(
            !verify("not a password of anyone".into(), None)
                .await
                .unwrap()
        );
        assert!(check_strength("short").is_err());
        assert!(check_strength("long enough").is_ok());
    }
}
