//! One case of stage 03 and the check it belongs to. Keys are short strings, handed to
//! the implementation as bytes.

use serde::{Deserialize, Serialize};

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
pub(super) const ERRORS: Check = Check {
    name: "errors",
    law: "an invalid parallelism, index or key group is an error that names the argument, never a panic",
};

/// A call with an invalid argument, and the argument its error must name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorCall {
    /// `key_group_range(0, 0, 8)`
    RangeParallelismZero,
    /// `key_group_range(0, 9, 8)`
    RangeAboveMax,
    /// `key_group_for(b"k", 0)`
    KeyGroupMaxZero,
    /// `operator_index_for(0, 0, 8)`
    IndexParallelismZero,
    /// `partition(&records, 0, 8)`
    PartitionZero,
    /// `parallel_count(&keys, 9, 8)`
    CountAboveMax,
    /// `rescale(state, 0, 8)`
    RescaleZero,
    /// `KeyedSubtask::new(0, 0, 8)`
    SubtaskZero,
    /// `key_group_range(2, 2, 8)`: the index out of range.
    RangeIndexOutOfRange,
    /// `operator_index_for(8, 2, 8)`: the key group out of range.
    IndexKeyGroupOutOfRange,
}

impl ErrorCall {
    /// Every invalid call, in plan order.
    pub const ALL: [ErrorCall; 10] = [
        ErrorCall::RangeParallelismZero,
        ErrorCall::RangeAboveMax,
        ErrorCall::KeyGroupMaxZero,
        ErrorCall::IndexParallelismZero,
        ErrorCall::PartitionZero,
        ErrorCall::CountAboveMax,
        ErrorCall::RescaleZero,
        ErrorCall::SubtaskZero,
        ErrorCall::RangeIndexOutOfRange,
        ErrorCall::IndexKeyGroupOutOfRange,
    ];

    /// The call as code.
    pub fn code(self) -> &'static str {
        match self {
            ErrorCall::RangeParallelismZero => "key_group_range(0, 0, 8)",
            ErrorCall::RangeAboveMax => "key_group_range(0, 9, 8)",
            ErrorCall::KeyGroupMaxZero => "key_group_for(b\"k\", 0)",
            ErrorCall::IndexParallelismZero => "operator_index_for(0, 0, 8)",
            ErrorCall::PartitionZero => "partition(&records, |r| ..., 0, 8)",
            ErrorCall::CountAboveMax => "parallel_count(&keys, 9, 8)",
            ErrorCall::RescaleZero => "rescale(state, 0, 8)",
            ErrorCall::SubtaskZero => "KeyedSubtask::new(0, 0, 8)",
            ErrorCall::RangeIndexOutOfRange => "key_group_range(2, 2, 8)",
            ErrorCall::IndexKeyGroupOutOfRange => "operator_index_for(8, 2, 8)",
        }
    }

    /// The word the error message must contain.
    pub fn argument(self) -> &'static str {
        match self {
            ErrorCall::KeyGroupMaxZero => "max_parallelism",
            ErrorCall::RangeIndexOutOfRange => "operator_index",
            ErrorCall::IndexKeyGroupOutOfRange => "key_group",
            _ => "parallelism",
        }
    }
}

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
            Case::Ranges { .. } => KEY_GROUP_RANGE,
            Case::OperatorIndex { .. } => OPERATOR_INDEX,
            Case::Partition { .. } => PARTITION,
            Case::ParallelCount { .. } => PARALLEL_COUNT,
            Case::Rescale { .. } => RESCALE,
            Case::Parents { .. } => PARENTS,
            Case::Crash { .. } => CRASH,
            Case::Errors { .. } => ERRORS,
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
            Case::Crash {
                keys,
                from,
                to,
                max_parallelism,
                crash_after,
            } => format!(
                "count keys {keys:?}: {crash_after} key(s) at parallelism {from}, snapshot, restore at parallelism {to}, the rest at {to}; max_parallelism {max_parallelism}"
            ),
            Case::Errors { call } => call.code().to_owned(),
        }
    }
}
