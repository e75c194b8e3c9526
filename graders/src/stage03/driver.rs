//! Runs one stage-03 case against an implementation and records what happened.

use serde::{Deserialize, Serialize};

use super::case::{Case, ErrorCall};
use super::{Implementation, SubtaskCounts, oracle};

/// What the driver saw while running one case. `Err` holds an error's message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// `(stable_hash(key), key_group_for(key, maxp))` per key.
    KeyGroup {
        /// One entry per key of the case.
        groups: Vec<(u32, Result<u32, String>)>,
    },
    /// `key_group_range(i, p, maxp)` per `i`, as `(start, end)`.
    Ranges {
        /// One entry per subtask.
        ranges: Vec<Result<(u32, u32), String>>,
    },
    /// `operator_index_for(g, p, maxp)` per key group `g`.
    OperatorIndex {
        /// One entry per key group.
        owners: Vec<Result<u32, String>>,
    },
    /// The streams `partition` returned.
    Partition {
        /// One stream per subtask.
        streams: Result<Vec<Vec<(String, u32)>>, String>,
    },
    /// Per-subtask counts (`parallel_count`, `rescale`).
    Counts {
        /// One map per subtask.
        counts: Result<Vec<SubtaskCounts>, String>,
    },
    /// `parents(j, p, q, maxp)` per new subtask `j`.
    Parents {
        /// One entry per new subtask.
        parents: Vec<Result<Vec<u32>, String>>,
    },
    /// A count cut by a snapshot and a restore at another parallelism.
    Crash {
        /// The new subtasks' counts right after the restore, or the first error (with
        /// the step that raised it).
        restored: Result<Vec<SubtaskCounts>, String>,
        /// The new subtasks' counts at the end, or the first error.
        finished: Result<Vec<SubtaskCounts>, String>,
    },
    /// The result of an invalid call: `Ok` with the value it returned, or the error.
    Errors {
        /// What the call returned.
        result: Result<String, String>,
    },
}

fn message(e: anyhow::Error) -> String {
    format!("{e:#}")
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    match case {
        Case::KeyGroup {
            keys,
            max_parallelism,
        } => Observation::KeyGroup {
            groups: keys
                .iter()
                .map(|k| {
                    let group = I::key_group_for(k, *max_parallelism).map_err(message);
                    (I::stable_hash(k), group)
                })
                .collect(),
        },
        Case::Ranges {
            parallelism,
            max_parallelism,
        } => Observation::Ranges {
            ranges: (0..*parallelism)
                .map(|i| I::key_group_range(i, *parallelism, *max_parallelism).map_err(message))
                .collect(),
        },
        Case::OperatorIndex {
            parallelism,
            max_parallelism,
        } => Observation::OperatorIndex {
            owners: (0..*max_parallelism)
                .map(|g| I::operator_index_for(g, *parallelism, *max_parallelism).map_err(message))
                .collect(),
        },
        Case::Partition {
            keys,
            parallelism,
            max_parallelism,
        } => Observation::Partition {
            streams: I::partition(&numbered(keys), *parallelism, *max_parallelism).map_err(message),
        },
        Case::ParallelCount {
            keys,
            parallelism,
            max_parallelism,
        } => Observation::Counts {
            counts: I::parallel_count(keys, *parallelism, *max_parallelism).map_err(message),
        },
        Case::Rescale {
            keys,
            from,
            to,
            max_parallelism,
        } => Observation::Counts {
            counts: I::rescale(
                oracle::counts(keys, *from, *max_parallelism),
                *to,
                *max_parallelism,
            )
            .map_err(message),
        },
        Case::Parents {
            from,
            to,
            max_parallelism,
        } => Observation::Parents {
            parents: (0..*to)
                .map(|j| I::parents(j, *from, *to, *max_parallelism).map_err(message))
                .collect(),
        },
        Case::Crash {
            keys,
            from,
            to,
            max_parallelism,
            crash_after,
        } => crash::<I>(keys, *from, *to, *max_parallelism, *crash_after),
        Case::Errors { call } => Observation::Errors {
            result: invalid_call::<I>(*call),
        },
    }
}

/// Records `(key, position)`, so that order within a subtask is visible.
pub(super) fn numbered(keys: &[String]) -> Vec<(String, u32)> {
    (0u32..).zip(keys).map(|(i, k)| (k.clone(), i)).collect()
}

