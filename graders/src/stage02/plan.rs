//! The cases of stage 02, shortest first.

use serde::{Deserialize, Serialize};

use crate::harness::rng::Rng;
use crate::harness::{Check, case};

/// The longest keyed stream; every crash point of every length up to it is enumerated.
pub const MAX_LEN: usize = 7;
/// The longest sequence of `KeyedState` operations; all of them are enumerated.
pub const MAX_OPS: usize = 3;

pub(super) const KEYED_STATE: Check = Check {
    name: "keyed-state",
    law: "KeyedState behaves as a sorted map: get sees the last put or update, remove forgets",
};
pub(super) const ISOLATION: Check = Check {
    name: "isolation",
    law: "the function sees exactly the state its key's earlier records left, never another key's",
};
pub(super) const FINAL_STATE: Check = Check {
    name: "final-state",
    law: "after the stream, the keyed state equals the batch group-by",
};
pub(super) const CRASH: Check = Check {
    name: "crash",
    law: "snapshot to bytes after any record, restore a new operator: nothing changes",
};
pub(super) const WORD_COUNT: Check = Check {
    name: "word-count",
    law: "word_count emits (word, count so far) once per word occurrence, in order",
};

/// One operation on a `KeyedState<String, u32>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum StateOp {
    /// `put(key, value)`
    Put(String, u32),
    /// `update(key, |v| v.map(|v| v + 1))`: bumps an existing value, leaves a missing one missing.
    Bump(String),
    /// `update(key, |_| None)`: removes through `update`.
    Clear(String),
    /// `remove(&key)`
    Remove(String),
}

impl StateOp {
    /// The operation as the brief's API writes it: `put("a", 1)`, `update("a", |_| None)`.
    pub fn describe(&self) -> String {
        match self {
            StateOp::Put(key, value) => format!("put({key:?}, {value})"),
            StateOp::Bump(key) => format!("update({key:?}, |v| v.map(|v| v + 1))"),
            StateOp::Clear(key) => format!("update({key:?}, |_| None)"),
            StateOp::Remove(key) => format!("remove({key:?})"),
        }
    }
}

/// One case of stage 02. Records are `(key, value)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Case {
    /// Apply `ops` to a fresh `KeyedState`, observing `get` of every key after each.
    KeyedState {
        /// The operations.
        ops: Vec<StateOp>,
    },
    /// Feed `records` to a keyed operator running the spy function.
    Isolation {
        /// The keyed stream.
        records: Vec<(String, u32)>,
    },
    /// Same run as `Isolation`, judged on the final state.
    FinalState {
        /// The keyed stream.
        records: Vec<(String, u32)>,
    },
    /// Snapshot after `crash_after` records, restore, continue.
    Crash {
        /// The keyed stream.
        records: Vec<(String, u32)>,
        /// Records processed before the snapshot.
        crash_after: usize,
    },
    /// `word_count(&lines)`.
    WordCount {
        /// The lines.
        lines: Vec<String>,
    },
}

impl case::Case for Case {
    fn check(&self) -> Check {
        match self {
            Case::KeyedState { .. } => KEYED_STATE,
            Case::Isolation { .. } => ISOLATION,
            Case::FinalState { .. } => FINAL_STATE,
            Case::Crash { .. } => CRASH,
            Case::WordCount { .. } => WORD_COUNT,
        }
    }

    fn describe(&self) -> String {
        match self {
            Case::KeyedState { ops } => {
                let ops: Vec<String> = ops.iter().map(StateOp::describe).collect();
                format!("on an empty KeyedState: [{}]", ops.join(", "))
            }
            Case::Isolation { records } | Case::FinalState { records } => {
                format!("keyed stream (key, value) = {records:?}")
            }
            Case::Crash {
                records,
                crash_after,
            } => format!(
                "keyed stream (key, value) = {records:?}, snapshot and restore after {crash_after} record(s)"
            ),
            Case::WordCount { lines } => format!("word_count(&{lines:?})"),
        }
    }
}

const KEYS: [&str; 3] = ["a", "b", "c"];

/// Every case for `seed`.
pub fn plan(seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed, 2);
    let mut cases = Vec::new();
    for ops in op_sequences() {
        cases.push(Case::KeyedState { ops });
    }
    // Values 0..4: a 0 makes the spy clear its key's state, so clearing is exercised too.
    let streams: Vec<Vec<(String, u32)>> = (0..=MAX_LEN)
        .flat_map(|len| [len, len])
        .map(|len| {
            (0..len)
                .map(|_| (KEYS[rng.below(3) as usize].to_owned(), rng.below(4) as u32))
                .collect()
        })
        .collect();
    for records in &streams {
        cases.push(Case::Isolation {
            records: records.clone(),
        });
    }
    for records in &streams {
        cases.push(Case::FinalState {
            records: records.clone(),
        });
    }
    for records in &streams {
        for crash_after in 0..=records.len() {
            cases.push(Case::Crash {
                records: records.clone(),
                crash_after,
            });
        }
    }
    for lines in word_count_inputs(&mut rng) {
        cases.push(Case::WordCount { lines });
    }
    cases
}

fn op_sequences() -> Vec<Vec<StateOp>> {
    let alphabet = [
        StateOp::Put("a".into(), 1),
        StateOp::Put("a".into(), 2),
        StateOp::Put("b".into(), 3),
        StateOp::Bump("a".into()),
        StateOp::Clear("a".into()),
        StateOp::Remove("a".into()),
    ];
    let mut all = vec![Vec::new()];
    let mut layer = vec![Vec::new()];
    for _ in 0..MAX_OPS {
        layer = layer
            .iter()
            .flat_map(|ops: &Vec<StateOp>| {
                alphabet.iter().map(move |op| {
                    let mut next = ops.clone();
                    next.push(op.clone());
                    next
                })
            })
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

fn word_count_inputs(rng: &mut Rng) -> Vec<Vec<String>> {
    const WORDS: [&str; 3] = ["to", "be", "or"];
    // Separators include runs of spaces and tabs: words are whitespace-separated.
    const GAPS: [&str; 3] = [" ", "  ", "\t"];
    let mut inputs = Vec::new();
    for line_count in 0..=3 {
        for _ in 0..3 {
            let lines = (0..line_count)
                .map(|_| {
                    let words = rng.below(4) as usize;
                    let mut line = String::new();
                    if rng.below(3) == 0 {
                        line.push(' ');
                    }
                    for w in 0..words {
                        if w > 0 {
                            line.push_str(GAPS[rng.below(3) as usize]);
                        }
                        line.push_str(WORDS[rng.below(3) as usize]);
                    }
                    line
                })
                .collect();
            inputs.push(lines);
        }
    }
    inputs
}
