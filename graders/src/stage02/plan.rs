//! The cases of stage 02, shortest first: chosen, not drawn, the same under every seed.

use serde::{Deserialize, Serialize};

use super::contract::{self, Call};
use super::padded::{self, Padding};
use super::rewritten::Rewrite;
use super::state_ops::{self, StateOp};
use super::{inputs, words};
use crate::harness::{Check, case};

/// The longest keyed stream of the plan.
pub const MAX_LEN: usize = 7;

pub(super) const KEYED_STATE: Check = Check {
    name: "keyed-state",
    law: "KeyedState behaves as a sorted map: get sees the last put or update, remove forgets",
};
pub(super) const BYTES: Check = Check {
    name: "bytes",
    law: "a KeyedState goes to bytes and back unchanged, whatever its keys; other bytes are refused",
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
pub(super) const CONTRACT: Check = Check {
    name: "contract",
    law: "every short sequence of process and restore calls does, at every step, what the brief says",
};
pub(super) const WORD_COUNT: Check = Check {
    name: "word-count",
    law: "word_count emits (word, count so far) once per word occurrence, in order",
};

/// One case of stage 02. Records are `(key, value)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Case {
    /// Apply `ops` to a fresh `KeyedState`, observing each result and `get`/`snapshot`.
    KeyedState {
        /// The operations.
        ops: Vec<StateOp>,
    },
    /// `from_bytes(&to_bytes())` of a state with text keys.
    TextBytes {
        /// The state, as `put`s.
        pairs: Vec<(String, u32)>,
    },
    /// `from_bytes(&to_bytes())` of a state with `Vec<u8>` keys.
    BinaryBytes {
        /// The state, as `put`s.
        pairs: Vec<(Vec<u8>, u32)>,
    },
    /// `KeyedState::from_bytes` of bytes that no `to_bytes` wrote.
    NotStateBytes {
        /// The bytes.
        bytes: Vec<u8>,
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
    /// `calls` on a fresh operator running the spy.
    Contract {
        /// The calls, in order.
        calls: Vec<Call>,
    },
    /// `KeyedProcessOperator::restore` of bytes that no `snapshot` wrote.
    NotASnapshot {
        /// The bytes.
        bytes: Vec<u8>,
    },
    /// Records through a keyed operator of `Vec<u8>` keys whose function emits 0 to 3
    /// records, snapshot-drop-restore after `restores` records (`fanout.rs`).
    Fanout {
        /// The records `(key, value)`.
        records: Vec<(Vec<u8>, u32)>,
        /// After how many records to snapshot, drop and restore.
        restores: Vec<usize>,
    },
    /// `word_count(&lines)`.
    WordCount {
        /// The lines.
        lines: Vec<String>,
    },
    /// `restore` of the operator's own snapshot (after `padded::records`), padded.
    PaddedSnapshot {
        /// What is put around the snapshot.
        padding: Padding,
    },
    /// The snapshots of operators that hold one state (`instances.rs`).
    SameBytes,
    /// `snapshot` and `restore` of a state of 256 keys of random symbols (`dense.rs`).
    DenseSnapshot,
    /// `restore` of the operator's own snapshot (after `padded::records`), rewritten, or
    /// of the state it holds in other layouts.
    RewrittenSnapshot {
        /// How the snapshot is rewritten.
        rewrite: Rewrite,
    },
    /// Two operators running the implementation's `WordCount`, keyed by the word.
    WordCounters {
        /// The calls, in order.
        calls: Vec<super::instances::CounterCall>,
    },
}

/// Whether a stream holds a 0, which makes the spy clear its key.
fn clears(records: &[(String, u32)]) -> bool {
    records.iter().any(|(_, v)| *v == 0)
}

impl case::Case for Case {
    fn check(&self) -> Check {
        match self {
            Case::KeyedState { .. } => KEYED_STATE,
            Case::TextBytes { .. } | Case::BinaryBytes { .. } | Case::NotStateBytes { .. } => BYTES,
            Case::Isolation { .. } => ISOLATION,
            Case::FinalState { .. } => FINAL_STATE,
            Case::Crash { .. } => CRASH,
            Case::Contract { .. }
            | Case::NotASnapshot { .. }
            | Case::Fanout { .. }
            | Case::PaddedSnapshot { .. }
            | Case::RewrittenSnapshot { .. }
            | Case::SameBytes
            | Case::DenseSnapshot => CONTRACT,
            Case::WordCount { .. } | Case::WordCounters { .. } => WORD_COUNT,
        }
    }

    fn requirements(&self) -> Vec<&'static str> {
        let with_clear = |mut ids: Vec<&'static str>, records: &[(String, u32)]| {
            if clears(records) {
                ids.push("02-R16");
            }
            ids
        };
        match self {
            Case::KeyedState { ops } => state_ops::requirements(ops),
            Case::TextBytes { .. } | Case::BinaryBytes { .. } => vec!["02-R7"],
            Case::NotStateBytes { .. }
            | Case::NotASnapshot { .. }
            | Case::PaddedSnapshot { .. }
            | Case::RewrittenSnapshot { .. } => vec!["02-R10"],
            Case::Isolation { records } => with_clear(vec!["02-R8", "02-R14"], records),
            Case::FinalState { records } => with_clear(vec!["02-R14"], records),
            Case::Crash { records, .. } => with_clear(vec!["02-R8", "02-R14", "02-R15"], records),
            Case::Contract { calls } => contract::requirements(calls),
            Case::Fanout { restores, .. } => super::fanout::requirements(restores),
            Case::WordCount { lines } => words::requirements(lines),
            Case::SameBytes | Case::DenseSnapshot => vec!["02-R15"],
            Case::WordCounters { .. } => vec!["02-R15", "02-R17"],
        }
    }

    fn describe(&self) -> String {
        match self {
            Case::KeyedState { ops } => {
                let ops: Vec<String> = ops.iter().map(StateOp::describe).collect();
                format!("on an empty KeyedState: [{}]", ops.join(", "))
            }
            Case::TextBytes { pairs } => {
                format!("KeyedState::<String, u32>::from_bytes(&to_bytes()) of {pairs:?}")
            }
            Case::BinaryBytes { pairs } => {
                format!("KeyedState::<Vec<u8>, u32>::from_bytes(&to_bytes()) of {pairs:?}")
            }
            Case::NotStateBytes { bytes } => {
                format!("KeyedState::<String, u32>::from_bytes(&{bytes:?})")
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
            Case::Contract { calls } => {
                let calls: Vec<String> = calls.iter().map(Call::describe).collect();
                format!(
                    "on a new operator, out holding one record: [{}]",
                    calls.join(", ")
                )
            }
            Case::NotASnapshot { bytes } => {
                format!("KeyedProcessOperator::restore(key_of, Spy, &{bytes:?})")
            }
            Case::Fanout { records, restores } => super::fanout::describe(records, restores),
            Case::WordCount { lines } => format!("word_count(&{lines:?})"),
            Case::PaddedSnapshot { padding } => format!(
                "KeyedProcessOperator::restore(key_of, Spy, ..) of {}, taken after processing {:?}",
                padding.describe(),
                padded::records()
            ),
            Case::RewrittenSnapshot { rewrite } => format!(
                "KeyedProcessOperator::restore(key_of, Spy, ..) of {}, taken after processing {:?}",
                rewrite.describe(),
                padded::records()
            ),
            Case::DenseSnapshot => super::dense::describe(),
            Case::SameBytes => format!(
                "snapshot() of {}: one state, {{\"a\": [1], \"Ä b\": [2]}}, so the same bytes",
                super::instances::same_state_sources().join("; ")
            ),
            Case::WordCounters { calls } => {
                let calls: Vec<String> = calls.iter().map(|c| c.describe()).collect();
                format!(
                    "first and second = KeyedProcessOperator::new(|w: &String| w.clone(), WordCount): [{}]",
                    calls.join(", ")
                )
            }
        }
    }
}