/// Counts with subtasks at `from`, snapshots, restores at `to`, counts the rest.
///
/// Records are routed by the grader's own partitioning so that this check judges the
/// subtasks' state and its snapshots alone; `partition` has its own check.
fn crash<I: Implementation>(
    keys: &[String],
    from: u32,
    to: u32,
    maxp: u32,
    crash_after: usize,
) -> Observation {
    let (head, tail) = keys.split_at(crash_after);
    let restored = (|| -> Result<Vec<I::Subtask>, String> {
        let mut snapshots = Vec::new();
        for (i, stream) in (0u32..).zip(route(head, from, maxp)) {
            let at = |what: &str| format!("subtask {i} of {from}: {what}");
            let mut subtask = I::subtask(i, from, maxp).map_err(|e| at(&message(e)))?;
            for key in &stream {
                I::count(&mut subtask, key).map_err(|e| at(&format!("update({key:?}): {e:#}")))?;
            }
            snapshots.push(I::snapshot(&subtask).map_err(|e| at(&format!("snapshot(): {e:#}")))?);
        }
        // Everything in memory is gone; only the snapshots survive.
        (0..to)
            .map(|j| {
                let mine: Vec<Vec<u8>> = oracle::parents(j, from, to, maxp)
                    .into_iter()
                    .map(|i| snapshots[i as usize].clone())
                    .collect();
                I::restore(j, to, maxp, &mine)
                    .map_err(|e| format!("restore of subtask {j} of {to}: {e:#}"))
            })
            .collect()
    })();
    let mut subtasks = match restored {
        Ok(subtasks) => subtasks,
        Err(e) => {
            return Observation::Crash {
                restored: Err(e.clone()),
                finished: Err(e),
            };
        }
    };
    let after_restore: Vec<SubtaskCounts> = subtasks.iter().map(I::counts).collect();
    let finished = (|| -> Result<Vec<SubtaskCounts>, String> {
        for ((j, subtask), stream) in (0u32..).zip(&mut subtasks).zip(route(tail, to, maxp)) {
            for key in &stream {
                I::count(subtask, key)
                    .map_err(|e| format!("subtask {j} of {to}: update({key:?}): {e:#}"))?;
            }
        }
        Ok(subtasks.iter().map(I::counts).collect())
    })();
    Observation::Crash {
        restored: Ok(after_restore),
        finished,
    }
}

fn route(keys: &[String], p: u32, maxp: u32) -> Vec<Vec<String>> {
    let mut streams = vec![Vec::new(); p as usize];
    for key in keys {
        streams[oracle::owner_of(key.as_bytes(), p, maxp) as usize].push(key.clone());
    }
    streams
}

fn invalid_call<I: Implementation>(call: ErrorCall) -> Result<String, String> {
    let show = |r: anyhow::Result<String>| r.map_err(message);
    let records = numbered(&["k".to_owned()]);
    let keys = vec!["k".to_owned()];
    match call {
        ErrorCall::RangeParallelismZero => {
            show(I::key_group_range(0, 0, 8).map(|r| format!("{r:?}")))
        }
        ErrorCall::RangeAboveMax => show(I::key_group_range(0, 9, 8).map(|r| format!("{r:?}"))),
        ErrorCall::KeyGroupMaxZero => show(I::key_group_for("k", 0).map(|g| g.to_string())),
        ErrorCall::IndexParallelismZero => {
            show(I::operator_index_for(0, 0, 8).map(|i| i.to_string()))
        }
        ErrorCall::PartitionZero => show(I::partition(&records, 0, 8).map(|s| format!("{s:?}"))),
        ErrorCall::CountAboveMax => show(I::parallel_count(&keys, 9, 8).map(|c| format!("{c:?}"))),
        ErrorCall::RescaleZero => {
            show(I::rescale(oracle::counts(&keys, 1, 8), 0, 8).map(|c| format!("{c:?}")))
        }
        ErrorCall::SubtaskZero => show(I::subtask(0, 0, 8).map(|_| "a subtask".to_owned())),
        ErrorCall::RangeIndexOutOfRange => {
            show(I::key_group_range(2, 2, 8).map(|r| format!("{r:?}")))
        }
        ErrorCall::IndexKeyGroupOutOfRange => {
            show(I::operator_index_for(8, 2, 8).map(|i| i.to_string()))
        }
    }
}
