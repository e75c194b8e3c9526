//! What a keyed run must produce, computed the obvious batch way.

use std::collections::BTreeMap;

use super::SpyState;
use super::binding::SpyEvent;

/// The value after which the spy leaves its key an empty list, `Some(vec![])`: a state
/// equal to its type's default, which is a state like any other, not a deletion. No
/// stream draws it; the `contract` check offers it.
pub const EMPTIES: u32 = 9;

/// The spy's update rule: a 0 clears the key's state, a 9 (`EMPTIES`) leaves it an empty
/// list, any other value is appended.
///
/// Shared by the spy (inside the implementation's process) and the oracle, so both
/// sides agree on what the state must be.
pub fn spy_step(seen: Option<SpyState>, value: u32) -> Option<SpyState> {
    if value == 0 {
        None
    } else if value == EMPTIES {
        Some(Vec::new())
    } else {
        let mut values = seen.unwrap_or_default();
        values.push(value);
        Some(values)
    }
}

/// The key of a `(key, value)` record.
pub fn key_of(record: &(String, u32)) -> String {
    record.0.clone()
}

/// What the spy must see and emit for each record, and the final state, when every key
/// keeps its own list of values (cleared by a 0).
pub fn spy_run(records: &[(String, u32)]) -> (Vec<SpyEvent>, BTreeMap<String, SpyState>) {
    let mut state: BTreeMap<String, SpyState> = BTreeMap::new();
    let mut events = Vec::new();
    for (key, value) in records {
        let seen = state.get(key).cloned();
        events.push(SpyEvent {
            key: key.clone(),
            value: *value,
            seen: seen.clone(),
        });
        match spy_step(seen, *value) {
            Some(next) => state.insert(key.clone(), next),
            None => state.remove(key),
        };
    }
    (events, state)
}

/// The key function of the `word-count` check's operators: the word itself. It takes
/// `&String` because the operator's key function takes `&In`, and `In` is `String`.
#[allow(clippy::ptr_arg)]
pub fn word_key(word: &String) -> String {
    word.clone()
}
