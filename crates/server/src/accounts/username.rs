//! Usernames: 2 to 20 characters from `A–Z a–z 0–9 _ -`, unique whatever
//! their case.

use crate::error::AppError;

/// A valid username, as typed (its case is kept for display).
pub fn check(name: &str) -> Result<&str, AppError> {
    let ok = (2..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(name)
    } else {
        Err(AppError::BadRequest(
            "a username has 2 to 20 characters from A-Z a-z 0-9 _ -".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_and_plain() {
        for ok in ["ab", "Awa_Ndiaye", "ngoni-2", "A1234567890123456789"] {
            assert!(check(ok).is_ok(), "{ok}");
        }
        for bad in [
            "a",
            "",
            "A12345678901234567890",
            "awa ndiaye",
            "Aïcha",
            "x/y",
            "é",
        ] {
            assert!(check(bad).is_err(), "{bad}");
        }
    }
}
