//! How a driver reaches a stage-07 implementation: a small trait, the grader's spying
//! store, and the macro that implements both inside the implementation's own crate.

use super::oracle::{Call, Counts, ModelStore, Stored};

/// `(counts, emitted)` of a run.
pub type Outcome = (Counts, Vec<(String, u64)>);

/// The grader's store: behaves as the brief's store (the model) and records every call.
#[derive(Debug, Clone, Default)]
pub struct SpyStore {
    model: ModelStore,
    /// Every call, in order.
    pub calls: Vec<Call>,
    /// Bytes `latest_completed()` hands back in place of the checkpoint's state: a store
    /// whose checkpoint no restore can read, or whose counts the job could not have
    /// reached (past a `u32`), which it must restore all the same.
    pub handed_state: Option<Vec<u8>>,
    /// An offset `latest_completed()` hands back in place of the checkpoint's: a store
    /// whose checkpoint lies past the end of the input.
    pub corrupt_offset: Option<u64>,
    /// A store that, asked at the recovery, has lost its latest checkpoints.
    pub loss: Option<Loss>,
    /// The `save` or `complete` call (counted from 1, the two together) that fails, as
    /// a store's does on a full disk: recorded, and nothing kept.
    pub failing_call: Option<usize>,
}

/// The checkpoints a [`SpyStore`] loses at the recovery: every one after `kept` (all of
/// them for 0), as a store brought back to an older copy of itself. Its
/// `latest_completed()` then hands out an older checkpoint than the one the job completed
/// last (or none), which the restarted job must resume from, offset and state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loss {
    /// The `save` and `complete` calls the first attempt makes: the loss happens at the
    /// first `latest_completed()` after as many (the recovery's), never at one asked
    /// earlier (at the start-up, say).
    pub after_calls: usize,
    /// The highest id the store still holds.
    pub kept: u64,
}

impl SpyStore {
    /// `save`, recorded.
    ///
    /// # Errors
    /// As the model store.
    pub fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> anyhow::Result<()> {
        self.calls.push(Call::Save {
            id,
            offset,
            state: state.clone(),
        });
        self.fail_if_due()?;
        // The refusal is the grader's spy keeping the brief's contract, caused by the
        // job's call: say so, or it reads as the learner's own store failing.
        self.model.save(id, offset, state).map_err(|e| {
            anyhow::anyhow!(
                "the grader's spy store refused save({id}, offset {offset}, ..): {e} \
                 (a completed checkpoint may have been restored, so the job must never save it again)"
            )
        })
    }

    /// `complete`, recorded.
    ///
    /// # Errors
    /// As the model store.
    pub fn complete(&mut self, id: u64) -> anyhow::Result<()> {
        self.calls.push(Call::Complete { id });
        self.fail_if_due()?;
        self.model.complete(id).map_err(anyhow::Error::msg)
    }

    /// The failure of the call just recorded, when it is the one that fails.
    fn fail_if_due(&self) -> anyhow::Result<()> {
        // Counting the calls costs a pass over them: none where no call fails, so that
        // the long runs stay linear.
        if self.failing_call.is_none() {
            return Ok(());
        }
        let made = self
            .calls
            .iter()
            .filter(|c| super::failing::counted(c))
            .count();
        match (self.failing_call, self.calls.last()) {
            (Some(n), Some(call)) if n == made => {
                Err(anyhow::Error::msg(super::failing::message(call)))
            }
            _ => Ok(()),
        }
    }

    /// `latest_completed`, recorded (hence `&mut`; the trait's `&self` method goes
    /// through a `RefCell` in the macro's wrapper).
    pub fn latest_completed(&mut self) -> Option<Stored> {
        let made = self
            .calls
            .iter()
            .filter(|c| !matches!(c, Call::LatestCompleted { .. }))
            .count();
        if let Some(loss) = self.loss.filter(|l| made >= l.after_calls) {
            self.model.forget_after(loss.kept);
            self.loss = None;
        }
        let latest = self.model.latest_completed().map(|(id, offset, state)| {
            (
                id,
                self.corrupt_offset.unwrap_or(offset),
                self.handed_state.clone().unwrap_or(state),
            )
        });
        self.calls.push(Call::LatestCompleted {
            returned: latest.as_ref().map(|(id, _, _)| *id),
        });
        latest
    }
}

