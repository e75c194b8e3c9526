//! Runs one stage-03 case against an implementation and records what happened.

use serde::{Deserialize, Serialize};

use super::case::Case;
use super::contract::{Seen, drive_contract};
use super::errors::invalid_call;
use super::guard::{Answer, caught};
use super::oracle::numbered;
use super::{Implementation, SubtaskCounts};

/// What the driver saw while running one case. `Err` holds an error's message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// `(stable_hash(key), key_group_for(key, maxp) called CALLS times)` per key: the
    /// later calls show a hash that is not a function of the key alone.
    KeyGroup {
        /// One entry per key of the case.
        groups: Vec<(u32, Vec<Result<u32, String>>)>,
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
    /// `key_group_range(i, p, maxp)` of one chosen `i`, as `(start, end)`.
    RangeAt {
        /// What it returned.
        range: Result<(u32, u32), String>,
    },
    /// `operator_index_for(g, p, maxp)` of one chosen `g`.
    OwnerAt {
        /// What it returned.
        owner: Result<u32, String>,
    },
    /// The streams `partition` returned.
    Partition {
        /// One stream per subtask.
        streams: Result<Vec<Vec<(String, u32)>>, String>,
        /// Per record, where the implementation's own formulas send it:
        /// `(key_group_for(key), operator_index_for(that group))`.
        own: Vec<(Result<u32, String>, Result<u32, String>)>,
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
    /// `rescale` of a malformed old state.
    Rescaled {
        /// What it answered.
        answer: Answer<Vec<SubtaskCounts>>,
    },
    /// A count cut by a snapshot and a restore at another parallelism.
    Crash {
        /// The keys before the crash as the implementation's `partition` routed them at
        /// the old parallelism, then those after it at the new one.
        routed: [Result<Vec<Vec<String>>, String>; 2],
        /// The new subtasks' counts right after the restore, or the first error (with
        /// the step that raised it).
        restored: Result<Vec<SubtaskCounts>, Stumble>,
        /// The new subtasks' counts at the end, or the first error.
        finished: Result<Vec<SubtaskCounts>, Stumble>,
    },
    /// Every step of a contract sequence, the start first.
    Contract {
        /// What each call answered and left.
        steps: Vec<Seen>,
    },
    /// `snapshot()` of each new subtask of the case (or its failure to be built).
    Snapshots {
        /// One per subtask, in the case's order.
        snapshots: Vec<Answer<Vec<u8>>>,
    },
    /// The dense state's snapshot length and what restored from it (`dense.rs`).
    Dense(super::dense::DenseRun),
    /// The answer to an invalid call, the value it returned shown as text.
    Errors {
        /// What the call answered.
        answer: Answer<String>,
    },
}

/// How often the `key-group` check asks each key's group: a hash seeded per hasher, as
/// `RandomState`'s, answers differently within a few calls (at `max_parallelism` 2, all
/// five calls agree for all seven keys once in 2^28 runs).
const KEY_GROUP_CALLS: usize = 5;

fn message(e: anyhow::Error) -> String {
    format!("{e:#}")
}

/// A call's result, a panic read as an error saying so: the brief rules panics out (an
/// overflow, a key printed as text), so the check judging the call names its rule.
fn guarded<T>(call: impl FnOnce() -> anyhow::Result<T>) -> Result<T, String> {
    match caught(call) {
        Answer::Ok(value) => Ok(value),
        Answer::Err(e) => Err(e),
        Answer::Panicked(m) => Err(format!("panicked: {m}")),
    }
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
                    let groups = (0..KEY_GROUP_CALLS)
                        .map(|_| guarded(|| I::key_group_for(k, *max_parallelism)))
                        .collect();
                    (I::stable_hash(k), groups)
                })
                .collect(),
        },
        Case::Ranges {
            parallelism,
            max_parallelism,
        } => Observation::Ranges {
            ranges: (0..*parallelism)
                .map(|i| guarded(|| I::key_group_range(i, *parallelism, *max_parallelism)))
                .collect(),
        },
        Case::OperatorIndex {
            parallelism,
            max_parallelism,
        } => Observation::OperatorIndex {
            owners: (0..*max_parallelism)
                .map(|g| guarded(|| I::operator_index_for(g, *parallelism, *max_parallelism)))
                .collect(),
        },
        Case::RangeAt {
            index,
            parallelism,
            max_parallelism,
        } => Observation::RangeAt {
            range: guarded(|| I::key_group_range(*index, *parallelism, *max_parallelism)),
        },
        Case::OwnerAt {
            key_group,
            parallelism,
            max_parallelism,
        } => Observation::OwnerAt {
            owner: guarded(|| I::operator_index_for(*key_group, *parallelism, *max_parallelism)),
        },
        Case::Partition {
            keys,
            parallelism,
            max_parallelism,
        } => Observation::Partition {
            streams: guarded(|| I::partition(&numbered(keys), *parallelism, *max_parallelism)),
            own: keys
                .iter()
                .map(|k| {
                    let group = guarded(|| I::key_group_for(k, *max_parallelism));
                    let index = match &group {
                        Ok(g) => {
                            guarded(|| I::operator_index_for(*g, *parallelism, *max_parallelism))
                        }
                        Err(e) => Err(e.clone()),
                    };
                    (group, index)
                })
                .collect(),
        },
        Case::ParallelCount {
            keys,
            parallelism,
            max_parallelism,
        } => Observation::Counts {
            counts: guarded(|| I::parallel_count(keys, *parallelism, *max_parallelism)),
        },
        Case::Rescale {
            keys,
            from,
            to,
            max_parallelism,
        } => Observation::Counts {
            counts: guarded(|| {
                I::rescale(
                    super::oracle::counts(keys, *from, *max_parallelism),
                    *to,
                    *max_parallelism,
                )
            }),
        },
        Case::Parents {
            from,
            to,
            max_parallelism,
        } => Observation::Parents {
            parents: (0..*to)
                .map(|j| guarded(|| I::parents(j, *from, *to, *max_parallelism)))
                .collect(),
        },
        Case::ParentsAt {
            index,
            from,
            to,
            max_parallelism,
        } => Observation::Parents {
            parents: vec![guarded(|| I::parents(*index, *from, *to, *max_parallelism))],
        },
        Case::Crash {
            keys,
            from,
            to,
            max_parallelism,
            crash_after,
        } => crash::<I>(keys, *from, *to, *max_parallelism, *crash_after),
        Case::RescaleEdge {
            state,
            to,
            max_parallelism,
            ..
        } => Observation::Rescaled {
            answer: caught(|| I::rescale(state.clone(), *to, *max_parallelism)),
        },
        Case::Contract {
            max_parallelism,
            start,
            ops,
        } => Observation::Contract {
            steps: drive_contract::<I>(*max_parallelism, *start, ops),
        },
        Case::EmptySnapshots {
            max_parallelism,
            subtasks,
        } => Observation::Snapshots {
            snapshots: subtasks
                .iter()
                .map(|at| {
                    caught(|| I::snapshot(&I::subtask(at.index, at.parallelism, *max_parallelism)?))
                })
                .collect(),
        },
        Case::TwinSnapshots {
            max_parallelism,
            keys,
        } => Observation::Snapshots {
            snapshots: (0..2)
                .map(|_| {
                    caught(|| {
                        let mut subtask = I::subtask(0, 1, *max_parallelism)?;
                        for key in keys {
                            I::count(&mut subtask, key)?;
                        }
                        I::snapshot(&subtask)
                    })
                })
                .collect(),
        },
        Case::DenseSnapshot => Observation::Dense(super::dense::run::<I>()),
        Case::Errors { call } => Observation::Errors {
            answer: invalid_call::<I>(*call),
        },
    }
}

