//! Runs one stage-02 case against an implementation and records what happened.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};

use serde::{Deserialize, Serialize};

use super::binding::{Implementation, SpyEvent, SpyState};
use super::contract::{self, Call, Decoded, OpStep};
use super::plan::Case;
use super::state_ops::{Readings, StateReturned, StateStep};

/// What the driver saw while running one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// One step per operation (fewer if one panicked).
    KeyedState {
        /// What each operation returned and the readings after it.
        steps: Vec<StateStep>,
    },
    /// A round trip through `to_bytes` and `from_bytes` of text keys.
    TextBytes {
        /// What came back.
        decoded: Decoded<BTreeMap<String, u32>>,
    },
    /// A round trip through `to_bytes` and `from_bytes` of `Vec<u8>` keys.
    BinaryBytes {
        /// What came back.
        decoded: Decoded<Vec<(Vec<u8>, u32)>>,
    },
    /// `from_bytes` of bytes no `to_bytes` wrote.
    NotStateBytes {
        /// What came back.
        decoded: Decoded<BTreeMap<String, u32>>,
    },
    /// `restore` of bytes no snapshot wrote, and the state it restored.
    NotASnapshot {
        /// What came back.
        decoded: Decoded<BTreeMap<String, SpyState>>,
        /// The implementation's own snapshot of a new operator (`None` if it failed).
        empty_snapshot: Option<Vec<u8>>,
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
        /// The restored operator's state right after the restore.
        restored_state: BTreeMap<String, SpyState>,
        /// What the spy emitted after the restore.
        after: Vec<SpyEvent>,
        /// The restored operator's state at the end.
        final_state: BTreeMap<String, SpyState>,
    },
    /// One step per call of a contract sequence (fewer if one panicked).
    Contract {
        /// What each call did.
        steps: Vec<OpStep>,
    },
    /// The steps of a fan-out run.
    Fanout {
        /// What each call did.
        steps: Vec<super::fanout::FanoutStep>,
    },
    /// The output of `word_count`.
    WordCount {
        /// The update stream.
        updates: Vec<(String, u64)>,
    },
    /// The operator's own snapshot, and `restore` of it padded.
    PaddedSnapshot(super::padded::PaddedRestore),
    /// The operator's own snapshot, and `restore` of each rewriting of it.
    RewrittenSnapshot(super::rewritten::RewrittenRestores),
    /// The dense state's snapshot length and what restored from it (`dense.rs`).
    DenseSnapshot(super::dense::DenseRun),
    /// The snapshots of operators holding one state (`instances.rs`), in the order of
    /// `same_state_sources` (`Err` as its message, a panic's too).
    SameBytes {
        /// The bytes of each.
        snapshots: Vec<Result<Vec<u8>, String>>,
    },
    /// The steps of two word-counting operators (`instances.rs`).
    WordCounters {
        /// What each call did.
        steps: Vec<super::instances::CounterStep>,
    },
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    match case {
        Case::KeyedState { ops } => {
            let mut state = I::state_new();
            let mut steps = Vec::new();
            for op in ops {
                let step = caught(|| {
                    let returned = I::state_apply(&mut state, op);
                    let readings = Readings {
                        a: I::state_get(&state, "a"),
                        b: I::state_get(&state, "b"),
                        snapshot: I::state_snapshot(&state),
                    };
                    (returned, Some(readings))
                });
                let (returned, readings) =
                    step.unwrap_or_else(|message| (StateReturned::Panicked(message), None));
                let stop = readings.is_none();
                steps.push(StateStep { returned, readings });
                if stop {
                    break;
                }
            }
            Observation::KeyedState { steps }
        }
        Case::TextBytes { pairs } => Observation::TextBytes {
            decoded: decoded(|| I::text_round_trip(pairs)),
        },
        Case::BinaryBytes { pairs } => Observation::BinaryBytes {
            // As pairs: JSON, which observations travel in, has no object with byte keys.
            decoded: decoded(|| I::binary_round_trip(pairs).map(|m| m.into_iter().collect())),
        },
        Case::NotStateBytes { bytes } => Observation::NotStateBytes {
            decoded: decoded(|| I::state_from_bytes(bytes)),
        },
        Case::NotASnapshot { bytes } => Observation::NotASnapshot {
            decoded: decoded(|| {
                I::restore(bytes)
                    .map(|op| I::keyed_state(&op))
                    .map_err(|e| format!("{e:#}"))
            }),
            empty_snapshot: match decoded(|| {
                I::snapshot(&I::operator()).map_err(|e| format!("{e:#}"))
            }) {
                Decoded::Ok(bytes) => Some(bytes),
                _ => None,
            },
        },
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
                    let restored_state = I::keyed_state(&operator);
                    let after = feed::<I>(&mut operator, tail);
                    Observation::Crash {
                        before,
                        restore: Ok(()),
                        restored_state,
                        after,
                        final_state: I::keyed_state(&operator),
                    }
                }
                Err(e) => Observation::Crash {
                    before,
                    restore: Err(format!("{e:#}")),
                    restored_state: BTreeMap::new(),
                    after: Vec::new(),
                    final_state: BTreeMap::new(),
                },
            }
        }
        Case::Contract { calls } => Observation::Contract {
            steps: contract_steps::<I>(calls),
        },
        Case::Fanout { records, restores } => Observation::Fanout {
            steps: super::fanout::run::<I>(records, restores),
        },
        Case::WordCount { lines } => Observation::WordCount {
            updates: I::word_count(lines),
        },
        Case::PaddedSnapshot { padding } => {
            Observation::PaddedSnapshot(super::padded::run::<I>(*padding))
        }
        Case::RewrittenSnapshot { rewrite } => {
            Observation::RewrittenSnapshot(super::rewritten::run::<I>(*rewrite))
        }
        Case::DenseSnapshot => Observation::DenseSnapshot(super::dense::run::<I>()),
        Case::SameBytes => Observation::SameBytes {
            snapshots: same_bytes::<I>(),
        },
        Case::WordCounters { calls } => Observation::WordCounters {
            steps: word_counters::<I>(calls),
        },
    }
}

