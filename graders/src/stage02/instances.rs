//! Cases where more than one operator lives at once, or a second snapshot follows a
//! restore: what one instance does must not leak into another, and a snapshot must be
//! the state itself, as bytes.
//!
//! - `same-bytes` (in `contract`): operators that hold the same state, reached by the
//!   same records, by other records (a key counted and cleared on the way, keys in
//!   another order) or by a restore, and the same operator asked twice, write the same
//!   snapshot bytes. A snapshot that is a handle to bytes kept elsewhere (a numbered
//!   checkpoint in a `static`), or that carries a counter or the history, differs.
//! - [`after_restore`] (in `contract`): snapshot, restore, a change, then another
//!   snapshot and restore: a snapshot cached from the bytes restored (or from the first
//!   snapshot) and kept through a change shows.
//! - `word-counters` (in `word-count`): two operators running the implementation's own
//!   `WordCount`, keyed by the word, fed interleaved, one restored midway: each emits its
//!   own running counts and its `state()` holds them. A `WordCount` that counts beside
//!   the state it is lent (in a `thread_local!` or a `static`) shows.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::contract::Call;
use crate::harness::Failure;

/// Every contract sequence that snapshots (or restores), changes the state, then
/// restores again: the change a record of the same key, a clear, or a new key.
pub fn after_restore() -> Vec<Vec<Call>> {
    let process = |key: &str, value: u32| Call::Process(key.into(), value);
    let mut all = Vec::new();
    for first in [Call::Restore, Call::Snapshot] {
        for (key, value) in [("a", 1), ("Ä b", 2)] {
            for change in [process(key, 0), process(key, value), process("", 3)] {
                all.push(vec![
                    process(key, value),
                    first.clone(),
                    change,
                    Call::Restore,
                ]);
            }
        }
    }
    all
}

/// The ways `same-bytes` reaches one state, `{"a": [1], "Ä b": [2]}`: the records each
/// operator is fed.
pub fn same_state_feeds() -> Vec<Vec<(String, u32)>> {
    let record = |key: &str, value: u32| (key.to_owned(), value);
    vec![
        vec![record("a", 1), record("Ä b", 2)],
        vec![record("a", 1), record("Ä b", 2)],
        vec![
            record("", 3),
            record("Ä b", 2),
            record("", 0),
            record("a", 1),
        ],
    ]
}

/// How each snapshot of `same-bytes` was taken, in the order the driver takes them.
pub fn same_state_sources() -> Vec<String> {
    let feeds = same_state_feeds();
    let fed = |i: usize| format!("a new operator fed {:?}", feeds[i]);
    vec![
        fed(0),
        format!("{}, asked again", fed(0)),
        fed(1),
        fed(2),
        "the operator restored from the first snapshot".to_owned(),
    ]
}

/// Judges the snapshots of `same-bytes` (`Err` as its message), in the order of
/// [`same_state_sources`].
pub fn judge_same_bytes(snapshots: &[Result<Vec<u8>, String>]) -> Result<(), Failure> {
    let sources = same_state_sources();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let first = match snapshots.first() {
        Some(Ok(bytes)) => bytes,
        other => {
            return Err(Failure::new("Ok(bytes)", format!("{other:?}"))
                .step(format!("the snapshot of {} failed", sources[0]))
                .requirement("02-R15"));
        }
    };
    for (i, source) in sources.iter().enumerate().skip(1) {
        match snapshots.get(i) {
            Some(Ok(bytes)) if bytes == first => {}
            Some(Ok(bytes)) => {
                return Err(Failure::new(
                    format!("the same bytes: {:?}", text(first)),
                    format!("{:?}", text(bytes)),
                )
                .step(format!(
                    "{source} holds the same state as {}, and its snapshot is other bytes: \
                     a snapshot is the state as bytes, nothing else",
                    sources[0]
                ))
                .requirement("02-R15"));
            }
            other => {
                return Err(Failure::new("Ok(bytes)", format!("{other:?}"))
                    .step(format!("the snapshot of {source} failed"))
                    .requirement("02-R15"));
            }
        }
    }
    Ok(())
}