/// Every case (the seed draws nothing: the plan is the same under every seed).
pub fn plan(_seed: u64) -> Vec<Case> {
    let mut cases = Vec::new();
    for ops in state_ops::sequences() {
        cases.push(Case::KeyedState { ops });
    }
    for pairs in inputs::text_states() {
        cases.push(Case::TextBytes { pairs });
    }
    for pairs in inputs::binary_states() {
        cases.push(Case::BinaryBytes { pairs });
    }
    for bytes in contract::not_snapshots() {
        cases.push(Case::NotStateBytes { bytes });
    }
    let streams = inputs::streams();
    debug_assert!(streams.iter().all(|s| s.len() <= MAX_LEN));
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
    for calls in contract::sequences() {
        cases.push(Case::Contract { calls });
    }
    for bytes in contract::not_snapshots() {
        cases.push(Case::NotASnapshot { bytes });
    }
    for lines in words::inputs() {
        cases.push(Case::WordCount { lines });
    }
    // Last, so every case above keeps its number.
    for restores in super::fanout::restore_points() {
        cases.push(Case::Fanout {
            records: super::fanout::records(),
            restores,
        });
    }
    // After them, so the cases above keep their numbers: bytes that hold a snapshot and
    // more (`padded.rs`).
    for bytes in padded::pairs_never_written(&1_u32, &2_u32) {
        cases.push(Case::NotStateBytes { bytes });
    }
    for bytes in padded::snapshots_never_written() {
        cases.push(Case::NotASnapshot { bytes });
    }
    // A form feed after the snapshot, added later, is planned last (below).
    for padding in Padding::ALL {
        if padding != Padding::BeforeFormFeed {
            cases.push(Case::PaddedSnapshot { padding });
        }
    }
    // After them, so the cases above keep their numbers: a second snapshot after a
    // restore and a change, operators that hold one state, two word counters at once
    // (`instances.rs`).
    for calls in super::instances::after_restore() {
        cases.push(Case::Contract { calls });
    }
    cases.push(Case::SameBytes);
    cases.push(Case::WordCounters {
        calls: super::instances::counter_calls(),
    });
    // After them, so the cases above keep their numbers: the own snapshot rewritten
    // (`rewritten.rs`).
    for rewrite in Rewrite::ALL {
        cases.push(Case::RewrittenSnapshot { rewrite });
    }
    // After them, so the cases above keep their numbers: keys past what a length in one
    // or two bytes counts (`fanout.rs`).
    cases.push(Case::Fanout {
        records: super::fanout::long_key_records(),
        restores: super::fanout::LONG_KEY_RESTORES.to_vec(),
    });
    // After it, so the cases above keep their numbers: a state that no handle can name in
    // so few bytes (`dense.rs`).
    cases.push(Case::DenseSnapshot);
    // After it, so the cases above keep their numbers: the one byte `trim_ascii_end`
    // strips that JSON does not.
    cases.push(Case::PaddedSnapshot {
        padding: Padding::BeforeFormFeed,
    });
    cases.push(Case::NotStateBytes {
        bytes: padded::pairs_before_form_feed(&1_u32),
    });
    // After them, so the cases above keep their numbers: the state of the own snapshot in
    // the layouts a snapshot commonly has, its own left out (`rewritten.rs`).
    for rewrite in Rewrite::LAST {
        cases.push(Case::RewrittenSnapshot { rewrite });
    }
    cases
}
