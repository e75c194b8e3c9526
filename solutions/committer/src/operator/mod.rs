//! The base: the sink operator that owns the two-phase choreography.
//!
//! A connector cannot get the order wrong because it never chooses it: the base calls
//! `prepare_commit` at the barrier and persists the handle before the barrier's snapshot
//! is taken; commits only on a completion notification; erases only after the commit;
//! and at open recovers every handle it owns before the first record is written.
//!
//! The operator is one type, its choreography in three files, one per phase of a run:
//! `recovery.rs` opens it (every restored handle finalised before the first record),
//! this file takes the records and closes it at end of input, and `checkpoint.rs`
//! answers the coordinator (a barrier, a completed checkpoint, an aborted one).

mod checkpoint;
mod recovery;

use std::collections::VecDeque;

use anyhow::{Context, Result, bail};

use crate::codec;
use crate::commit_policy::CommitPolicy;
use crate::fence::Fence;
use crate::ids::{CheckpointId, SubtaskId};
use crate::pending::PendingKey;
use crate::state_backend::OperatorStateBackend;
use crate::steps::{Step, Tripwire};
use crate::succession::Succession;
use crate::verbs::{CommitOutcome, CommittingSink, OpenTransaction};

/// Who is opening: the job, the run's generation, the subtask with its succession, and
/// the checkpoint restored.
#[derive(Debug, Clone)]
pub struct RunContext {
    /// The job's name.
    pub job: String,
    /// Bumped by the coordinator at every start of the job; never restored.
    pub generation: u64,
    /// This subtask, and whose orphans it discards.
    pub succession: Succession,
    /// The checkpoint this run restored (`None` on a first run), as Flink's
    /// `InitContext::getRestoredCheckpointId`: what was prepared after it is an orphan.
    pub restored: Option<CheckpointId>,
}

/// Where the operator's input stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Input {
    /// Records may still arrive.
    Open,
    /// End of input: [`CommitterOperator::end_of_input`] prepared the last records
    /// under this final checkpoint, and no record may follow.
    Ended(CheckpointId),
}

/// A committing sink wrapped in the choreography, over an operator-state backend.
pub struct CommitterOperator<S: CommittingSink, B: OperatorStateBackend> {
    sink: S,
    state: B,
    me: SubtaskId,
    tripwire: Box<dyn Tripwire>,
    /// The tripwire's answer at open: whether each record is reported to it.
    watch_writes: bool,
    fence: Box<dyn Fence>,
    policy: CommitPolicy,
    recovered: Vec<(CheckpointId, CommitOutcome)>,
    /// The handles this run persisted and has not finalised, oldest first, in the
    /// sink's own type. They are also in `state` as bytes, for the checkpoint; commits
    /// read them here, as Flink's committer keeps its committables in memory and only
    /// writes them into snapshots, so a commit never decodes what it just encoded.
    pending: VecDeque<(PendingKey, S::Committable)>,
    /// Buffers kept across checkpoints so that a barrier and a notification allocate
    /// nothing of their own: the handle being encoded, and what the last notification
    /// committed.
    encoded: Vec<u8>,
    committed: Vec<(CheckpointId, CommitOutcome)>,
    input: Input,
}

impl<S: CommittingSink, B: OperatorStateBackend> CommitterOperator<S, B> {
    /// Writes one record into the sink's open transaction.
    ///
    /// # Errors
    /// When the sink refuses it.
    pub fn write(&mut self, record: S::Record) -> Result<()> {
        self.input_is_open()?;
        self.sink.write(record)?;
        if self.watch_writes {
            self.tripwire.reached(Step::Written(self.me))?;
        }
        Ok(())
    }

    /// Writes a run of records, with no barrier among them, as [`write`](Self::write)
    /// would one by one.
    ///
    /// # Errors
    /// When the sink refuses one; the records before it are written, the rest not.
    pub fn write_all(&mut self, records: impl IntoIterator<Item = S::Record>) -> Result<()> {
        self.input_is_open()?;
        if self.watch_writes {
            return records
                .into_iter()
                .try_for_each(|record| self.write(record));
        }
        // Nothing of the base between two records, so the loop is the sink's own: in
        // memory, a check per record (or a field read back after every store) costs as
        // much as the record.
        let sink = &mut self.sink;
        records
            .into_iter()
            .try_for_each(|record| sink.write(record))
    }

