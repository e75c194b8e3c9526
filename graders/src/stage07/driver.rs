//! Runs one stage-07 case against an implementation and records what happened.

use serde::{Deserialize, Serialize};

use super::oracle::{Call, Stored};
use super::{Case, Implementation, Outcome, SpyStore, StoreOp};

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
        Case::OwnStore(run) => Observation::Run {
            result: I::run(
                &run.words,
                run.barrier_every,
                run.crash_after,
                run.commit_lag,
            )
            .map_err(text),
            calls: Vec::new(),
        },
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