/// The snapshots of `same-bytes`, every operator alive until the last is taken.
fn same_bytes<I: Implementation>() -> Vec<Result<Vec<u8>, String>> {
    let taken = caught(|| {
        let snapshot = |op: &I::Operator| I::snapshot(op).map_err(|e| format!("{e:#}"));
        let mut operators = Vec::new();
        for feed in super::instances::same_state_feeds() {
            let mut operator = I::operator();
            self::feed::<I>(&mut operator, &feed);
            operators.push(operator);
        }
        let first = snapshot(&operators[0]);
        let mut snapshots = vec![first.clone(), snapshot(&operators[0])];
        snapshots.extend(operators[1..].iter().map(snapshot));
        let restored = first.and_then(|bytes| I::restore(&bytes).map_err(|e| format!("{e:#}")));
        snapshots.push(restored.and_then(|op| snapshot(&op)));
        snapshots
    });
    taken.unwrap_or_else(|message| vec![Err(format!("panicked: {message}"))])
}

/// The steps of `word-counters`, both operators alive throughout.
fn word_counters<I: Implementation>(
    calls: &[super::instances::CounterCall],
) -> Vec<super::instances::CounterStep> {
    use super::instances::{CounterCall, CounterStep};
    let mut operators = [Some(I::word_counter()), Some(I::word_counter())];
    let mut steps = Vec::new();
    for call in calls {
        let step = caught(|| {
            let out = match call {
                CounterCall::Word(i, word) => match operators[*i].as_mut() {
                    Some(op) => I::word_counter_process(op, word.clone()),
                    None => return CounterStep::Failed("no operator".to_owned()),
                },
                CounterCall::Restore(i) => {
                    let Some(op) = operators[*i].take() else {
                        return CounterStep::Failed("no operator".to_owned());
                    };
                    match I::word_counter_restore(op) {
                        Ok(op) => {
                            operators[*i] = Some(op);
                            Vec::new()
                        }
                        Err(e) => return CounterStep::Failed(format!("{e:#}")),
                    }
                }
            };
            let state = |op: &Option<I::WordCounter>| {
                op.as_ref().map(I::word_counter_state).unwrap_or_default()
            };
            CounterStep::Done {
                out,
                states: [state(&operators[0]), state(&operators[1])],
            }
        });
        let step = step.unwrap_or_else(CounterStep::Panicked);
        let stop = !matches!(step, CounterStep::Done { .. });
        steps.push(step);
        if stop {
            break;
        }
    }
    steps
}

fn contract_steps<I: Implementation>(calls: &[Call]) -> Vec<OpStep> {
    let mut operator = Some(I::operator());
    let mut steps = Vec::new();
    for call in calls {
        let Some(current) = operator.take() else {
            break;
        };
        let step = caught(|| match call {
            Call::Process(key, value) => {
                let mut current = current;
                let out =
                    I::process_into(&mut current, (key.clone(), *value), vec![contract::held()]);
                let state = I::keyed_state(&current);
                (Some(current), OpStep::Processed { out, state })
            }
            Call::Snapshot => {
                let result = I::snapshot(&current)
                    .map(drop)
                    .map_err(|e| format!("{e:#}"));
                let state = I::keyed_state(&current);
                (Some(current), OpStep::Snapshotted { result, state })
            }
            Call::Restore => {
                let restored = I::snapshot(&current).and_then(|bytes| {
                    drop(current);
                    I::restore(&bytes)
                });
                match restored {
                    Ok(op) => {
                        let state = I::keyed_state(&op);
                        (
                            Some(op),
                            OpStep::Restored {
                                result: Ok(()),
                                state,
                            },
                        )
                    }
                    Err(e) => (
                        None,
                        OpStep::Restored {
                            result: Err(format!("{e:#}")),
                            state: BTreeMap::new(),
                        },
                    ),
                }
            }
        });
        match step {
            Ok((next, step)) => {
                operator = next;
                steps.push(step);
            }
            Err(message) => {
                steps.push(OpStep::Panicked(message));
                break;
            }
        }
    }
    steps
}

fn feed<I: Implementation>(operator: &mut I::Operator, records: &[(String, u32)]) -> Vec<SpyEvent> {
    records
        .iter()
        .flat_map(|record| I::process(operator, record.clone()))
        .collect()
}

/// What `call` returned, as a [`Decoded`], its panic included.
pub(super) fn decoded<T>(call: impl FnOnce() -> Result<T, String>) -> Decoded<T> {
    match caught(call) {
        Ok(Ok(value)) => Decoded::Ok(value),
        Ok(Err(message)) => Decoded::Err(message),
        Err(message) => Decoded::Panicked(message),
    }
}

/// `call`'s value, or its panic's message; a `todo!()` goes on unwinding, to reach the
/// harness as one ("not started").
pub(super) fn caught<T>(call: impl FnOnce() -> T) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(call)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with a non-string payload".to_owned());
        if message.starts_with("not yet implemented") {
            panic::resume_unwind(payload);
        }
        message
    })
}
