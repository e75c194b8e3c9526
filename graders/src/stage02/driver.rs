//! Runs one stage-02 case against an implementation and records what happened.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::binding::{Implementation, SpyEvent, SpyState};
use super::plan::Case;

/// `get("a")`, `get("b")` and `snapshot()` of a `KeyedState` after one operation.
pub type StateView = (Option<u32>, Option<u32>, BTreeMap<String, u32>);

/// What the driver saw while running one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// After each operation: `get("a")`, `get("b")` and `snapshot()`.
    KeyedState {
        /// One entry per operation.
        after_each: Vec<StateView>,
    },
    /// A keyed run without a crash.
    Run {
        /// What the spy emitted, per record in order.
        events: Vec<SpyEvent>,
        /// The operator's state at the end.
        final_state: BTreeMap<String, SpyState>,
    },
    /// A keyed run with a snapshot, drop and restore in the middle.
    Crash {
        /// What the spy emitted before the snapshot.
        before: Vec<SpyEvent>,
        /// `Err(message)` if snapshot or restore failed.
        restore: Result<(), String>,
        /// What the spy emitted after the restore.
        after: Vec<SpyEvent>,
        /// The restored operator's state at the end.
        final_state: BTreeMap<String, SpyState>,
    },
    /// The output of `word_count`.
    WordCount {
        /// The update stream.
        updates: Vec<(String, u64)>,
    },
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    match case {
        Case::KeyedState { ops } => {
            let mut state = I::state_new();
            let after_each = ops
                .iter()
                .map(|op| {
                    I::state_apply(&mut state, op);
                    (
                        I::state_get(&state, "a"),
                        I::state_get(&state, "b"),
                        I::state_snapshot(&state),
                    )
                })
                .collect();
            Observation::KeyedState { after_each }
        }
        Case::Isolation { records } | Case::FinalState { records } => {
            let mut operator = I::operator();
            let events = feed::<I>(&mut operator, records);
            Observation::Run {
                events,
                final_state: I::keyed_state(&operator),
            }
        }
        Case::Crash {
            records,
            crash_after,
        } => {
            let (head, tail) = records.split_at(*crash_after);
            let mut operator = I::operator();
            let before = feed::<I>(&mut operator, head);
            let restored = I::snapshot(&operator).and_then(|bytes| {
                // Everything in memory is gone; only the bytes survive.
                drop(operator);
                I::restore(&bytes)
            });
            match restored {
                Ok(mut operator) => {
                    let after = feed::<I>(&mut operator, tail);
                    Observation::Crash {
                        before,
                        restore: Ok(()),
                        after,
                        final_state: I::keyed_state(&operator),
                    }
                }
                Err(e) => Observation::Crash {
                    before,
                    restore: Err(format!("{e:#}")),
                    after: Vec::new(),
                    final_state: BTreeMap::new(),
                },
            }
        }
        Case::WordCount { lines } => Observation::WordCount {
            updates: I::word_count(lines),
        },
    }
}

fn feed<I: Implementation>(operator: &mut I::Operator, records: &[(String, u32)]) -> Vec<SpyEvent> {
    records
        .iter()
        .flat_map(|record| I::process(operator, record.clone()))
        .collect()
}
