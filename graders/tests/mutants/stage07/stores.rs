//! The stage-07 store mutants, and the convenience entry point that drops an argument.

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

flawed_store! {
    /// **Mistake:** a second save of an id still in flight is ignored
    /// (`entry().or_insert`): the first save of an id is the one kept, where the brief's
    /// replay retakes it.
    /// **Verdict:** `store` fails on `[Save(1), Save(1), Complete(1)]`:
    /// latest_completed() holds offset 10, the first save's, not 11.
    keeping_the_first_save, KEEP_FIRST_SAVE
}
graders::impl_stage07!(KeepFirstSave, KeepFirstSaveSpy, keeping_the_first_save);

flawed_store! {
    /// **Mistake:** completing an id twice is refused, as if a completion were an event
    /// that happens once, where the brief calls it fine.
    /// **Verdict:** `store` fails on `[Save(1), Complete(1), Complete(1)]`: "a valid
    /// call failed".
    refusing_a_second_completion, COMPLETE_ONCE
}
graders::impl_stage07!(CompleteOnce, CompleteOnceSpy, refusing_a_second_completion);

flawed_store! {
    /// **Mistake:** completing an id never saved is accepted and ignored.
    /// **Verdict:** `store` fails on `[Complete(1)]`: it must be refused.
    completing_an_unknown_id, COMPLETE_UNKNOWN
}
graders::impl_stage07!(
    CompleteUnknown,
    CompleteUnknownSpy,
    completing_an_unknown_id
);
