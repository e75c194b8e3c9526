//! The connector's verbs: what a sink supplies so the base can run two-phase commit.

use std::fmt::Debug;

use anyhow::{Result, bail};
use serde::{Serialize, de::DeserializeOwned};

use crate::ids::{CheckpointId, RunToken, SubtaskId};
use crate::mechanism::Mechanism;
use crate::succession::Succession;

/// What a commit (or a recovery) did to the external system.
///
/// Commits must be idempotent because recovery re-commits every handle of the restored
/// checkpoint, including those whose commit ran just before the crash; saying which case
/// it was makes the repair visible in tests and logs instead of hiding it in a `bool`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CommitOutcome {
    /// This call made the handle's records visible.
    Committed,
    /// An earlier call already had; nothing changed.
    AlreadyCommitted,
    /// The handle's records were lost before this call and the operator chose to go on
    /// without them ([`crate::OnLostHandle::Abandon`]); never returned by a sink.
    Abandoned,
}

/// What an abort did to the external system (idempotent for the same reason).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum AbortOutcome {
    /// This call discarded the handle's staged or prepared records.
    Aborted,
    /// Nothing was left to discard.
    AlreadyAborted,
}

/// What the open transaction holds: the one thing end of input must not lose.
///
/// Records written since the last barrier are in no prepared transaction and no
/// checkpoint; only a final barrier puts them in one. So the base asks before it lets a
/// sink close ([`crate::CommitterOperator::finish`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenTransaction {
    /// Nothing written since the last barrier (or nothing that still needs one: an
    /// append sink's records are visible as they are written).
    Empty,
    /// Records written since the last barrier that no barrier has prepared yet.
    Holding,
}

/// What a sink learns when it opens, before recovery and before any record.
#[derive(Debug, Clone)]
pub struct OpenContext<'a, C> {
    /// The job's name; external names start with it so jobs sharing a store never collide.
    pub job: &'a str,
    /// Every name the job's history has run under, `job` included, in order: an orphan
    /// sweep looks for leftovers under each, so a job restored under a new name still
    /// discards what it left under an old one (as Flink's Kafka writer keeps the
    /// transactional-id prefixes of its state). Restored handles keep their own names.
    pub names: &'a [String],
    /// The run's generation: bumped by the coordinator at every start of the job, and
    /// unique over the job's whole history (global ids are minted from it).
    pub generation: u64,
    /// The token naming this open, for staged artifacts.
    pub run_token: RunToken,
    /// Who this subtask is and whose orphans it discards.
    pub succession: Succession,
    /// The checkpoint the run restored, `None` on a first run: what was prepared after
    /// it belongs to no completed checkpoint.
    pub restored: Option<CheckpointId>,
    /// The restored handles this subtask was handed and is about to finalise, by
    /// checkpoint.
    pub pending: &'a [(CheckpointId, C)],
}

impl<C> OpenContext<'_, C> {
    /// This subtask.
    pub fn subtask(&self) -> SubtaskId {
        self.succession.me()
    }

    /// The restored, still pending handles this subtask was handed: a connector
    /// reconciling an external registry keeps these and discards the orphans it is
    /// responsible for.
    pub fn pending_committables(&self) -> &[(CheckpointId, C)] {
        self.pending
    }

    /// Whether a prepared transaction or staged artifact this job left, written by
    /// `author` at the barrier of `checkpoint`, is an orphan this subtask must discard.
    ///
    /// It is when this subtask succeeds its author (so exactly one subtask discards it)
    /// and no completed checkpoint can hold it: it was prepared after the restored
    /// checkpoint, or nothing was restored. One prepared at or before the restored
    /// checkpoint and still there is a handle of that checkpoint, which whichever
    /// subtask was handed it finalises at open, however the restore distributed the
    /// state (as in Flink, where a writer aborts only the transactions of checkpoints
    /// after the one it restored).
    ///
    /// # Errors
    /// When `author` ran at a parallelism above the job's key groups.
    pub fn is_orphan(&self, author: SubtaskId, checkpoint: CheckpointId) -> Result<bool> {
        let after_restore = self.restored.is_none_or(|restored| checkpoint > restored);
        Ok(after_restore && self.succession.succeeds(author)?)
    }
}

/// A sink's verbs. The base ([`crate::CommitterOperator`]) decides when each runs;
/// a connector only says how.
pub trait CommittingSink {
    /// One input record.
    type Record;
    /// The handle to one checkpoint's durable but invisible output. Persisted in
    /// operator state and read back after a crash by a fresh instance, so it must carry
    /// everything `commit` needs and nothing of the instance that made it.
    type Committable: Serialize + DeserializeOwned + Clone + Debug + PartialEq;

    /// How this sink makes output durable, which decides its guarantee label.
    const MECHANISM: Mechanism;

    /// The version written next to every persisted handle.
    const COMMITTABLE_VERSION: u32 = 1;

    /// Creates resources and reconciles the external system; runs before recovery.
    ///
    /// # Errors
    /// When the external system refuses.
    fn on_open(&mut self, context: &OpenContext<'_, Self::Committable>) -> Result<()>;

    /// Buffers or stages one record into the open transaction.
    ///
    /// # Errors
    /// When the external system refuses.
    fn write(&mut self, record: Self::Record) -> Result<()>;

    /// Whether the open transaction holds records no barrier has prepared. The base asks
    /// at end of input and refuses to finish while it does: those records would be in
    /// no checkpoint, so they would never be committed and the source, past them, would
    /// never replay them. [`crate::CommitterOperator::end_of_input`] prepares them as
    /// the final checkpoint's handle.
    fn open_transaction(&self) -> OpenTransaction;

    /// Makes the open transaction durable but invisible and returns its handle, or
    /// `None` when the epoch wrote nothing worth committing.
    ///
    /// # Errors
    /// When the external system refuses.
    fn prepare_commit(&mut self, checkpoint: CheckpointId) -> Result<Option<Self::Committable>>;

    /// Makes a handle's records visible, atomically and idempotently.
    ///
    /// # Errors
    /// When the handle's records are gone (neither pending nor visible): data was lost.
    fn commit(&mut self, committable: &Self::Committable) -> Result<CommitOutcome>;

    /// Discards a handle's records, idempotently.
    ///
    /// # Errors
    /// When the external system refuses.
    fn abort(&mut self, committable: &Self::Committable) -> Result<AbortOutcome>;

    /// Finalises a handle found pending at open; a commit unless the sink knows better.
    ///
    /// # Errors
    /// As [`CommittingSink::commit`].
    fn recover(&mut self, committable: &Self::Committable) -> Result<CommitOutcome> {
        self.commit(committable)
    }

    /// Whether `error`, returned by `commit` or `recover`, may pass if tried again (a
    /// timeout, a connection reset). The base retries those a bounded number of times.
    fn is_transient(&self, error: &anyhow::Error) -> bool {
        let _ = error;
        false
    }

    /// Reads a handle persisted under an older `version` (the current one never gets
    /// here). A sink that changes its handle's shape bumps the version and teaches this.
    ///
    /// # Errors
    /// By default, always: an unknown version cannot be trusted to mean anything.
    fn upgrade_committable(version: u32, raw: serde_json::Value) -> Result<Self::Committable> {
        let _ = raw;
        bail!(
            "committable version {version} is not readable (this sink writes version {})",
            Self::COMMITTABLE_VERSION
        )
    }
}
