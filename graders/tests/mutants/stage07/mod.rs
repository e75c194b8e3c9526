//! Stage 07 mutants: runners that checkpoint the wrong state, restore the wrong cut,
//! or keep what a crash should have destroyed, and a store that restores the wrong
//! checkpoint.
//!
//! The runner mutants share one flawed runner, [`flawed::run`], switched by a `MISTAKE`
//! constant, so each differs from the protocol in exactly one place.

use graders::stage07::{Case, ExactlyOnceState, Observation, drive};
use rstest::rstest;

use crate::{accepted, rejects};

mod flawed;
mod wordings;

/// A mutant crate: stage 07's API with the flawed runner of mistake `$m`.
macro_rules! runner_mutant {
    ($(#[$doc:meta])* $name:ident, $m:path) => {
        $(#[$doc])*
        mod $name {
            pub use solution07::{
                CheckpointStore, InMemoryCheckpointStore, RecoveryOutcome,
                StoredCheckpoint,
            };
            pub fn run_with_recovery(
                words: &[String],
                every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
            ) -> anyhow::Result<RecoveryOutcome> {
                run_with_recovery_in(words, every, crash_after, commit_lag, &mut InMemoryCheckpointStore::new())
            }
            pub fn run_with_recovery_in<S: CheckpointStore>(
                words: &[String],
                every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
                store: &mut S,
            ) -> anyhow::Result<RecoveryOutcome> {
                super::flawed::run::<S, { $m }>(words, every, crash_after, commit_lag, store)
            }
        }
    };
}

// With no mistake switched on the flawed runner passes: every mutant below differs from
// a passing implementation in exactly its one mistake.
runner_mutant!(faithful, super::flawed::NONE);
graders::impl_stage07!(Faithful, FaithfulSpy, faithful);
accepted!(the_mutant_scaffolding_without_a_mistake_passes: ExactlyOnceState, drive::<Faithful>);

runner_mutant! {
    /// **Mistake:** the checkpoint is saved before the barrier's own record is counted.
    /// **Verdict:** `checkpoints` fails on the first one-word input with
    /// `barrier_every = 1`: "store call 1 (no crash): checkpoint 1 saved counts {},
    /// expected the counts of records 0..1: {...} (the counts before the barrier's own
    /// record was applied)".
    save_before_apply, super::flawed::SAVE_BEFORE_APPLY
}
graders::impl_stage07!(SaveBeforeApply, SaveBeforeApplySpy, save_before_apply);

runner_mutant! {
    /// **Mistake:** recovery restores the last checkpoint the job *saved* (remembered on
    /// the side), whether or not it completed.
    /// **Verdict:** `at-least-once-output` fails on the first crash with
    /// `commit_lag = 1` after a save: "the replay started from checkpoint 1
    /// (offset 1), which was still in flight at the crash (commit_lag = 1): only
    /// completed checkpoints may be restored; no checkpoint had completed".
    restore_last_saved, super::flawed::RESTORE_LAST_SAVED
}
graders::impl_stage07!(RestoreLastSaved, RestoreLastSavedSpy, restore_last_saved);

runner_mutant! {
    /// **Mistake:** recovery works the restart point out from the schedule (completed
    /// barriers = barriers before the crash minus the lag) and recounts the prefix,
    /// never asking the store: right here, but a real job has nothing but the store.
    /// **Verdict:** `checkpoints`: "recovery never asked the store".
    compute_restart, super::flawed::COMPUTE_RESTART
}
graders::impl_stage07!(ComputeRestart, ComputeRestartSpy, compute_restart);

runner_mutant! {
    /// **Mistake:** after restoring the counts, the source is replayed from offset 0
    /// instead of the checkpoint's offset.
    /// **Verdict:** `exactly-once-state` fails on `[a]`, `barrier_every = 1`, crash after 1:
    /// the run returns the spy store's refusal "the grader's spy store refused save(1, ..):
    /// checkpoint 1 is already completed" (the replay from 0 retakes a checkpoint that
    /// completed); on longer inputs the counts are too high.
    replay_from_zero, super::flawed::REPLAY_FROM_ZERO
}
graders::impl_stage07!(ReplayFromZero, ReplayFromZeroSpy, replay_from_zero);

runner_mutant! {
    /// **Mistake:** the counts in memory survive the crash; only the source is sought
    /// back to the checkpoint's offset.
    /// **Verdict:** `exactly-once-state` fails on the first crash past a checkpoint, and
    /// `at-least-once-output` explains "continued from the counts in memory at the crash".
    keep_memory, super::flawed::KEEP_MEMORY
}
graders::impl_stage07!(KeepMemory, KeepMemorySpy, keep_memory);

runner_mutant! {
    /// **Mistake:** the checkpoint's bytes are skipped: an empty state is saved and the
    /// restore uses a live copy of the counts kept on the side.
    /// **Verdict:** `checkpoints` fails at the first save: "checkpoint 1's state is not
    /// JSON of a BTreeMap<String, u64> (EOF while parsing ...)".
    skip_round_trip, super::flawed::SKIP_ROUND_TRIP
}
graders::impl_stage07!(SkipRoundTrip, SkipRoundTripSpy, skip_round_trip);

runner_mutant! {
    /// **Mistake:** `crash_after` past the end of the input is accepted (the job just
    /// never crashes).
    /// **Verdict:** `arguments` fails on the empty input with `crash_after = Some(1)`:
    /// "run_with_recovery_in accepted an invalid `crash_after`".
    crash_past_end_accepted, super::flawed::CRASH_PAST_END_ACCEPTED
}
graders::impl_stage07!(CrashPastEnd, CrashPastEndSpy, crash_past_end_accepted);

runner_mutant! {
    /// **Mistake:** every checkpoint completes at once, whatever the commit lag says.
    /// **Verdict:** `checkpoints` fails on the first run with `commit_lag = 1` and a
    /// barrier (`[a]`, crash after 1): "store call 2 (...): complete(1) came too early:
    /// with commit_lag = 1, checkpoint 1 completes 1 barrier(s) after its own save".
    lag_ignored, super::flawed::LAG_IGNORED
}
graders::impl_stage07!(LagIgnored, LagIgnoredSpy, lag_ignored);

runner_mutant! {
    /// **Mistake:** checkpoints still in flight at the end of the input are never
    /// completed.
    /// **Verdict:** `checkpoints` fails on the first run with `commit_lag = 1` and a
    /// barrier: "checkpoint 1 never completed: ... every checkpoint still in flight
    /// completes at the end of the input".
    no_final_completions, super::flawed::NO_FINAL_COMPLETIONS
}
graders::impl_stage07!(
    NoFinalCompletions,
    NoFinalCompletionsSpy,
    no_final_completions
);

runner_mutant! {
    /// **Mistake:** the crash is checked before the barrier, so the job dies without the
    /// checkpoint the `k`-th record's barrier takes; the replay then saves it.
    /// **Verdict:** `checkpoints`: the save is labelled by when the job made it, "after
    /// the crash ..., recovered with no completed checkpoint", against the protocol's
    /// "before the crash".
    crash_before_barrier, super::flawed::CRASH_BEFORE_BARRIER
}
graders::impl_stage07!(
    CrashBeforeBarrier,
    CrashBeforeBarrierSpy,
    crash_before_barrier
);

/// **Mistake (the shortcut):** no checkpointing at all: the counts come from the whole
/// input and the emissions are one running count, as if nothing had crashed.
/// **Verdict:** `checkpoints` fails on the first input with a barrier: "store call 1:
/// checkpoint 1 was never saved"; `at-least-once-output` fails on the first crash that
/// must replay a record.
mod shortcut {
    pub use solution07::{
        CheckpointStore, InMemoryCheckpointStore, RecoveryOutcome, StoredCheckpoint,
    };
    pub fn run_with_recovery(
        words: &[String],
        every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
    ) -> anyhow::Result<RecoveryOutcome> {
        run_with_recovery_in(
            words,
            every,
            crash_after,
            commit_lag,
            &mut InMemoryCheckpointStore::new(),
        )
    }
    pub fn run_with_recovery_in<S: CheckpointStore>(
        words: &[String],
        every: usize,
        crash_after: Option<usize>,
        _commit_lag: usize,
        _store: &mut S,
    ) -> anyhow::Result<RecoveryOutcome> {
        anyhow::ensure!(every > 0, "barrier_every must be at least 1");
        anyhow::ensure!(
            crash_after.is_none_or(|k| k <= words.len()),
            "crash_after past the end"
        );
        let mut counts = std::collections::BTreeMap::new();
        let emitted = words
            .iter()
            .map(|w| {
                let c = counts.entry(w.clone()).or_insert(0);
                *c += 1;
                (w.clone(), *c)
            })
            .collect();
        Ok(RecoveryOutcome { counts, emitted })
    }
}
graders::impl_stage07!(Shortcut, ShortcutSpy, shortcut);

/// **Mistake:** `InMemoryCheckpointStore::latest_completed` returns the *first*
/// completed checkpoint (the lowest id) instead of the latest.
/// **Verdict:** `store` fails on `[Save(1), Save(2), Complete(1), Complete(2)]`:
/// `latest_completed()` is checkpoint 1, expected checkpoint 2; `own-store` fails too.
mod first_completed_restored {
    pub use solution07::{CheckpointStore, RecoveryOutcome, StoredCheckpoint};
    use std::collections::BTreeMap;

    #[derive(Default)]
    pub struct InMemoryCheckpointStore {
        saved: BTreeMap<u64, (StoredCheckpoint, bool)>,
    }
    impl InMemoryCheckpointStore {
        pub fn new() -> Self {
            Self::default()
        }
    }
    impl CheckpointStore for InMemoryCheckpointStore {
        fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> anyhow::Result<()> {
            anyhow::ensure!(id > 0, "checkpoint ids start at 1");
            anyhow::ensure!(
                !self.saved.get(&id).is_some_and(|e| e.1),
                "checkpoint {id} completed"
            );
            self.saved
                .insert(id, (StoredCheckpoint { id, offset, state }, false));
            Ok(())
        }
        fn complete(&mut self, id: u64) -> anyhow::Result<()> {
            let entry = self
                .saved
                .get_mut(&id)
                .ok_or_else(|| anyhow::anyhow!("unknown {id}"))?;
            entry.1 = true;
            Ok(())
        }
        fn latest_completed(&self) -> Option<StoredCheckpoint> {
            self.saved.values().find(|e| e.1).map(|e| e.0.clone())
        }
    }
    pub fn run_with_recovery(
        words: &[String],
        every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
    ) -> anyhow::Result<RecoveryOutcome> {
        solution07::run_with_recovery_in(
            words,
            every,
            crash_after,
            commit_lag,
            &mut InMemoryCheckpointStore::new(),
        )
    }
    pub use solution07::run_with_recovery_in;
}
graders::impl_stage07!(FirstCompleted, FirstCompletedSpy, first_completed_restored);

/// **Mistake:** `save` is a put: it overwrites whatever the id holds, a completed
/// checkpoint too, where the brief calls saving an id that already completed an error (a
/// recovery may already restore it).
/// **Verdict:** `store` fails on a save of a completed id: it succeeds.
mod save_overwrites_completed {
    pub use solution07::{CheckpointStore, RecoveryOutcome, StoredCheckpoint};
    use std::collections::BTreeMap;

    #[derive(Default)]
    pub struct InMemoryCheckpointStore {
        saved: BTreeMap<u64, (StoredCheckpoint, bool)>,
    }
    impl InMemoryCheckpointStore {
        pub fn new() -> Self {
            Self::default()
        }
    }
    impl CheckpointStore for InMemoryCheckpointStore {
        fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> anyhow::Result<()> {
            anyhow::ensure!(id > 0, "checkpoint ids start at 1");
            self.saved
                .insert(id, (StoredCheckpoint { id, offset, state }, false));
            Ok(())
        }
        fn complete(&mut self, id: u64) -> anyhow::Result<()> {
            let entry = self
                .saved
                .get_mut(&id)
                .ok_or_else(|| anyhow::anyhow!("checkpoint {id} was never saved"))?;
            entry.1 = true;
            Ok(())
        }
        fn latest_completed(&self) -> Option<StoredCheckpoint> {
            self.saved.values().rev().find(|e| e.1).map(|e| e.0.clone())
        }
    }
    pub fn run_with_recovery(
        words: &[String],
        every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
    ) -> anyhow::Result<RecoveryOutcome> {
        let mut store = InMemoryCheckpointStore::new();
        run_with_recovery_in(words, every, crash_after, commit_lag, &mut store)
    }
    pub use solution07::run_with_recovery_in;
}
graders::impl_stage07!(
    SaveOverwritesCompleted,
    SaveOverwritesCompletedSpy,
    save_overwrites_completed
);

/// **Mistake:** `run_with_recovery`, the convenience entry point, forwards every argument
/// to `run_with_recovery_in` but the crash point, so a job asked to crash never does.
/// Everything the grader checks through its own spying store is right.
/// **Verdict:** `own-store` fails: with a crash, `emitted` lacks the duplicates the
/// replay must produce.
mod convenience_drops_the_crash {
    pub use solution07::*;

    pub fn run_with_recovery(
        words: &[String],
        barrier_every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
    ) -> anyhow::Result<RecoveryOutcome> {
        let _ = crash_after;
        run_with_recovery_in(
            words,
            barrier_every,
            None,
            commit_lag,
            &mut InMemoryCheckpointStore::new(),
        )
    }
}
graders::impl_stage07!(
    ConvenienceDropsTheCrash,
    ConvenienceDropsTheCrashSpy,
    convenience_drops_the_crash
);

/// Every mutant of this file and the check that must reject it (the mutant's doc
/// comment says why).
#[rstest]
#[case::saving_before_applying(drive::<SaveBeforeApply>, "checkpoints", "07-barrier-before-its-record")]
#[case::restoring_an_in_flight_checkpoint(drive::<RestoreLastSaved>, "at-least-once-output", "07-restore-the-last-saved")]
#[case::computing_the_restart_point_without_the_store(drive::<ComputeRestart>, "checkpoints", "07-restart-without-the-store")]
#[case::replaying_from_zero_with_restored_state(drive::<ReplayFromZero>, "exactly-once-state", "07-replay-from-zero")]
#[case::keeping_memory_across_the_crash(drive::<KeepMemory>, "exactly-once-state", "07-memory-survives-the-crash")]
#[case::skipping_the_serialisation_round_trip(drive::<SkipRoundTrip>, "checkpoints", "07-state-objects-need-no-bytes")]
#[case::accepting_a_crash_point_past_the_end(drive::<CrashPastEnd>, "arguments", "07-crash-past-the-end-is-no-crash")]
#[case::ignoring_the_commit_lag(drive::<LagIgnored>, "checkpoints", "07-complete-at-once")]
#[case::leaving_checkpoints_in_flight_at_the_end(drive::<NoFinalCompletions>, "checkpoints", "07-in-flight-at-the-end")]
#[case::the_no_checkpoint_shortcut(drive::<Shortcut>, "checkpoints", "07-restart-without-the-store")]
#[case::restoring_the_first_completed_checkpoint(drive::<FirstCompleted>, "store", "07-first-completed")]
#[case::saving_over_a_completed_checkpoint(drive::<SaveOverwritesCompleted>, "store", "07-save-is-a-put")]
#[case::convenience_drops_the_crash(drive::<ConvenienceDropsTheCrash>, "own-store", "07-convenience-may-simplify")]
#[case::checking_the_crash_before_the_barrier(drive::<CrashBeforeBarrier>, "checkpoints", "07-the-crash-comes-first")]
fn is_rejected(#[case] drive: fn(&Case) -> Observation, #[case] check: &str, #[case] card: &str) {
    crate::cards::shows(&rejects::<ExactlyOnceState>(drive, check), card);
}
