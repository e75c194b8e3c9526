//! The learner-level sink as a committer-framework connector: shape B, with the
//! checkpoint id as the global transaction id.
//!
//! Any [`TwoPhaseCommitSink`] (the reference's `TransactionalSink`, a learner's, the
//! grader's spy) becomes a [`CommittingSink`] here, over a [`TwoPhaseSystem`] that
//! answers what the sink holds. The verbs map one to one; the
//! framework's base, not this file, decides when each runs:
//!
//! | framework verb | learner-level call |
//! |---|---|
//! | `on_open` | `abort_open` of the open transaction a dead run left, then `abort(id)` of every prepared orphan |
//! | `write(record)` | `write(record)` |
//! | `prepare_commit(c)` | `pre_commit(c)`, returning the handle [`PreparedTransaction`] `c` |
//! | `commit(handle)` / `recover(handle)` | `commit(c)` if `c` is still prepared |
//! | `abort(handle)` | `abort(c)` if `c` is still prepared |
//!
//! The handle is the prepared transaction's name in the external system, which is the
//! checkpoint id it was sealed under: it carries everything a fresh instance needs to
//! commit it after a crash, and nothing of the instance that made it.

use std::marker::PhantomData;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use solution08::TwoPhaseCommitSink;

use super::two_phase_system::TwoPhaseSystem;
use crate::{
    AbortOutcome, CheckpointId, CommitOutcome, CommittingSink, ExactlyOnceCapable, Mechanism,
    OpenContext, OpenTransaction,
};

/// The committable: the transaction a learner-level sink pre-committed under `checkpoint`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreparedTransaction {
    /// The checkpoint whose barrier sealed it, which names it in the sink.
    pub checkpoint: CheckpointId,
}

/// A connection from the framework to a learner-level sink; one per open.
#[derive(Debug)]
pub struct TwoPhaseAdopter<'a, T, S> {
    system: &'a mut TwoPhaseSystem<S>,
    records: PhantomData<fn(T)>,
}

impl<'a, T, S> TwoPhaseAdopter<'a, T, S> {
    /// A connection to `system`.
    pub fn new(system: &'a mut TwoPhaseSystem<S>) -> Self {
        Self {
            system,
            records: PhantomData,
        }
    }
}

impl<T, S: TwoPhaseCommitSink<T>> CommittingSink for TwoPhaseAdopter<'_, T, S> {
    type Record = T;
    type Committable = PreparedTransaction;
    const MECHANISM: Mechanism = Mechanism::TwoPhaseTransaction;

    /// Rolls back what a dead run left that no completed checkpoint knows: its open
    /// transaction, and every prepared transaction of a checkpoint after the restored
    /// one (recovery is about to commit the restored handles). A learner-level sink is
    /// written by one subtask, so every orphan in it is this subtask's to roll back.
    fn on_open(&mut self, context: &OpenContext<'_, PreparedTransaction>) -> Result<()> {
        self.system.begin(context.run_token);
        let restored: Vec<CheckpointId> = context
            .pending_committables()
            .iter()
            .map(|(_, handle)| handle.checkpoint)
            .collect();
        let after_restore = |id: CheckpointId| context.restored.is_none_or(|r| id > r);
        for id in self.system.prepared() {
            if after_restore(id) && !restored.contains(&id) {
                self.system.abort(id)?;
            }
        }
        Ok(())
    }

    fn write(&mut self, record: T) -> Result<()> {
        self.system.write(record);
        Ok(())
    }

    fn open_transaction(&self) -> OpenTransaction {
        self.system.open_transaction()
    }

    /// Always a handle, even for an empty epoch: the learner-level protocol
    /// pre-commits at every barrier, and an empty transaction publishes nothing.
    fn prepare_commit(&mut self, checkpoint: CheckpointId) -> Result<Option<PreparedTransaction>> {
        self.system.prepare(checkpoint)?;
        Ok(Some(PreparedTransaction { checkpoint }))
    }

    fn commit(&mut self, handle: &PreparedTransaction) -> Result<CommitOutcome> {
        self.system.commit(handle.checkpoint)
    }

    fn abort(&mut self, handle: &PreparedTransaction) -> Result<AbortOutcome> {
        self.system.abort(handle.checkpoint)
    }
}

impl<T, S: TwoPhaseCommitSink<T>> ExactlyOnceCapable for TwoPhaseAdopter<'_, T, S> {}

#[cfg(test)]
mod tests {
    use solution08::TransactionalSink;

    use super::*;
    use crate::{
        CommitterOperator, InMemoryOperatorState, NoTripwire, RunContext, SubtaskId, Succession,
    };

    type Operator<'a> =
        CommitterOperator<TwoPhaseAdopter<'a, u32, TransactionalSink<u32>>, InMemoryOperatorState>;

    fn open(
        system: &mut TwoPhaseSystem<TransactionalSink<u32>>,
        state: InMemoryOperatorState,
        (generation, restored): (u64, Option<CheckpointId>),
    ) -> Result<Operator<'_>> {
        let run = RunContext {
            job: "stage08".to_owned(),
            generation,
            succession: Succession::new(SubtaskId::new(0, 1)?, 1)?,
            restored,
        };
        let adopter = TwoPhaseAdopter::new(system);
        CommitterOperator::open(adopter, state, &run, Box::new(NoTripwire))
    }

    #[test]
    fn reopening_a_dead_runs_sink_rolls_back_its_leftovers_and_recommits_nothing() -> Result<()> {
        let mut system = TwoPhaseSystem::new(TransactionalSink::<u32>::new());
        let mut dead = open(&mut system, InMemoryOperatorState::new(), (1, None))?;
        dead.write(1)?;
        let completed = dead.on_barrier(1)?;
        dead.on_checkpoint_complete(1)?;
        dead.write(2)?;
        dead.on_barrier(2)?; // never notified: an orphan
        dead.write(3)?; // left in the open transaction
        drop(dead);

        let restored = InMemoryOperatorState::restore(&completed)?;
        let reopened = open(&mut system, restored, (2, Some(1)))?;
        assert_eq!(reopened.recovered(), [(1, CommitOutcome::AlreadyCommitted)]);
        reopened.finish()?;

        // The same story told to the sink by hand, as the learner-level protocol does.
        let mut expected = TransactionalSink::new();
        expected.write(1);
        expected.pre_commit(1);
        expected.commit(1);
        expected.write(2);
        expected.pre_commit(2);
        expected.write(3);
        expected.abort_open();
        expected.abort(2);
        assert_eq!(system.sink(), &expected);
        assert!(system.prepared().is_empty());
        Ok(())
    }

    #[test]
    fn a_reused_id_is_refused_and_the_open_data_stays_open() -> Result<()> {
        let mut system = TwoPhaseSystem::new(TransactionalSink::<u32>::new());
        system.write(1);
        system.prepare(1)?;
        system.write(2);
        let refused = system.prepare(1).unwrap_err();
        assert!(refused.to_string().contains("checkpoint id 1"), "{refused}");
        system.prepare(2)?;
        system.commit(1)?;
        system.commit(2)?;
        assert_eq!(system.sink().committed(), [1, 2]);
        Ok(())
    }
}
