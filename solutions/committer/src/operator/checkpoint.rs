//! The checkpoint side of the base: what it does at each event of the coordinator's. A
//! barrier pre-commits the open transaction and persists its handle before the snapshot
//! is taken; a completed checkpoint's notification commits every handle up to it, and
//! erases each only after its commit; an aborted checkpoint changes nothing.
//!
//! A notification may be lost, late, repeated, stale or reordered, so it is not trusted
//! to name the one handle to commit: it commits everything pending up to its id, oldest
//! first, and finds nothing to do when that is already done.

use anyhow::{Context, Result, bail};

use super::CommitterOperator;
use crate::codec;
use crate::commit_policy::{Finalise, finalise};
use crate::ids::CheckpointId;
use crate::pending::PendingKey;
use crate::state_backend::OperatorStateBackend;
use crate::steps::Step;
use crate::verbs::{CommitOutcome, CommittingSink};

impl<S: CommittingSink, B: OperatorStateBackend> CommitterOperator<S, B> {
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
}
