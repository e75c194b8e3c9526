//! The base: the sink operator that owns the two-phase choreography.
//!
//! A connector cannot get the order wrong because it never chooses it: the base calls
//! `prepare_commit` at the barrier and persists the handle before the barrier's snapshot
//! is taken; commits only on a completion notification; erases only after the commit;
//! and at open recovers every handle it owns before the first record is written.

use std::collections::VecDeque;

use anyhow::{Context, Result, bail};

use crate::codec;
use crate::commit_policy::{CommitPolicy, Finalise, finalise};
use crate::fence::{Fence, NoFence};
use crate::ids::{CheckpointId, RunToken, SubtaskId};
use crate::pending::PendingKey;
use crate::state_backend::OperatorStateBackend;
use crate::steps::{Step, Tripwire};
use crate::succession::Succession;
use crate::verbs::{CommitOutcome, CommittingSink, OpenContext};

/// Who is opening: the job, the run's generation, and the subtask with its succession.
#[derive(Debug, Clone)]
pub struct RunContext {
    /// The job's name.
    pub job: String,
    /// Bumped by the coordinator at every start of the job; never restored.
    pub generation: u64,
    /// This subtask and whose pending handles it finalises.
    pub succession: Succession,
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
}

impl<S: CommittingSink, B: OperatorStateBackend> CommitterOperator<S, B> {
    /// Opens `sink` over `state` (restored from the last completed checkpoint, or empty):
    /// `on_open`, then every restored handle this subtask owns is recovered and erased
    /// and every other copy erased, before the operator accepts a record.
    ///
    /// # Errors
    /// When a restored handle cannot be read, or the sink fails to open or recover.
    pub fn open(sink: S, state: B, run: &RunContext, tripwire: Box<dyn Tripwire>) -> Result<Self> {
        Self::open_fenced(sink, state, run, tripwire, Box::new(NoFence))
    }

    /// [`CommitterOperator::open`] for a run that holds `fence`: the fence is checked
    /// before the orphan sweep, before each recovery, at every barrier and before every
    /// commit, so a run overtaken by a newer one stops at its next step with
    /// [`crate::Fenced`] and neither commits nor discards anything more.
    ///
    /// # Errors
    /// As [`CommitterOperator::open`], and when the run is fenced.
    pub fn open_fenced(
        sink: S,
        state: B,
        run: &RunContext,
        tripwire: Box<dyn Tripwire>,
        fence: Box<dyn Fence>,
    ) -> Result<Self> {
        Self::open_with(sink, state, run, tripwire, fence, CommitPolicy::default())
    }

    /// [`CommitterOperator::open_fenced`] finalising handles under `policy` (retries of
    /// transient failures, what to do with a lost handle), at recovery and at commits.
    ///
    /// # Errors
    /// As [`CommitterOperator::open_fenced`].
    pub fn open_with(
        mut sink: S,
        mut state: B,
        run: &RunContext,
        mut tripwire: Box<dyn Tripwire>,
        fence: Box<dyn Fence>,
        policy: CommitPolicy,
    ) -> Result<Self> {
        let me = run.succession.me();
        let mut owned = Vec::new();
        let mut others = Vec::new();
        for key in pending_keys(&state)? {
            if run.succession.succeeds(key.author)? {
                owned.push(key);
            } else {
                others.push(key);
            }
        }
        let pending = owned
            .iter()
            .map(|key| Ok((key.checkpoint, load::<S, B>(&state, key)?)))
            .collect::<Result<Vec<_>>>()?;
        let context = OpenContext {
            job: &run.job,
            generation: run.generation,
            run_token: RunToken(run.generation),
            succession: run.succession,
            pending: &pending,
        };
        fence.check()?;
        sink.on_open(&context).context("opening the sink")?;
        tripwire.reached(Step::Opened(me))?;
        // Another subtask succeeds these authors and finalises its own copy.
        for key in others {
            state.remove(&key)?;
        }
        let mut recovered = Vec::new();
        for (key, (checkpoint, committable)) in owned.iter().zip(&pending) {
            let outcome = finalise(&mut sink, &*fence, &policy, Finalise::Recover, committable)
                .with_context(|| {
                    format!("{me} recovering the handle of checkpoint {checkpoint}")
                })?;
            tripwire.reached(Step::Recovered(me, *checkpoint))?;
            state.remove(key)?;
            tripwire.reached(Step::RecoveryErased(me, *checkpoint))?;
            recovered.push((*checkpoint, outcome));
        }
        // Every restored key was erased above, so `state` and `pending` start equal
        // (empty) and every change below goes to both.
        Ok(Self {
            sink,
            state,
            me,
            watch_writes: tripwire.watches_writes(),
            tripwire,
            fence,
            policy,
            recovered,
            pending: VecDeque::new(),
            encoded: Vec::new(),
            committed: Vec::new(),
        })
    }

