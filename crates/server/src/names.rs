//! Display names: what a person types to be shown to others. A name must
//! show something, and must not reorder the text around it.

use unicode_normalization::char::is_combining_mark;

use crate::error::AppError;

/// Longest name, in characters.
pub const MAX_NAME: usize = 32;
/// Most combining marks on one letter: enough for any script's accents
/// (Vietnamese stacks two, pointed Hebrew three), too few to build a name
/// that climbs out of its line ("Zalgo" text).
const MAX_MARKS: usize = 4;

/// The longest run of combining marks in `name`.
fn stacked_marks(name: &str) -> usize {
    let (mut run, mut most) = (0, 0);
    for c in name.chars() {
        run = if is_combining_mark(c) { run + 1 } else { 0 };
        most = most.max(run);
    }
    most
}

/// Characters that draw nothing or steer bidirectional text: format
/// characters (Unicode category Cf) and the blank letters that fonts draw
/// as empty space.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{2800}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}'
        | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}' | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}'
        | '\u{0600}'..='\u{0605}' | '\u{06DD}' | '\u{070F}' | '\u{0890}' | '\u{0891}' | '\u{08E2}'
        | '\u{110BD}' | '\u{110CD}' | '\u{13430}'..='\u{1343F}')
}

/// Steers the direction of the text after it (overrides and isolates).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A name, trimmed, with 1 to 32 characters of which at least one shows,
/// no control character and no bidirectional control.
pub fn display_name(name: &str) -> Result<String, AppError> {
    let name = name.trim();
    let refuse = |why: &str| Err(AppError::BadRequest(format!("a name {why}")));
    if name.chars().count() > MAX_NAME {
        return refuse("has at most 32 characters");
    }
    if name.chars().any(|c| c.is_control() || is_bidi_control(c)) {
        return refuse("has no control characters");
    }
    if stacked_marks(name) > MAX_MARKS {
        return refuse("stacks at most 4 accents on a letter");
    }
    if !name.chars().any(|c| !c.is_whitespace() && !is_invisible(c)) {
        return refuse("shows at least one visible character");
    }
    Ok(name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_must_show_something_and_keep_the_text_direction() {
        assert_eq!(display_name("  Awa ").unwrap(), "Awa");
        assert_eq!(display_name("Ngoni ✦ 2").unwrap(), "Ngoni ✦ 2");
        assert_eq!(display_name("عائشة").unwrap(), "عائشة");
        // Combining accents as Vietnamese and pointed Hebrew write them.
        let vietnamese = "Nguye\u{0302}\u{0303}n";
        assert_eq!(display_name(vietnamese).unwrap(), vietnamese);
        assert!(display_name("\u{05E9}\u{05C1}\u{05B8}\u{0591}").is_ok());
        for bad in [
            "",
            "   ",
            "\u{200B}\u{200B}",
            "\u{3164}",
            "\u{2800}\u{FEFF}",
            "evil\u{202E}gnp.exe",
            "a\u{2066}b",
            "tab\there",
            &"x".repeat(33),
            &format!("Z{}", "\u{0336}\u{0334}\u{0489}".repeat(5)),
            "a\u{0301}\u{0302}\u{0303}\u{0304}\u{0305}",
        ] {
            assert!(display_name(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
