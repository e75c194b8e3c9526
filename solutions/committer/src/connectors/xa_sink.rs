//! Shape B: an external XA transaction, prepared at the barrier, committed at the commit.

use anyhow::{Result, bail};

use super::xa_store::{GlobalTxnId, XaStore};
use crate::{
    AbortOutcome, CheckpointId, CommitOutcome, CommittingSink, ExactlyOnceCapable, Mechanism,
    OpenContext, OpenTransaction, SubtaskId,
};

/// Where this epoch's transaction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Epoch {
    /// Nothing written since the last barrier: no transaction begun.
    Idle,
    /// A transaction with at least one row is open on the connection.
    Open,
}

/// Who this sink is once opened.
#[derive(Debug, Clone)]
struct Identity {
    job: String,
    generation: u64,
    me: SubtaskId,
}

/// A database sink writing each epoch into one transaction, prepared under a
/// deterministic global id.
#[derive(Debug)]
pub struct XaSink<C> {
    connection: C,
    identity: Option<Identity>,
    epoch: Epoch,
}

impl<C: XaStore> XaSink<C> {
    /// A sink writing through `connection`.
    pub fn new(connection: C) -> Self {
        Self {
            connection,
            identity: None,
            epoch: Epoch::Idle,
        }
    }
}

impl<C: XaStore> CommittingSink for XaSink<C> {
    type Record = C::Record;
    type Committable = GlobalTxnId;
    const MECHANISM: Mechanism = Mechanism::TwoPhaseTransaction;

    /// Rolls back the orphaned prepared transactions this subtask is responsible for
    /// (prepared after the restored checkpoint by a run that died before their own
    /// completed), so they never pile up holding locks. The restored checkpoint's
    /// transactions are kept for recovery, whichever subtask was handed them, and so is
    /// anything this run prepared. Leftovers under every name in the job's history are
    /// swept, not only the current one's.
    fn on_open(&mut self, context: &OpenContext<'_, GlobalTxnId>) -> Result<()> {
        let restored: Vec<&GlobalTxnId> = context.pending.iter().map(|(_, c)| c).collect();
        for gid in self.connection.prepared_transactions()? {
            // Under any name the job has run under: a renamed job still owns these.
            let parsed = context
                .names
                .iter()
                .find_map(|job| GlobalTxnId::parse(job, &gid));
            let Some(gid) = parsed else {
                continue;
            };
            if gid.generation != context.generation
                && context.is_orphan(gid.author, gid.checkpoint)?
                && !restored.contains(&&gid)
            {
                self.abort(&gid)?;
            }
        }
        self.identity = Some(Identity {
            job: context.job.to_owned(),
            generation: context.generation,
            me: context.subtask(),
        });
        Ok(())
    }

    fn write(&mut self, record: C::Record) -> Result<()> {
        if self.epoch == Epoch::Idle {
            self.connection.begin()?;
        }
        self.connection.insert(record)?;
        self.epoch = Epoch::Open;
        Ok(())
    }

    fn open_transaction(&self) -> OpenTransaction {
        match self.epoch {
            Epoch::Idle => OpenTransaction::Empty,
            Epoch::Open => OpenTransaction::Holding,
        }
    }

    fn prepare_commit(&mut self, checkpoint: CheckpointId) -> Result<Option<GlobalTxnId>> {
        let Some(identity) = &self.identity else {
            bail!("prepare_commit before on_open: the transaction would have no global id");
        };
        if self.epoch == Epoch::Idle {
            return Ok(None);
        }
        let gid = GlobalTxnId {
            job: identity.job.clone(),
            generation: identity.generation,
            author: identity.me,
            checkpoint,
        };
        self.connection.prepare(&gid.to_string())?;
        self.epoch = Epoch::Idle;
        Ok(Some(gid))
    }

    fn commit(&mut self, gid: &GlobalTxnId) -> Result<CommitOutcome> {
        self.connection.commit_prepared(&gid.to_string())
    }

    fn abort(&mut self, gid: &GlobalTxnId) -> Result<AbortOutcome> {
        self.connection.rollback_prepared(&gid.to_string())
    }

    fn is_transient(&self, error: &anyhow::Error) -> bool {
        self.connection.is_transient(error)
    }
}

impl<C: XaStore> ExactlyOnceCapable for XaSink<C> {}