/// The call of a crash that failed: the judge names the rule from the call, never from
/// the words of a message the learner wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CrashCall {
    /// `partition` failed, so nothing after it ran.
    Partition,
    /// `KeyedSubtask::new` of an old subtask.
    New,
    /// `update` of a routed key, before the crash or after the restore.
    Update,
    /// `snapshot()` of an old subtask.
    Snapshot,
    /// `restore` of a new subtask from its parents' snapshots.
    Restore,
}

/// A crash's first failed call, and its error with the subtask and step that raised it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stumble {
    /// Which call failed.
    pub call: CrashCall,
    /// The error, after the subtask and the call.
    pub message: String,
}

impl Stumble {
    fn at(call: CrashCall, message: String) -> Self {
        Self { call, message }
    }
}

/// Counts with subtasks at `from`, snapshots, restores at `to`, counts the rest.
///
/// Records are routed by the implementation's own `partition` (the judge compares its
/// routing with the formulas first) and each new subtask reads its parents' snapshots,
/// the ones the implementation itself wrote.
fn crash<I: Implementation>(
    keys: &[String],
    from: u32,
    to: u32,
    maxp: u32,
    crash_after: usize,
) -> Observation {
    let (head, tail) = keys.split_at(crash_after);
    let route = |keys: &[String], p: u32| -> Result<Vec<Vec<String>>, String> {
        let records: Vec<(String, u32)> = numbered(keys);
        I::partition(&records, p, maxp)
            .map(|streams| {
                streams
                    .into_iter()
                    .map(|s| s.into_iter().map(|(k, _)| k).collect())
                    .collect()
            })
            .map_err(|e| format!("partition: {e:#}"))
    };
    let routed = [route(head, from), route(tail, to)];
    let unrouted = |routed: &[Result<Vec<Vec<String>>, String>; 2]| Observation::Crash {
        routed: routed.clone(),
        restored: Err(Stumble::at(
            CrashCall::Partition,
            "not run: partition failed".to_owned(),
        )),
        finished: Err(Stumble::at(
            CrashCall::Partition,
            "not run: partition failed".to_owned(),
        )),
    };
    let (Ok(before), Ok(after)) = (&routed[0], &routed[1]) else {
        return unrouted(&routed);
    };
    if before.len() != from as usize || after.len() != to as usize {
        return unrouted(&routed);
    }
    let restored = (|| -> Result<Vec<I::Subtask>, Stumble> {
        let mut snapshots = Vec::new();
        for (i, stream) in (0u32..).zip(before) {
            let at = |call, what: &str| Stumble::at(call, format!("subtask {i} of {from}: {what}"));
            let mut subtask =
                I::subtask(i, from, maxp).map_err(|e| at(CrashCall::New, &message(e)))?;
            for key in stream {
                I::count(&mut subtask, key)
                    .map_err(|e| at(CrashCall::Update, &format!("update({key:?}): {e:#}")))?;
            }
            snapshots.push(
                I::snapshot(&subtask)
                    .map_err(|e| at(CrashCall::Snapshot, &format!("snapshot(): {e:#}")))?,
            );
        }
        // Everything in memory is gone; only the snapshots survive.
        (0..to)
            .map(|j| {
                let mine: Vec<Vec<u8>> = super::oracle::parents(j, from, to, maxp)
                    .into_iter()
                    .map(|i| snapshots[i as usize].clone())
                    .collect();
                I::restore(j, to, maxp, &mine).map_err(|e| {
                    Stumble::at(
                        CrashCall::Restore,
                        format!("restore of subtask {j} of {to}: {e:#}"),
                    )
                })
            })
            .collect()
    })();
    let mut subtasks = match restored {
        Ok(subtasks) => subtasks,
        Err(e) => {
            return Observation::Crash {
                routed,
                restored: Err(e.clone()),
                finished: Err(e),
            };
        }
    };
    let after_restore: Vec<SubtaskCounts> = subtasks.iter().map(I::counts).collect();
    let finished = (|| -> Result<Vec<SubtaskCounts>, Stumble> {
        for ((j, subtask), stream) in (0u32..).zip(&mut subtasks).zip(after) {
            for key in stream {
                I::count(subtask, key).map_err(|e| {
                    Stumble::at(
                        CrashCall::Update,
                        format!("subtask {j} of {to}: update({key:?}): {e:#}"),
                    )
                })?;
            }
        }
        Ok(subtasks.iter().map(I::counts).collect())
    })();
    Observation::Crash {
        routed,
        restored: Ok(after_restore),
        finished,
    }
}
