//! What a keyed run must produce, computed the obvious batch way.

use std::collections::BTreeMap;

use super::SpyState;
use super::binding::SpyEvent;

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
        match super::spy_step(seen, *value) {
            Some(next) => state.insert(key.clone(), next),
            None => state.remove(key),
        };
    }
    (events, state)
}
