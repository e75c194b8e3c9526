//! Runs one stage-07 case against an implementation and records what happened.

use serde::{Deserialize, Serialize};

use super::oracle::{Call, Stored};
use super::own_store::calls_on_own_store;
use super::{Case, Implementation, Outcome, SpyStore, StoreOp};
use crate::stage03::guard::{Answer, caught};

/// What the driver saw while running one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// After each store operation: its result, and `latest_completed()`.
    Store {
        /// One entry per operation.
        after_each: Vec<(Result<(), String>, Option<Stored>)>,
    },
    /// A run.
    Run {
        /// `(counts, emitted)`, or the error.
        result: Result<Outcome, String>,
        /// Every call on the spying store (none for `run_with_recovery`).
        calls: Vec<Call>,
    },
    /// `run_with_recovery(..)`, with what tells its store's part from the job's.
    OwnStore {
        /// `run_with_recovery(..)`.
        result: Result<Outcome, String>,
        /// `run_with_recovery_in(.., spy)` of the same run.
        spied: Result<Outcome, String>,
        /// The spy's calls made again on the implementation's own store
        /// (`own_store::calls_on_own_store`).
        replayed: Vec<Call>,
    },
    /// One run through both entry points: the spied one, then the implementation's own
    /// store.
    Contract {
        /// `run_with_recovery_in(.., spy)`.
        spied: Result<Outcome, String>,
        /// The spy's calls.
        calls: Vec<Call>,
        /// `run_with_recovery(..)`.
        plain: Result<Outcome, String>,
    },
    /// A run whose restore met state bytes no restore can read: what it answered, a
    /// panic included.
    Unreadable {
        /// `run_with_recovery_in(.., spy)`.
        answer: Answer<Outcome>,
    },
    /// An invalid run, through both entry points.
    Arguments {
        /// `run_with_recovery_in(.., spy)`.
        spied: Result<Outcome, String>,
        /// The spy's calls.
        calls: Vec<Call>,
        /// `run_with_recovery(..)`.
        plain: Result<Outcome, String>,
    },
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    let text = |e: anyhow::Error| format!("{e:#}");
    match case {
        Case::Store { ops } => {
            let mut store = I::store();
            let mut saves = std::collections::BTreeMap::<u64, u64>::new();
            let after_each = ops
                .iter()
                .map(|op| {
                    let result = match *op {
                        StoreOp::Save(id) => {
                            let (offset, state) = super::store::saved_payload(&mut saves, id);
                            I::save(&mut store, id, offset, state)
                        }
                        StoreOp::Complete(id) => I::complete(&mut store, id),
                    };
                    (result.map_err(text), I::latest_completed(&store))
                })
                .collect();
            Observation::Store { after_each }
        }
        Case::Protocol(run) | Case::State(run) | Case::Output(run) => {
            let mut spy = SpyStore::default();
            let result = I::run_spied(
                &run.words,
                run.barrier_every,
                run.crash_after,
                run.commit_lag,
                &mut spy,
            );
            Observation::Run {
                result: result.map_err(text),
                calls: spy.calls,
            }
        }
        Case::CorruptState { run, state } => {
            let mut spy = SpyStore::default();
            spy.corrupt_state = Some(state.clone());
            // Caught here, so that a panic is judged against the rule it breaks.
            let answer = caught(|| {
                I::run_spied(
                    &run.words,
                    run.barrier_every,
                    run.crash_after,
                    run.commit_lag,
                    &mut spy,
                )
            });
            Observation::Unreadable { answer }
        }
        Case::OwnStore(run) => {
            let result = I::run(
                &run.words,
                run.barrier_every,
                run.crash_after,
                run.commit_lag,
            )
            .map_err(text);
            let mut spy = SpyStore::default();
            let spied = I::run_spied(
                &run.words,
                run.barrier_every,
                run.crash_after,
                run.commit_lag,
                &mut spy,
            )
            .map_err(text);
            Observation::OwnStore {
                result,
                spied,
                replayed: calls_on_own_store::<I>(&spy.calls),
            }
        }
        Case::Arguments { run, .. } | Case::Contract(run) => {
            let mut spy = SpyStore::default();
            let spied = I::run_spied(
                &run.words,
                run.barrier_every,
                run.crash_after,
                run.commit_lag,
                &mut spy,
            )
            .map_err(text);
            let calls = spy.calls;
            let plain = I::run(
                &run.words,
                run.barrier_every,
                run.crash_after,
                run.commit_lag,
            )
            .map_err(text);
            if matches!(case, Case::Contract(_)) {
                Observation::Contract {
                    spied,
                    calls,
                    plain,
                }
            } else {
                Observation::Arguments {
                    spied,
                    calls,
                    plain,
                }
            }
        }
    }
}
