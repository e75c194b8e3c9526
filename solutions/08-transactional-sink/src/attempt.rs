//! One incarnation of the job: a source position, the sink operator of the committer
//! framework, and the checkpoints in flight.
//!
//! The attempt turns the stream into the base's events (record, barrier, notification,
//! end of input; the table in the crate docs says what each becomes), and the base
//! ([`CommitterOperator`]) turns those into the learner-level sink's calls through the
//! adopter. Notifications arrive oldest first, so the base's "commit every pending
//! handle up to `c`" commits exactly the oldest prepared transaction, as the
//! learner-level protocol does.

use anyhow::Result;
use stage01::{Offset, Source, VecSource};

use crate::adopter::TwoPhaseAdopter;
use crate::checkpoint::Checkpoint;
use crate::committer::{
    CommitterOperator, InMemoryOperatorState, NoTripwire, RunContext, SubtaskId, Succession,
};
use crate::external::ExternalSystem;
use crate::notifications::PendingCommits;
use crate::{CheckpointId, TwoPhaseCommitSink};

/// The sink operator of the learner-level job: the framework's base over the adopter.
pub(crate) type SinkOperator<'a, T, S> =
    CommitterOperator<TwoPhaseAdopter<'a, T, S>, InMemoryOperatorState>;

/// Who opens the sink operator: the learner-level job is one subtask, and every start
/// of it (the first, the restart) is a new generation, hence a new run token.
pub(crate) fn run_context(generation: u64) -> Result<RunContext> {
    Ok(RunContext {
        job: "stage08".to_owned(),
        generation,
        succession: Succession::new(SubtaskId::new(0, 1)?, 1)?,
    })
}

/// Opens the sink operator over `system` with `state` restored: the adopter rolls back
/// what a dead run left open or orphaned, then the base recovers every restored handle.
pub(crate) fn open<'a, T, S: TwoPhaseCommitSink<T>>(
    system: &'a mut ExternalSystem<S>,
    state: InMemoryOperatorState,
    run: &RunContext,
) -> Result<SinkOperator<'a, T, S>> {
    CommitterOperator::open(
        TwoPhaseAdopter::new(system),
        state,
        run,
        Box::new(NoTripwire),
    )
}

/// The job between its start (or restart) and its end (or crash).
pub(crate) struct Attempt<'a, T, S: TwoPhaseCommitSink<T>> {
    source: VecSource<T>,
    operator: SinkOperator<'a, T, S>,
    barrier_every: Offset,
    pending: PendingCommits,
    next_id: CheckpointId,
    // The restart point if this attempt dies: the last checkpoint whose notification
    // arrived. Nothing after it is known to be permanent.
    last_notified: Option<Checkpoint>,
}

/// What a crash leaves for recovery, besides the external system itself.
pub(crate) struct Crashed {
    /// The operator state to restore: the last notified checkpoint's, if any.
    pub(crate) restore: Option<Vec<u8>>,
    /// Where the replay starts: the offset of the last notified checkpoint, or 0.
    pub(crate) resume_from: Offset,
    /// The id the next checkpoint takes. Ids are never reused across a restart, so a
    /// transaction id always names one attempt's data.
    pub(crate) next_id: CheckpointId,
}

impl<'a, T: Clone, S: TwoPhaseCommitSink<T>> Attempt<'a, T, S> {
    /// An attempt that reads `records` from offset `from` and writes through `operator`.
    ///
    /// `from` must be a checkpoint offset (a multiple of `barrier_every`), so barriers
    /// fall where they fell before the crash.
    pub(crate) fn start(
        records: &[T],
        from: Offset,
        barrier_every: usize,
        commit_lag: usize,
        first_id: CheckpointId,
        operator: SinkOperator<'a, T, S>,
    ) -> Result<Self> {
        let mut source = VecSource::new(records.to_vec());
        source.seek(from)?;
        Ok(Self {
            source,
            operator,
            barrier_every: barrier_every as Offset,
            pending: PendingCommits::new(commit_lag),
            next_id: first_id,
            last_notified: None,
        })
    }

    /// Runs to the end of the input and finishes cleanly: the trailing open transaction
    /// becomes a last checkpoint, every checkpoint taken is notified, and the operator
    /// closes with no staged commit outstanding.
    pub(crate) fn run_to_end(mut self) -> Result<()> {
        self.advance(Offset::MAX)?;
        let last = self.take_checkpoint()?;
        for checkpoint in self.pending.on_end(last) {
            self.notify(checkpoint)?;
        }
        self.operator.finish()?;
        Ok(())
    }

    /// Processes exactly the records before offset `crash_after` (with their barriers
    /// and the notifications those barriers deliver), then dies: the operator and its
    /// live state are gone, the external system keeps whatever it was told.
    pub(crate) fn run_until_crash(mut self, crash_after: Offset) -> Result<Crashed> {
        self.advance(crash_after)?;
        Ok(Crashed {
            resume_from: self.last_notified.as_ref().map_or(0, |c| c.offset),
            restore: self.last_notified.map(|c| c.operator_state),
            next_id: self.next_id,
        })
    }

    fn advance(&mut self, until: Offset) -> Result<()> {
        while self.source.position() < until {
            let Some(record) = self.source.poll() else {
                return Ok(());
            };
            self.operator.write(record)?;
            if self.source.position().is_multiple_of(self.barrier_every) {
                let taken = self.take_checkpoint()?;
                for checkpoint in self.pending.on_barrier(taken) {
                    self.notify(checkpoint)?;
                }
            }
        }
        Ok(())
    }

    /// The barrier reaches the sink: phase one seals the open transaction, and its
    /// handle goes into the operator state this checkpoint snapshots.
    fn take_checkpoint(&mut self) -> Result<Checkpoint> {
        let id = self.next_id;
        self.next_id += 1;
        let operator_state = self.operator.on_barrier(id)?;
        Ok(Checkpoint {
            id,
            offset: self.source.position(),
            operator_state,
        })
    }

    /// The checkpoint is complete: phase two publishes its transaction.
    fn notify(&mut self, checkpoint: Checkpoint) -> Result<()> {
        self.operator.on_checkpoint_complete(checkpoint.id)?;
        self.last_notified = Some(checkpoint);
        Ok(())
    }
}
