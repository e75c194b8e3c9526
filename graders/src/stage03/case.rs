//! One case of stage 03 and the check it belongs to. Keys are short strings, handed to
//! the implementation as bytes.

use serde::{Deserialize, Serialize};

use super::contract::{At, Op};
use super::edges::Shape;
pub use super::errors::ErrorCall;
use super::oracle::Counts;
use crate::harness::{Check, case};

pub(super) const KEY_GROUP: Check = Check {
    name: "key-group",
    law: "key_group_for(key, maxp) = stable_hash(key) % maxp, with the given FNV-1a hash",
};
pub(super) const KEY_GROUP_RANGE: Check = Check {
    name: "key-group-range",
    law: "the ranges are ceil(i maxp / p) ..= ceil((i + 1) maxp / p) - 1 and tile [0, maxp)",
};
pub(super) const OPERATOR_INDEX: Check = Check {
    name: "operator-index",
    law: "operator_index_for(g) = g p / maxp, the subtask whose range holds g",
};
pub(super) const PARTITION: Check = Check {
    name: "partition",
    law: "each record reaches the subtask owning its key group, once, in input order",
};
pub(super) const PARALLEL_COUNT: Check = Check {
    name: "parallel-count",
    law: "a count at parallelism p equals the p = 1 count, each key on its owning subtask",
};
pub(super) const RESCALE: Check = Check {
    name: "rescale",
    law: "rescaling p -> q keeps every key's state exactly once, on its new owner",
};
pub(super) const PARENTS: Check = Check {
    name: "parents",
    law: "parents(j, p, q) lists exactly the old subtasks whose ranges overlap new subtask j's",
};
pub(super) const CRASH: Check = Check {
    name: "crash",
    law: "snapshot every subtask at p, restore at q from the parents, continue: same counts",
};
pub(super) const CONTRACT: Check = Check {
    name: "contract",
    law: "every sequence of updates and restores of one KeyedSubtask answers as the brief says, and leaves the state it says",
};
pub(super) const ERRORS: Check = Check {
    name: "errors",
    law: "an invalid parallelism, index or key group is an error that names the argument, never a panic",
};

