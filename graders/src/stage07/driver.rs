//! Runs one stage-07 case against an implementation and records what happened.

use serde::{Deserialize, Serialize};

use super::binding::Loss;
use super::oracle::{self, Call, Stored};
use super::own_store::calls_on_own_store;
use super::{Case, Implementation, Outcome, Run, SpyStore, StoreOp};
use crate::stage03::guard::{Answer, caught};

/// What the driver saw while running one case. A run's answer is its outcome, its error
/// or its panic, caught here so that a panic is judged against the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// After each store operation: its result, and `latest_completed()`.
    Store {
        /// One entry per operation, up to the one that panicked.
        after_each: Vec<(Result<(), String>, Option<Stored>)>,
        /// The panic of the operation after those of `after_each` (or of the
        /// `latest_completed()` read after it): the sequence stops there.
        panicked: Option<String>,
    },
    /// The readings of `two_stores::run`, or what ended it.
    TwoStores {
        /// `latest_completed()` of each store at each reading.
        readings: Answer<Vec<Option<Stored>>>,
    },
    /// A run.
    Run {
        /// `(counts, emitted)`, the error or the panic.
        result: Answer<Outcome>,
        /// Every call on the spying store (none for `run_with_recovery`).
        calls: Vec<Call>,
    },
    /// `run_with_recovery(..)`, with what tells its store's part from the job's.
    OwnStore {
        /// `run_with_recovery(..)`.
        result: Answer<Outcome>,
        /// `run_with_recovery_in(.., spy)` of the same run.
        spied: Answer<Outcome>,
        /// The spy's calls made again on the implementation's own store
        /// (`own_store::calls_on_own_store`).
        replayed: Vec<Call>,
    },
    /// One run through both entry points: the spied one, then the implementation's own
    /// store.
    Contract {
        /// `run_with_recovery_in(.., spy)`.
        spied: Answer<Outcome>,
        /// The spy's calls.
        calls: Vec<Call>,
        /// `run_with_recovery(..)`.
        plain: Answer<Outcome>,
    },
    /// A run whose restore met state bytes no restore can read: what it answered, a
    /// panic included.
    Unreadable {
        /// `run_with_recovery_in(.., spy)`.
        answer: Answer<Outcome>,
        /// The spy's calls: none may follow the handing out of the checkpoint that
        /// cannot be restored.
        calls: Vec<Call>,
    },
    /// An invalid run, through both entry points.
    Arguments {
        /// `run_with_recovery_in(.., spy)`.
        spied: Answer<Outcome>,
        /// The spy's calls.
        calls: Vec<Call>,
        /// `run_with_recovery(..)`.
        plain: Answer<Outcome>,
    },
}

/// `run_with_recovery_in(.., spy)` over `run`, its panic caught; the spy's calls (none
/// kept when the run panicked).
fn spied<I: Implementation>(run: &Run, mut spy: SpyStore) -> (Answer<Outcome>, Vec<Call>) {
    let answer = caught(|| {
        I::run_spied(
            &run.words,
            run.barrier_every,
            run.crash_after,
            run.commit_lag,
            &mut spy,
        )
    });
    (answer, spy.calls)
}

/// `run_with_recovery(..)` over `run`, its panic caught.
fn plain<I: Implementation>(run: &Run) -> Answer<Outcome> {
    caught(|| {
        I::run(
            &run.words,
            run.barrier_every,
            run.crash_after,
            run.commit_lag,
        )
    })
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    let text = |e: anyhow::Error| format!("{e:#}");
    match case {
        Case::TwoStores => Observation::TwoStores {
            readings: super::two_stores::run::<I>(),
        },
        Case::Store { ops, falling } => {
            let mut store = I::store();
            let mut saves = std::collections::BTreeMap::<u64, u64>::new();
            let mut after_each = Vec::new();
            let mut panicked = None;
            for op in ops {
                let step = caught(|| {
                    let result = match *op {
                        StoreOp::Save(id) => {
                            let (offset, state) =
                                super::store::saved_payload(&mut saves, id, *falling);
                            I::save(&mut store, id, offset, state)
                        }
                        StoreOp::Complete(id) => I::complete(&mut store, id),
                    };
                    Ok((result.map_err(text), I::latest_completed(&store)))
                });
                match step {
                    Answer::Ok(entry) => after_each.push(entry),
                    // A store that panicked may be half changed: nothing after it is judged.
                    // (The closure never returns an error: a refusal is in its entry.)
                    Answer::Panicked(message) | Answer::Err(message) => {
                        panicked = Some(message);
                        break;
                    }
                }
            }
            Observation::Store {
                after_each,
                panicked,
            }
        }
        Case::Protocol(run) | Case::State(run) | Case::Output(run) => {
            let (result, calls) = spied::<I>(run, SpyStore::default());
            Observation::Run { result, calls }
        }
        Case::LostCheckpoints { run, kept } => {
            let mut spy = SpyStore::default();
            spy.loss = Some(Loss {
                after_calls: oracle::expected(run).before_crash,
                kept: *kept,
            });
            let (result, calls) = spied::<I>(run, spy);
            Observation::Run { result, calls }
        }
        Case::CorruptState { run, state } => {
            let mut spy = SpyStore::default();
            spy.handed_state = Some(state.clone());
            let (answer, calls) = spied::<I>(run, spy);
            Observation::Unreadable { answer, calls }
        }
        Case::ForgedState { run, counts } => {
            let mut spy = SpyStore::default();
            spy.handed_state = Some(oracle::state_of(counts));
            let (result, calls) = spied::<I>(run, spy);
            Observation::Run { result, calls }
        }
        Case::OffsetPastEnd { run, offset } => {
            let mut spy = SpyStore::default();
            spy.corrupt_offset = Some(*offset);
            let (answer, calls) = spied::<I>(run, spy);
            Observation::Unreadable { answer, calls }
        }
        Case::FailingStore { run, failing_call } => {
            let mut spy = SpyStore::default();
            spy.failing_call = Some(*failing_call);
            let (result, calls) = spied::<I>(run, spy);
            Observation::Run { result, calls }
        }
        Case::OwnStore(run) => {
            let result = plain::<I>(run);
            let (spied, calls) = spied::<I>(run, SpyStore::default());
            Observation::OwnStore {
                result,
                spied,
                replayed: calls_on_own_store::<I>(&calls),
            }
        }
        Case::Contract(run) => {
            let (spied, calls) = spied::<I>(run, SpyStore::default());
            let plain = plain::<I>(run);
            Observation::Contract {
                spied,
                calls,
                plain,
            }
        }
        Case::Arguments { run, .. } => {
            let (spied, calls) = spied::<I>(run, SpyStore::default());
            let plain = plain::<I>(run);
            Observation::Arguments {
                spied,
                calls,
                plain,
            }
        }
    }
}
