//! One incarnation of the job: a source position, a sink, and the checkpoints in flight.

use anyhow::Result;
use stage01::{Offset, Source, VecSource};

use crate::checkpoint::Checkpoint;
use crate::notifications::PendingCommits;
use crate::{CheckpointId, TwoPhaseCommitSink};

/// The job between its start (or restart) and its end (or crash).
pub(crate) struct Attempt<T, S> {
    source: VecSource<T>,
    sink: S,
    barrier_every: Offset,
    pending: PendingCommits,
    next_id: CheckpointId,
    // The restart point if this attempt dies: the last checkpoint whose notification
    // arrived. Nothing after it is known to be permanent.
    last_notified: Option<Checkpoint>,
}

/// What a crash leaves behind for recovery to clean up.
pub(crate) struct Crashed<S> {
    /// The sink of the dead attempt: it is an external system, so it is still there,
    /// holding its open and prepared transactions.
    pub(crate) sink: S,
    /// The checkpoints taken but never notified: their transactions must be aborted.
    pub(crate) unnotified: Vec<Checkpoint>,
    /// Where the replay starts: the offset of the last notified checkpoint, or 0.
    pub(crate) resume_from: Offset,
    /// The id the next checkpoint takes. Ids are never reused across a restart, so a
    /// transaction id always names one attempt's data.
    pub(crate) next_id: CheckpointId,
}

impl<T: Clone, S: TwoPhaseCommitSink<T>> Attempt<T, S> {
    /// An attempt that reads `records` from offset `from` and writes into `sink`.
    ///
    /// `from` must be a checkpoint offset (a multiple of `barrier_every`), so barriers
    /// fall where they fell before the crash.
    pub(crate) fn start(
        records: &[T],
        from: Offset,
        barrier_every: usize,
        commit_lag: usize,
        first_id: CheckpointId,
        sink: S,
    ) -> Result<Self> {
        let mut source = VecSource::new(records.to_vec());
        source.seek(from)?;
        Ok(Self {
            source,
            sink,
            barrier_every: barrier_every as Offset,
            pending: PendingCommits::new(commit_lag),
            next_id: first_id,
            last_notified: None,
        })
    }

    /// Runs to the end of the input and finishes cleanly: the trailing open transaction
    /// becomes a last checkpoint and every checkpoint taken is notified.
    pub(crate) fn run_to_end(mut self) -> S {
        self.advance(Offset::MAX);
        let last = self.take_checkpoint();
        for checkpoint in self.pending.on_end(last) {
            self.notify(checkpoint);
        }
        self.sink
    }

    /// Processes exactly the records before offset `crash_after` (with their barriers
    /// and the notifications those barriers deliver), then dies.
    pub(crate) fn run_until_crash(mut self, crash_after: Offset) -> Crashed<S> {
        self.advance(crash_after);
        Crashed {
            sink: self.sink,
            unnotified: self.pending.abandon(),
            resume_from: self.last_notified.map_or(0, |checkpoint| checkpoint.offset),
            next_id: self.next_id,
        }
    }

    fn advance(&mut self, until: Offset) {
        while self.source.position() < until {
            let Some(record) = self.source.poll() else {
                return;
            };
            self.sink.write(record);
            if self.source.position() % self.barrier_every == 0 {
                let taken = self.take_checkpoint();
                for checkpoint in self.pending.on_barrier(taken) {
                    self.notify(checkpoint);
                }
            }
        }
    }

    /// The barrier reaches the sink: phase one seals the open transaction.
    fn take_checkpoint(&mut self) -> Checkpoint {
        let checkpoint = Checkpoint {
            id: self.next_id,
            offset: self.source.position(),
        };
        self.next_id += 1;
        self.sink.pre_commit(checkpoint.id);
        checkpoint
    }

    /// The checkpoint is complete: phase two publishes its transaction.
    fn notify(&mut self, checkpoint: Checkpoint) {
        self.sink.commit(checkpoint.id);
        self.last_notified = Some(checkpoint);
    }
}