    /// The persisted handles not yet finalised, oldest first.
    ///
    /// # Errors
    /// When a handle cannot be read back.
    pub fn pending_committables(&self) -> Result<Vec<(CheckpointId, S::Committable)>> {
        pending_keys(&self.state)?
            .iter()
            .map(|key| Ok((key.checkpoint, load::<S, B>(&self.state, key)?)))
            .collect()
    }

    /// How many handles still wait for a commit; end of input waits until it is zero.
    ///
    /// # Errors
    /// When operator state cannot be read.
    pub fn staged_commits_outstanding(&self) -> Result<usize> {
        Ok(pending_keys(&self.state)?.len())
    }

    /// End of input: no record follows. The open transaction is prepared as the handle
    /// of `checkpoint`, the final one, exactly as a barrier would, and its snapshot is
    /// returned for the checkpoint. Once that checkpoint completes and its notification
    /// commits the handle, [`finish`](Self::finish) closes the operator: the tail of the
    /// input is visible exactly once, as Flink's end of input flushes the writer and its
    /// final checkpoint commits what the flush prepared.
    ///
    /// If the final checkpoint is aborted, the next barrier carries the handle, as for
    /// any aborted checkpoint.
    ///
    /// # Errors
    /// As [`on_barrier`](Self::on_barrier).
    pub fn end_of_input(&mut self, checkpoint: CheckpointId) -> Result<Vec<u8>> {
        self.input = Input::Ended(checkpoint);
        self.on_barrier(checkpoint)
    }

    /// Closes the operator at end of input, once nothing is left to lose.
    ///
    /// # Errors
    /// When the open transaction still holds records (no barrier prepared them: call
    /// [`end_of_input`](Self::end_of_input) and complete its checkpoint first), or
    /// handles are still pending (their notification has not arrived): closing now
    /// would lose the first and strand the second until the next restore.
    pub fn finish(self) -> Result<(S, B)> {
        if self.sink.open_transaction() == OpenTransaction::Holding {
            bail!(
                "{} reached end of input with records in its open transaction, which no \
                 checkpoint holds: finishing would lose them. Prepare them with \
                 end_of_input(final checkpoint), complete that checkpoint, then finish",
                self.me
            );
        }
        let outstanding = self.staged_commits_outstanding()?;
        if outstanding > 0 {
            let waiting = match self.input {
                Input::Ended(last) => format!(" (the final checkpoint is {last})"),
                Input::Open => String::new(),
            };
            bail!(
                "{} reached end of input with {outstanding} staged commit(s) outstanding{waiting}",
                self.me
            );
        }
        Ok((self.sink, self.state))
    }

    /// Refuses a record after end of input: it would be in no checkpoint.
    fn input_is_open(&self) -> Result<()> {
        match self.input {
            Input::Open => Ok(()),
            Input::Ended(last) => bail!(
                "{} got a record after end of input (its final checkpoint {last} is taken): \
                 no checkpoint would hold it",
                self.me
            ),
        }
    }

    /// What recovery did at open, one entry per restored handle this subtask owned.
    ///
    /// The first thing to look at when records are missing after a restore: a restore
    /// that should have re-committed a handle but recovered none lost it before opening.
    pub fn recovered(&self) -> &[(CheckpointId, CommitOutcome)] {
        &self.recovered
    }

    /// The wrapped sink.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// The operator state.
    pub fn state(&self) -> &B {
        &self.state
    }
}

/// Every pending handle's key in `state`, oldest checkpoint first (the order a key
/// sorts in, which every backend lists its keys in).
fn pending_keys(state: &impl OperatorStateBackend) -> Result<Vec<PendingKey>> {
    state.keys()
}

/// The handle persisted under `key`, decoded back into the sink's own type.
fn load<S: CommittingSink, B: OperatorStateBackend>(
    state: &B,
    key: &PendingKey,
) -> Result<S::Committable> {
    let bytes = state
        .get(key)?
        .with_context(|| format!("pending handle {key} vanished from operator state"))?;
    codec::decode::<S>(&bytes).with_context(|| format!("reading pending handle {key}"))
}
