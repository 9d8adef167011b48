//! French typography in what the site says: a non-breaking space before
//! `: ; ! ?` and inside « », and between a number and its unit or the « × »
//! of « 4 × 8 », so that none of them wraps alone onto a line. Checked in
//! the French dictionary and in the text and labels of the pages (French
//! first); the test names every place that breaks the rule.

use std::path::Path;

use serde_json::Value;

/// Units written after a number in the French texts.
const UNITS: &[&str] = &[
    "min", "s", "h", "ms", "coup", "coups", "case", "cases", "boule", "boules", "pierre",
    "pierres", "jour", "jours", "trou", "trous", "rangée", "rangées", "Ko", "%",
];

/// Where `text` breaks the rule, as short excerpts.
fn faults(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for (i, pair) in chars.windows(2).enumerate() {
        let bad = match (pair[0], pair[1]) {
            (' ', ':' | ';' | '!' | '?' | '»') | ('«', ' ') => true,
            (' ', '×') | ('×', ' ') => true,
            (d, ' ') if d.is_ascii_digit() => {
                let rest: String = chars[i + 2..].iter().take(8).collect();
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_alphabetic() || *c == '%')
                    .collect();
                UNITS.contains(&word.as_str())
            }
            _ => false,
        };
        if bad {
            let from = i.saturating_sub(12);
            found.push(chars[from..(i + 14).min(chars.len())].iter().collect());
        }
    }
    found
}

fn web() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web"))
}

#[test]
fn french_strings_keep_their_punctuation_and_units_attached() {
    let text = std::fs::read_to_string(web().join("assets/i18n/fr.json")).unwrap();
    let dict: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    let mut all = Vec::new();
    for (key, value) in &dict {
        let values: Vec<&str> = match value {
            Value::String(s) => vec![s],
            Value::Object(forms) => forms.values().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        for v in values {
            all.extend(faults(v).into_iter().map(|f| format!("{key}: …{f}…")));
        }
    }
    assert!(
        all.is_empty(),
        "breakable spaces in fr.json:\n{}",
        all.join("\n")
    );
}

/// The text between the tags, and the labels a reader sees or hears.
fn readable(html: &str) -> String {
    let mut out = String::new();
    for part in html.split('<') {
        let (tag, text) = part.split_once('>').unwrap_or(("", part));
        out.push_str(text);
        out.push('\n');
        for attr in [
            "alt=\"",
            "title=\"",
            "content=\"",
            "aria-label=\"",
            "placeholder=\"",
        ] {
            if let Some((_, value)) = tag.split_once(attr) {
                out.push_str(value.split('"').next().unwrap_or_default());
                out.push('\n');
            }
        }
    }
    out
}

#[test]
fn french_pages_keep_their_punctuation_and_units_attached() {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(web()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let html = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            all.extend(
                faults(&readable(&html))
                    .into_iter()
                    .map(|f| format!("{name}: …{f}…")),
            );
        }
    }
    assert!(
        all.is_empty(),
        "breakable spaces in the pages:\n{}",
        all.join("\n")
    );
}

#[test]
fn the_check_sees_each_fault() {
    for bad in [
        "Indice : c3",
        "Vraiment ?",
        "« Jouer »",
        "4 × 8",
        "120 coups",
        "5 min",
    ] {
        assert!(!faults(bad).is_empty(), "{bad}");
    }
    let good =
        "Indice\u{a0}: c3, vraiment\u{202f}? «\u{a0}Jouer\u{a0}» 4\u{a0}×\u{a0}8, 120\u{a0}coups";
    assert!(faults(good).is_empty(), "{:?}", faults(good));
}
