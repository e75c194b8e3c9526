//! Correct but unusual stage-07 solutions the grader must accept: a store kept as a list
//! with a phase per checkpoint, and errors worded otherwise than the reference's.

use graders::stage07::{ExactlyOnceState, drive};

use crate::accepted;

/// A store kept as a `Vec` in save order (so the latest completed is searched for, not
/// the last), whose errors are worded its own way, and a runner whose argument errors
/// say more than the argument's name.
mod listed {
    use anyhow::{Result, bail, ensure};
    pub use solution07::{CheckpointStore, RecoveryOutcome, StoredCheckpoint};

    /// Where a checkpoint is in its life.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Phase {
        InFlight,
        Completed,
    }

    #[derive(Debug, Default)]
    pub struct InMemoryCheckpointStore {
        saved: Vec<(StoredCheckpoint, Phase)>,
    }

    impl InMemoryCheckpointStore {
        pub fn new() -> Self {
            Self::default()
        }
    }

    impl CheckpointStore for InMemoryCheckpointStore {
        fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> Result<()> {
            let checkpoint = StoredCheckpoint { id, offset, state };
            match self.saved.iter_mut().find(|(c, _)| c.id == id) {
                Some((_, Phase::Completed)) => {
                    bail!("refusing to overwrite completed checkpoint #{id}")
                }
                Some(entry) => entry.0 = checkpoint,
                None => self.saved.push((checkpoint, Phase::InFlight)),
            }
            Ok(())
        }

        fn complete(&mut self, id: u64) -> Result<()> {
            let Some(entry) = self.saved.iter_mut().find(|(c, _)| c.id == id) else {
                bail!("no checkpoint #{id} to complete");
            };
            entry.1 = Phase::Completed;
            Ok(())
        }

        fn latest_completed(&self) -> Option<StoredCheckpoint> {
            self.saved
                .iter()
                .filter(|(_, phase)| *phase == Phase::Completed)
                .max_by_key(|(c, _)| c.id)
                .map(|(c, _)| c.clone())
        }
    }

    pub fn run_with_recovery(
        words: &[String],
        barrier_every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
    ) -> Result<RecoveryOutcome> {
        let mut store = InMemoryCheckpointStore::new();
        run_with_recovery_in(words, barrier_every, crash_after, commit_lag, &mut store)
    }

    pub fn run_with_recovery_in<S: CheckpointStore>(
        words: &[String],
        barrier_every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
        store: &mut S,
    ) -> Result<RecoveryOutcome> {
        ensure!(
            barrier_every > 0,
            "invalid barrier_every: a job cannot take a checkpoint after every 0 records"
        );
        if let Some(k) = crash_after {
            ensure!(
                k <= words.len(),
                "invalid crash_after: Some({k}) is past the {} word(s) of the input",
                words.len()
            );
        }
        solution07::run_with_recovery_in(words, barrier_every, crash_after, commit_lag, store)
    }
}
graders::impl_stage07!(Listed, ListedSpy, listed);
accepted!(a_listed_store_with_its_own_errors_passes: ExactlyOnceState, drive::<Listed>);

/// A runner that completes by arithmetic, but only the checkpoints its own attempt saved
/// (the ids from the first one it took), and at the end every one of them not yet
/// completed: another reading of "nothing is in flight after a restore" that the brief
/// allows.
mod arithmetic {
    pub use solution07::{
        CheckpointStore, InMemoryCheckpointStore, RecoveryOutcome, StoredCheckpoint,
        run_with_recovery,
    };

    pub fn run_with_recovery_in<S: CheckpointStore>(
        words: &[String],
        barrier_every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
        store: &mut S,
    ) -> anyhow::Result<RecoveryOutcome> {
        super::arithmetic_run::run(words, barrier_every, crash_after, commit_lag, store)
    }
}
graders::impl_stage07!(Arithmetic, ArithmeticSpy, arithmetic);
accepted!(completing_by_arithmetic_within_the_attempt_passes: ExactlyOnceState, drive::<Arithmetic>);

mod arithmetic_run {
    use std::collections::BTreeMap;

    use anyhow::{Result, ensure};
    use solution07::{CheckpointStore, RecoveryOutcome};

    /// One attempt from `from` to `to`: the first id it took and the last, if any.
    #[allow(clippy::too_many_arguments)]
    fn attempt<S: CheckpointStore>(
        words: &[String],
        every: usize,
        lag: usize,
        from: usize,
        to: usize,
        counts: &mut BTreeMap<String, u64>,
        store: &mut S,
        emitted: &mut Vec<(String, u64)>,
    ) -> Result<Option<(u64, u64)>> {
        let mut taken: Option<(u64, u64)> = None;
        for (i, word) in words.iter().enumerate().take(to).skip(from) {
            let count = counts.entry(word.clone()).or_default();
            *count += 1;
            emitted.push((word.clone(), *count));
            if (i + 1) % every == 0 {
                let id = ((i + 1) / every) as u64;
                store.save(id, (i + 1) as u64, serde_json::to_vec(&*counts)?)?;
                let first = taken.map_or(id, |(first, _)| first);
                taken = Some((first, id));
                if let Some(done) = id.checked_sub(lag as u64).filter(|d| *d >= first) {
                    store.complete(done)?;
                }
            }
        }
        Ok(taken)
    }

    pub fn run<S: CheckpointStore>(
        words: &[String],
        every: usize,
        crash_after: Option<usize>,
        lag: usize,
        store: &mut S,
    ) -> Result<RecoveryOutcome> {
        ensure!(every > 0, "barrier_every is 0");
        ensure!(
            crash_after.is_none_or(|k| k <= words.len()),
            "crash_after is past the end"
        );
        let (mut counts, mut emitted) = (BTreeMap::new(), Vec::new());
        let mut taken = attempt(
            words,
            every,
            lag,
            0,
            crash_after.unwrap_or(words.len()),
            &mut counts,
            store,
            &mut emitted,
        )?;
        if crash_after.is_some() {
            let restored = store.latest_completed();
            let from = restored.as_ref().map_or(0, |c| c.offset as usize);
            anyhow::ensure!(from <= words.len(), "offset {from} is past the end");
            counts = match restored {
                Some(c) => serde_json::from_slice(&c.state)?,
                None => BTreeMap::new(),
            };
            taken = attempt(
                words,
                every,
                lag,
                from,
                words.len(),
                &mut counts,
                store,
                &mut emitted,
            )?;
        }
        if let Some((first, last)) = taken {
            // Those not completed at a barrier: the last `lag`, none before `first`.
            let pending_from = last.saturating_sub(lag as u64).saturating_add(1).max(first);
            for id in pending_from..=last {
                store.complete(id)?;
            }
        }
        Ok(RecoveryOutcome { counts, emitted })
    }
}