/// The surface of stage 07 that the driver calls. Implemented by `impl_stage07!`.
pub trait Implementation {
    /// The implementation's `InMemoryCheckpointStore`.
    type Store;
    /// `InMemoryCheckpointStore::new()`.
    fn store() -> Self::Store;
    /// `store.save(id, offset, state)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn save(store: &mut Self::Store, id: u64, offset: u64, state: Vec<u8>) -> anyhow::Result<()>;
    /// `store.complete(id)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn complete(store: &mut Self::Store, id: u64) -> anyhow::Result<()>;
    /// `store.latest_completed()`.
    fn latest_completed(store: &Self::Store) -> Option<Stored>;
    /// `run_with_recovery(..)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn run(
        words: &[String],
        every: usize,
        crash: Option<usize>,
        commit_lag: usize,
    ) -> anyhow::Result<Outcome>;
    /// `run_with_recovery_in(.., spy)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn run_spied(
        words: &[String],
        every: usize,
        crash: Option<usize>,
        commit_lag: usize,
        spy: &mut SpyStore,
    ) -> anyhow::Result<Outcome>;
}

/// Implements [`Implementation`] as `$binding` (with a spying store `$spy`) for the
/// stage-07 API at the path `$imp`.
#[macro_export]
macro_rules! impl_stage07 {
    ($binding:ident, $spy:ident, $($imp:ident)::+) => {
        /// The grader's spying store, seen through the implementation's trait.
        #[doc(hidden)]
        pub struct $spy(::std::cell::RefCell<$crate::stage07::SpyStore>);

        impl $($imp)::+::CheckpointStore for $spy {
            fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> $crate::__anyhow::Result<()> {
                self.0.get_mut().save(id, offset, state)
            }
            fn complete(&mut self, id: u64) -> $crate::__anyhow::Result<()> {
                self.0.get_mut().complete(id)
            }
            fn latest_completed(&self) -> Option<$($imp)::+::StoredCheckpoint> {
                self.0.borrow_mut().latest_completed().map(|(id, offset, state)| {
                    $($imp)::+::StoredCheckpoint { id, offset, state }
                })
            }
        }

        #[doc(hidden)]
        pub struct $binding;

        impl $crate::stage07::Implementation for $binding {
            type Store = $($imp)::+::InMemoryCheckpointStore;

            fn store() -> Self::Store {
                $($imp)::+::InMemoryCheckpointStore::new()
            }
            fn save(store: &mut Self::Store, id: u64, offset: u64, state: Vec<u8>) -> $crate::__anyhow::Result<()> {
                <Self::Store as $($imp)::+::CheckpointStore>::save(store, id, offset, state)
            }
            fn complete(store: &mut Self::Store, id: u64) -> $crate::__anyhow::Result<()> {
                <Self::Store as $($imp)::+::CheckpointStore>::complete(store, id)
            }
            fn latest_completed(store: &Self::Store) -> Option<(u64, u64, Vec<u8>)> {
                <Self::Store as $($imp)::+::CheckpointStore>::latest_completed(store)
                    .map(|c| (c.id, c.offset, c.state))
            }
            fn run(
                words: &[String],
                every: usize,
                crash: Option<usize>,
                commit_lag: usize,
            ) -> $crate::__anyhow::Result<$crate::stage07::Outcome> {
                let outcome = $($imp)::+::run_with_recovery(words, every, crash, commit_lag)?;
                Ok((outcome.counts, outcome.emitted))
            }
            fn run_spied(
                words: &[String],
                every: usize,
                crash: Option<usize>,
                commit_lag: usize,
                spy: &mut $crate::stage07::SpyStore,
            ) -> $crate::__anyhow::Result<$crate::stage07::Outcome> {
                let mut store = $spy(::std::cell::RefCell::new(::std::mem::take(spy)));
                let outcome = $($imp)::+::run_with_recovery_in(words, every, crash, commit_lag, &mut store);
                *spy = store.0.into_inner();
                let outcome = outcome?;
                Ok((outcome.counts, outcome.emitted))
            }
        }
    };
}