/// One call of `word-counters`, on operator 0 or 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CounterCall {
    /// `process(word, &mut out)` with an empty `out`.
    Word(usize, String),
    /// Snapshot, drop and restore the operator.
    Restore(usize),
}

impl CounterCall {
    /// The call as code.
    pub fn describe(&self) -> String {
        let name = |i: &usize| if *i == 0 { "first" } else { "second" };
        match self {
            CounterCall::Word(i, word) => format!("{}.process({word:?})", name(i)),
            CounterCall::Restore(i) => format!("{} = restore(snapshot of {0})", name(i)),
        }
    }
}

/// The calls of `word-counters`: two operators fed the same words, interleaved, the
/// first restored midway.
pub fn counter_calls() -> Vec<CounterCall> {
    let word = |i: usize, w: &str| CounterCall::Word(i, w.to_owned());
    vec![
        word(0, "a"),
        word(1, "a"),
        word(0, "to"),
        word(0, "a"),
        CounterCall::Restore(0),
        word(0, "a"),
        word(1, "to"),
        word(1, "a"),
    ]
}

/// What one call of `word-counters` did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CounterStep {
    /// The call returned: what it emitted (nothing for a restore), then both operators'
    /// `state().snapshot()`.
    Done {
        /// `out` after the call.
        out: Vec<(String, u64)>,
        /// `state().snapshot()` of each operator after it.
        states: [BTreeMap<String, u64>; 2],
    },
    /// Snapshot or restore failed, with this message.
    Failed(String),
    /// The call panicked.
    Panicked(String),
}

/// Judges the steps of `word-counters` against two maps of counts.
pub fn judge_counters(calls: &[CounterCall], steps: &[CounterStep]) -> Result<(), Failure> {
    let mut model: [BTreeMap<String, u64>; 2] = [BTreeMap::new(), BTreeMap::new()];
    let mut restored = false;
    for (i, call) in calls.iter().enumerate() {
        let at = |what: &str| format!("call {} ({}): {what}", i + 1, call.describe());
        let want_out = match call {
            CounterCall::Word(op, word) => {
                let count = model[*op].entry(word.clone()).or_insert(0);
                *count += 1;
                vec![(word.clone(), *count)]
            }
            CounterCall::Restore(_) => {
                restored = true;
                Vec::new()
            }
        };
        let rule = if restored { "02-R15" } else { "02-R17" };
        let (out, states) = match steps.get(i) {
            Some(CounterStep::Done { out, states }) => (out, states),
            other => {
                return Err(Failure::new("the call returns", format!("{other:?}"))
                    .step(at("the call failed"))
                    .requirement(rule));
            }
        };
        if *out != want_out {
            return Err(Failure::new(
                format!("out = {want_out:?}"),
                format!("out = {out:?}"),
            )
            .step(at(
                "WordCount emitted another count than its operator's state for the word says",
            ))
            .requirement(rule));
        }
        if *states != model {
            return Err(Failure::new(
                format!("state() of each = {model:?}"),
                format!("state() of each = {states:?}"),
            )
            .step(at(
                "the operators' state() is not what WordCount left in the state it was lent",
            ))
            .requirement(rule));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_feed_reaches_the_same_state() {
        for feed in same_state_feeds() {
            let mut state: BTreeMap<String, Vec<u32>> = BTreeMap::new();
            for (key, value) in feed {
                if let Some(next) = super::super::spy_step(state.remove(&key), value) {
                    state.insert(key, next);
                }
            }
            let want: BTreeMap<String, Vec<u32>> =
                [("a".to_owned(), vec![1]), ("Ä b".to_owned(), vec![2])].into();
            assert_eq!(state, want);
        }
    }
}
