//! Stage 07 mutants of a job that meets a failing store call (`save` or `complete`
//! returning an error, as on a full disk) and does not end the run with it (07-R23).

use graders::stage07::{Case, ExactlyOnceState, Observation, drive};
use rstest::rstest;

/// A mutant crate: the reference job, run through a store whose `save` and `complete`
/// answer as `$save` and `$complete` make of the real store's calls (`$call` calls it
/// again), the job's own handling of a failed call.
macro_rules! handling {
    ($(#[$doc:meta])* $name:ident, $binding:ident, $spy:ident,
     save: |$store:ident, $id:ident, $offset:ident, $state:ident| $save:expr,
     complete: |$cstore:ident, $cid:ident| $complete:expr) => {
        $(#[$doc])*
        mod $name {
            pub use solution07::{
                CheckpointStore, InMemoryCheckpointStore, RecoveryOutcome, StoredCheckpoint,
                run_with_recovery,
            };

            struct Handling<'a, S>(&'a mut S);

            impl<S: CheckpointStore> CheckpointStore for Handling<'_, S> {
                fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> anyhow::Result<()> {
                    let ($store, $id, $offset, $state) = (&mut *self.0, id, offset, state);
                    $save
                }
                fn complete(&mut self, id: u64) -> anyhow::Result<()> {
                    let ($cstore, $cid) = (&mut *self.0, id);
                    $complete
                }
                fn latest_completed(&self) -> Option<StoredCheckpoint> {
                    self.0.latest_completed()
                }
            }

            pub fn run_with_recovery_in<S: CheckpointStore>(
                words: &[String],
                every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
                store: &mut S,
            ) -> anyhow::Result<RecoveryOutcome> {
                solution07::run_with_recovery_in(words, every, crash_after, commit_lag, &mut Handling(store))
            }
        }
        graders::impl_stage07!($binding, $spy, $name);
    };
}

handling! {
    /// **Mistake:** the job ignores what `complete` returns (`let _ = store.complete(c);`,
    /// "completing is only bookkeeping"), so a completion the store never recorded is
    /// taken for done and the run goes on.
    /// **Verdict:** `contract`: `complete(1)` fails and the run goes on to `save(2, ..)`
    /// (07-R23).
    complete_errors_ignored, CompleteIgnored, CompleteIgnoredSpy,
    save: |store, id, offset, state| store.save(id, offset, state),
    complete: |store, id| {
        let _ = store.complete(id);
        Ok(())
    }
}

handling! {
    /// **Mistake:** the job logs a failed `save` and goes on ("the next checkpoint will
    /// cover it"), though the checkpoint it will later complete was never kept.
    /// **Verdict:** `contract`: `save(1, ..)` fails and the run goes on (07-R23).
    save_errors_ignored, SaveIgnored, SaveIgnoredSpy,
    save: |store, id, offset, state| {
        // "Logged" and dropped.
        store.save(id, offset, state).ok();
        Ok(())
    },
    complete: |store, id| store.complete(id)
}

handling! {
    /// **Mistake:** a failed store call is tried once more before giving up ("disks
    /// recover"), so the store is called again after it failed.
    /// **Verdict:** `contract`: `save(1, ..)` fails and is called again (07-R23).
    failed_call_retried, Retried, RetriedSpy,
    save: |store, id, offset, state| {
        store.save(id, offset, state.clone()).or_else(|_| store.save(id, offset, state))
    },
    complete: |store, id| store.complete(id).or_else(|_| store.complete(id))
}

handling! {
    /// **Mistake:** the store's answers are unwrapped ("the in-memory store never
    /// fails"), so a store that does fail panics the job.
    /// **Verdict:** `contract`: `save(1, ..)` fails and the run panics (07-R23).
    store_errors_unwrapped, Unwrapped, UnwrappedSpy,
    save: |store, id, offset, state| {
        store.save(id, offset, state).expect("the store keeps every checkpoint");
        Ok(())
    },
    complete: |store, id| {
        store.complete(id).expect("the store completes every saved checkpoint");
        Ok(())
    }
}

/// Every mutant of this file, the check that must reject it and the requirement its
/// smallest failing case must name (no card: new mistakes).
#[rstest]
#[case::complete_errors_ignored(drive::<CompleteIgnored>, "contract", "07-R23")]
#[case::save_errors_ignored(drive::<SaveIgnored>, "contract", "07-R23")]
#[case::failed_call_retried(drive::<Retried>, "contract", "07-R23")]
#[case::store_errors_unwrapped(drive::<Unwrapped>, "contract", "07-R23")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    if let Err(why) =
        graders::harness::expect_rejected_for::<ExactlyOnceState>(drive, check, requirement)
    {
        crate::fail(&why);
    }
}