/// One case of stage 03. Keys are short strings, handed to the implementation as bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Case {
    /// `stable_hash` and `key_group_for` of every key.
    KeyGroup {
        /// The keys.
        keys: Vec<String>,
        /// `max_parallelism`.
        max_parallelism: u32,
    },
    /// `key_group_range(i, p, maxp)` for every `i` in `0..p`.
    Ranges {
        /// `p`.
        parallelism: u32,
        /// `maxp`.
        max_parallelism: u32,
    },
    /// `operator_index_for(g, p, maxp)` for every `g` in `0..maxp`.
    OperatorIndex {
        /// `p`.
        parallelism: u32,
        /// `maxp`.
        max_parallelism: u32,
    },
    /// `key_group_range(i, p, maxp)` for one chosen `i`, where `i * maxp` is past 2^53:
    /// only integer arithmetic gets its ceilings right there.
    RangeAt {
        /// `i`.
        index: u32,
        /// `p`.
        parallelism: u32,
        /// `maxp`.
        max_parallelism: u32,
    },
    /// `operator_index_for(g, p, maxp)` for one chosen `g`, where `g * p` is past `u32` or
    /// past 2^53.
    OwnerAt {
        /// `g`.
        key_group: u32,
        /// `p`.
        parallelism: u32,
        /// `maxp`.
        max_parallelism: u32,
    },
    /// `partition` of records `(key, position in the input)`.
    Partition {
        /// The records' keys, in input order.
        keys: Vec<String>,
        /// `p`.
        parallelism: u32,
        /// `maxp`.
        max_parallelism: u32,
    },
    /// `parallel_count(keys, p, maxp)`.
    ParallelCount {
        /// The keys to count.
        keys: Vec<String>,
        /// `p`.
        parallelism: u32,
        /// `maxp`.
        max_parallelism: u32,
    },
    /// `rescale` of the counts of `keys` at `from` to `to` subtasks.
    Rescale {
        /// The keys whose counts are the state.
        keys: Vec<String>,
        /// The old parallelism.
        from: u32,
        /// The new parallelism.
        to: u32,
        /// `maxp`.
        max_parallelism: u32,
    },
    /// `parents(j, from, to, maxp)` for every `j` in `0..to`.
    Parents {
        /// The old parallelism.
        from: u32,
        /// The new parallelism.
        to: u32,
        /// `maxp`.
        max_parallelism: u32,
    },
    /// `parents(j, from, to, maxp)` for one chosen `j`, where the arithmetic of the
    /// ranges' owners is past `u32` and the new range holds one key group (so a correct
    /// `parents` that walks it is quick).
    ParentsAt {
        /// `j`.
        index: u32,
        /// The old parallelism.
        from: u32,
        /// The new parallelism.
        to: u32,
        /// `maxp`.
        max_parallelism: u32,
    },
    /// Count `keys[..crash_after]` with `KeyedSubtask`s at `from`, snapshot them, restore
    /// every subtask of `to` from its parents' snapshots, count the rest at `to`.
    Crash {
        /// The keys to count.
        keys: Vec<String>,
        /// The parallelism before the crash.
        from: u32,
        /// The parallelism after the restore.
        to: u32,
        /// `maxp`.
        max_parallelism: u32,
        /// Keys counted before the snapshot.
        crash_after: usize,
    },
    /// `rescale` of an old state the learner's code never builds (see [`Shape`]).
    RescaleEdge {
        /// What is wrong with it.
        shape: Shape,
        /// One map per old subtask.
        state: Counts,
        /// The new parallelism.
        to: u32,
        /// `maxp`.
        max_parallelism: u32,
    },
    /// `KeyedSubtask::new(start)`, then every call of `ops` on the subtask that goes on.
    Contract {
        /// `maxp`.
        max_parallelism: u32,
        /// The subtask built first.
        start: At,
        /// The calls, in order.
        ops: Vec<Op>,
    },
    /// `snapshot()` of a new subtask for each of `subtasks`: empty subtasks of other
    /// indices and parallelisms, whose snapshots hold the same keyed state (none).
    EmptySnapshots {
        /// `maxp`.
        max_parallelism: u32,
        /// The subtasks, all new.
        subtasks: Vec<At>,
    },
    /// `snapshot()` of two subtasks `(0, 1)` that counted the same `keys` in the same
    /// order: the same keyed state, so the same bytes, whatever order a map of the
    /// implementation iterates in (a `HashMap`'s changes from one map to the next).
    TwinSnapshots {
        /// `maxp`.
        max_parallelism: u32,
        /// The keys each counts, in order.
        keys: Vec<String>,
    },
    /// A subtask's snapshot of 256 keys of random symbols, and a restore from it
    /// (`dense.rs`).
    DenseSnapshot,
    /// A call with an invalid argument.
    Errors {
        /// The call.
        call: ErrorCall,
    },
}

impl case::Case for Case {
    fn check(&self) -> Check {
        match self {
            Case::KeyGroup { .. } => KEY_GROUP,
            Case::Ranges { .. } | Case::RangeAt { .. } => KEY_GROUP_RANGE,
            Case::OperatorIndex { .. } | Case::OwnerAt { .. } => OPERATOR_INDEX,
            Case::Partition { .. } => PARTITION,
            Case::ParallelCount { .. } => PARALLEL_COUNT,
            Case::Rescale { .. } | Case::RescaleEdge { .. } => RESCALE,
            Case::Parents { .. } | Case::ParentsAt { .. } => PARENTS,
            Case::Crash { .. } => CRASH,
            Case::Contract { .. }
            | Case::EmptySnapshots { .. }
            | Case::TwinSnapshots { .. }
            | Case::DenseSnapshot => CONTRACT,
            Case::Errors { .. } => ERRORS,
        }
    }

