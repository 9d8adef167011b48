//! What an engine was sent around its ponders, read back from a log of
//! its input: shared by the arena's and the bot's tests.

/// Checks that each `ponder` command in `sent` (there is at least one) is
/// followed by its `stop`, or by `quit` or the end of the log, before
/// anything else; returns what was sent after each `stop`.
pub fn after_each_stop<'a>(sent: &'a [String], ponder: &str) -> Vec<&'a [String]> {
    let ponders: Vec<usize> = (0..sent.len()).filter(|&i| sent[i] == ponder).collect();
    assert!(!ponders.is_empty(), "no {ponder:?} in {sent:?}");
    let mut after = Vec::new();
    for i in ponders {
        match sent.get(i + 1).map(String::as_str) {
            Some("stop") => after.push(&sent[i + 2..]),
            Some("quit") | None => {}
            Some(other) => panic!("{other:?} followed {ponder:?}: {sent:?}"),
        }
    }
    after
}
