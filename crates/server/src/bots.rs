//! Moves for scripted players (load tests, benchmarks, tests) read from a
//! state's JSON, the way a page reads it: a legal entry, and for an Nsolo
//! capture the bonus taken from the opponent's first non-empty pits.

use serde_json::Value;

/// The legal move at `index` (modulo the list) in notation, or `None` when
/// the state lists none.
pub fn move_from_state(state: &Value, index: usize) -> Option<String> {
    let legal = state["legal"].as_array().filter(|l| !l.is_empty())?;
    let entry = &legal[index % legal.len()];
    if let Some(m) = entry["move"].as_str() {
        return Some(m.to_owned());
    }
    let pit = entry["pit"].as_str()?;
    let mut left = entry["bonus"].as_u64()?;
    if left == 0 {
        return Some(pit.to_owned());
    }
    let rows = if pit.starts_with(['A', 'B']) {
        ["C", "D"]
    } else {
        ["A", "B"]
    };
    let mut items = Vec::new();
    for row in rows {
        for (i, n) in state["nsolo"]["rows"][row].as_array()?.iter().enumerate() {
            let name = format!("{row}{}", i + 1);
            let n = n.as_u64()?;
            if left == 0 || n == 0 || Some(name.as_str()) == entry["capture"].as_str() {
                continue;
            }
            let take = n.min(left);
            left -= take;
            items.push(format!("{name}:{take}"));
        }
    }
    Some(format!("{pit}/{}", items.join(",")))
}