    /// Writes one record into the sink's open transaction.
    ///
    /// # Errors
    /// When the sink refuses it.
    pub fn write(&mut self, record: S::Record) -> Result<()> {
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

    /// Barrier `checkpoint`: prepares the open transaction, persists its handle, and
    /// returns the operator-state snapshot that goes into the checkpoint.
    ///
    /// An empty epoch (`prepare_commit` says `None`) persists nothing, so its checkpoint
    /// costs the external system nothing and leaves nothing to finalise.
    ///
    /// # Errors
    /// When the sink cannot prepare, or `checkpoint` already has a handle (barrier ids
    /// must grow, or a handle would be overwritten and its records lost).
    pub fn on_barrier(&mut self, checkpoint: CheckpointId) -> Result<Vec<u8>> {
        let key = PendingKey {
            author: self.me,
            checkpoint,
        };
        // Sorted by key, so a barrier's place is found by search (it is the end unless
        // ids arrive out of order).
        let Err(place) = self.pending.binary_search_by_key(&key, |(k, _)| *k) else {
            bail!(
                "{} already holds a pending handle for checkpoint {checkpoint}",
                self.me
            );
        };
        self.fence.check()?;
        if let Some(committable) = self.sink.prepare_commit(checkpoint)? {
            self.tripwire.reached(Step::Prepared(self.me, checkpoint))?;
            codec::encode_into::<S>(&committable, &mut self.encoded)?;
            self.state.put(key, &self.encoded)?;
            self.pending.insert(place, (key, committable));
            self.tripwire
                .reached(Step::Persisted(self.me, checkpoint))?;
        }
        self.state.snapshot()
    }

    /// Checkpoint `checkpoint` completed: commits every pending handle up to it, oldest
    /// first, erasing each after its commit. A handle of an earlier checkpoint whose own
    /// notification was lost, is late, or whose checkpoint was aborted is committed
    /// here; a stale or repeated notification finds nothing left and does nothing.
    ///
    /// Returns what it committed, oldest first (kept until the next notification).
    ///
    /// # Errors
    /// When a commit fails; the handle stays pending for the next notification or
    /// for recovery.
    pub fn on_checkpoint_complete(
        &mut self,
        checkpoint: CheckpointId,
    ) -> Result<&[(CheckpointId, CommitOutcome)]> {
        self.committed.clear();
        while let Some((key, committable)) = self.pending.front() {
            let key = *key;
            if key.checkpoint > checkpoint {
                break;
            }
            let outcome = finalise(
                &mut self.sink,
                &*self.fence,
                &self.policy,
                Finalise::Commit,
                committable,
            )
            .with_context(|| {
                format!(
                    "{} committing the handle of checkpoint {}",
                    self.me, key.checkpoint
                )
            })?;
            self.tripwire
                .reached(Step::Committed(self.me, key.checkpoint))?;
            self.state.remove(&key)?;
            self.pending.pop_front();
            self.tripwire
                .reached(Step::Erased(self.me, key.checkpoint))?;
            self.committed.push((key.checkpoint, outcome));
        }
        Ok(&self.committed)
    }

    /// Checkpoint `checkpoint` was aborted. This does nothing, on purpose, and exists so
    /// that a driver hands every coordinator event to the base and the decision is made
    /// (and documented) here rather than in each driver.
    ///
    /// Why nothing: the handle stays pending and is carried into the next completed
    /// checkpoint, whose notification commits it. The source will not replay those
    /// records (the next checkpoint's offset is past them), so aborting the handle would
    /// lose them; and if the job crashes first, the restore comes from an earlier
    /// checkpoint that never saw the handle, so the successor's `on_open` discards it as
    /// an orphan.
    pub fn on_checkpoint_aborted(&mut self, checkpoint: CheckpointId) {
        let _ = checkpoint;
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

    /// End of input: the operator may close only once nothing is outstanding.
    ///
    /// # Errors
    /// When handles are still pending (their notification has not arrived): closing
    /// now would strand them until the next restore.
    pub fn finish(self) -> Result<(S, B)> {
        let outstanding = self.staged_commits_outstanding()?;
        if outstanding > 0 {
            bail!(
                "{} reached end of input with {outstanding} staged commit(s) outstanding",
                self.me
            );
        }
        Ok((self.sink, self.state))
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

fn load<S: CommittingSink, B: OperatorStateBackend>(
    state: &B,
    key: &PendingKey,
) -> Result<S::Committable> {
    let bytes = state
        .get(key)?
        .with_context(|| format!("pending handle {key} vanished from operator state"))?;
    codec::decode::<S>(&bytes).with_context(|| format!("reading pending handle {key}"))
}