    fn requirements(&self) -> Vec<&'static str> {
        match self {
            Case::KeyGroup { .. } => vec!["03-R16", "03-R17", "03-R18"],
            Case::Ranges {
                parallelism,
                max_parallelism,
            } => vec![if overflows_u32(*parallelism, *max_parallelism) {
                "03-R24"
            } else {
                "03-R20"
            }],
            Case::OperatorIndex {
                parallelism,
                max_parallelism,
            } => vec![if overflows_u32(*parallelism, *max_parallelism) {
                "03-R24"
            } else {
                "03-R19"
            }],
            Case::RangeAt { .. } | Case::OwnerAt { .. } => vec!["03-R24"],
            Case::Partition { .. } => vec!["03-R1", "03-R2", "03-R18", "03-R19"],
            Case::ParallelCount { .. } => vec!["03-R10"],
            Case::Rescale { .. } => vec!["03-R11"],
            Case::RescaleEdge { shape, .. } => vec![shape.requirement()],
            Case::Parents { .. } => vec!["03-R15"],
            Case::ParentsAt { .. } => vec!["03-R15", "03-R24"],
            Case::Crash { .. } => vec!["03-R1", "03-R4", "03-R5", "03-R6", "03-R7"],
            Case::Contract { .. } => vec![
                "03-R3", "03-R4", "03-R5", "03-R6", "03-R7", "03-R8", "03-R21", "03-R24",
            ],
            Case::EmptySnapshots { .. } | Case::TwinSnapshots { .. } => vec!["03-R6"],
            Case::DenseSnapshot => vec!["03-R6", "03-R7"],
            Case::Errors { call } if call.argument().is_none() => vec![call.requirement()],
            Case::Errors { call } => vec![call.requirement(), "03-R23"],
        }
    }

    fn describe(&self) -> String {
        match self {
            Case::KeyGroup {
                keys,
                max_parallelism,
            } => format!("keys {keys:?}, max_parallelism {max_parallelism}"),
            Case::Ranges {
                parallelism,
                max_parallelism,
            }
            | Case::OperatorIndex {
                parallelism,
                max_parallelism,
            } => format!("parallelism {parallelism}, max_parallelism {max_parallelism}"),
            Case::RangeAt {
                index,
                parallelism,
                max_parallelism,
            } => format!("key_group_range({index}, {parallelism}, {max_parallelism})"),
            Case::OwnerAt {
                key_group,
                parallelism,
                max_parallelism,
            } => format!("operator_index_for({key_group}, {parallelism}, {max_parallelism})"),
            Case::Partition {
                keys,
                parallelism,
                max_parallelism,
            } => format!(
                "records (key, position) of keys {keys:?}, parallelism {parallelism}, max_parallelism {max_parallelism}"
            ),
            Case::ParallelCount {
                keys,
                parallelism,
                max_parallelism,
            } => format!(
                "parallel_count of keys {keys:?}, parallelism {parallelism}, max_parallelism {max_parallelism}"
            ),
            Case::Rescale {
                keys,
                from,
                to,
                max_parallelism,
            } => format!(
                "the counts of keys {keys:?} at parallelism {from}, rescaled to {to}, max_parallelism {max_parallelism}"
            ),
            Case::Parents {
                from,
                to,
                max_parallelism,
            } => format!("rescale {from} -> {to}, max_parallelism {max_parallelism}"),
            Case::ParentsAt {
                index,
                from,
                to,
                max_parallelism,
            } => format!("parents({index}, {from}, {to}, {max_parallelism})"),
            Case::Crash {
                keys,
                from,
                to,
                max_parallelism,
                crash_after,
            } => format!(
                "count keys {keys:?}: {crash_after} key(s) at parallelism {from}, snapshot, restore at parallelism {to}, the rest at {to}; max_parallelism {max_parallelism}"
            ),
            Case::RescaleEdge {
                state,
                to,
                max_parallelism,
                ..
            } => format!("rescale({state:?}, {to}, {max_parallelism})"),
            Case::Contract {
                max_parallelism,
                start,
                ops,
            } => {
                let mut calls = vec![format!(
                    "KeyedSubtask::new({}, {}, {max_parallelism})",
                    start.index, start.parallelism
                )];
                calls.extend(ops.iter().map(|op| op.code(*max_parallelism)));
                calls.join(", then ")
            }
            Case::EmptySnapshots {
                max_parallelism,
                subtasks,
            } => {
                let news: Vec<String> = subtasks
                    .iter()
                    .map(|at| {
                        format!(
                            "KeyedSubtask::new({}, {}, {max_parallelism})",
                            at.index, at.parallelism
                        )
                    })
                    .collect();
                format!(
                    "snapshot() of each of {}, before any update",
                    news.join(", ")
                )
            }
            Case::TwinSnapshots {
                max_parallelism,
                keys,
            } => format!(
                "KeyedSubtask::new(0, 1, {max_parallelism}) twice, each counting {}, then snapshot() of each",
                keys.join(", ")
            ),
            Case::DenseSnapshot => super::dense::describe(),
            Case::Errors { call } => call.code().to_owned(),
        }
    }
}

/// Whether `key_group * parallelism` or `index * max_parallelism` can overflow a `u32`:
/// the fixed cases that judge "compute the formulas in u64".
pub(super) fn overflows_u32(parallelism: u32, max_parallelism: u32) -> bool {
    u64::from(parallelism) * u64::from(max_parallelism) > u64::from(u32::MAX)
}
