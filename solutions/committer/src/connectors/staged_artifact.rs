//! Shape A: stage an artifact at the barrier, publish it atomically at the commit.

use std::mem;

use anyhow::{Result, bail};

use super::object_store::{ObjectPlace, SharedObjectStore};
use super::staged_name::StagedName;
use crate::{
    AbortOutcome, CheckpointId, CommitOutcome, CommittingSink, ExactlyOnceCapable, HandleLost,
    Mechanism, OpenContext, OpenTransaction, RunToken, SubtaskId,
};

/// Who this sink is once opened; before `on_open` it cannot name anything.
#[derive(Debug, Clone)]
enum Identity {
    Unopened,
    Opened {
        job: String,
        me: SubtaskId,
        run: RunToken,
    },
}

/// A file-like sink: an epoch's records become one staged object, published on commit.
#[derive(Debug)]
pub struct StagedArtifactSink<T> {
    store: SharedObjectStore<T>,
    identity: Identity,
    // The open transaction lives in memory: a crash loses it, and replay rewrites it.
    open: Vec<T>,
}

impl<T: Clone> StagedArtifactSink<T> {
    /// A sink writing into `store`.
    pub fn new(store: SharedObjectStore<T>) -> Self {
        Self {
            store,
            identity: Identity::Unopened,
            open: Vec::new(),
        }
    }
}

impl<T: Clone> CommittingSink for StagedArtifactSink<T> {
    type Record = T;
    type Committable = StagedName;
    const MECHANISM: Mechanism = Mechanism::AtomicPublish;

    /// Discards the staged orphans this subtask is responsible for (staged after the
    /// restored checkpoint by a run that crashed before its own completed) and keeps
    /// the restored checkpoint's artifacts, which recovery is about to publish,
    /// whichever subtask was handed them. Leftovers under every name in the job's
    /// history are swept, not only the current one's.
    fn on_open(&mut self, context: &OpenContext<'_, StagedName>) -> Result<()> {
        let restored: Vec<&StagedName> = context.pending.iter().map(|(_, c)| c).collect();
        let staged = self.store.borrow().staged_names();
        // Under any name the job has run under: a renamed job still owns these.
        let ours = |n: &String| {
            context
                .names
                .iter()
                .find_map(|job| StagedName::parse(job, n))
        };
        for name in staged.iter().filter_map(ours) {
            if name.run != context.run_token
                && context.is_orphan(name.author, name.checkpoint)?
                && !restored.contains(&&name)
            {
                self.abort(&name)?;
            }
        }
        self.identity = Identity::Opened {
            job: context.job.to_owned(),
            me: context.subtask(),
            run: context.run_token,
        };
        Ok(())
    }

    fn write(&mut self, record: T) -> Result<()> {
        self.open.push(record);
        Ok(())
    }

    fn open_transaction(&self) -> OpenTransaction {
        if self.open.is_empty() {
            OpenTransaction::Empty
        } else {
            OpenTransaction::Holding
        }
    }

    fn prepare_commit(&mut self, checkpoint: CheckpointId) -> Result<Option<StagedName>> {
        let Identity::Opened { job, me, run } = &self.identity else {
            bail!("prepare_commit before on_open: the artifact would have no name");
        };
        if self.open.is_empty() {
            return Ok(None);
        }
        let name = StagedName {
            job: job.clone(),
            author: *me,
            run: *run,
            checkpoint,
        };
        self.store
            .borrow_mut()
            .stage(&name.to_string(), mem::take(&mut self.open));
        Ok(Some(name))
    }

    fn commit(&mut self, name: &StagedName) -> Result<CommitOutcome> {
        match self.store.borrow_mut().publish(&name.to_string()) {
            ObjectPlace::Staged => Ok(CommitOutcome::Committed),
            ObjectPlace::Published => Ok(CommitOutcome::AlreadyCommitted),
            // Expired or deleted outside the job: the base's lost-handle policy decides.
            ObjectPlace::Absent => Err(HandleLost {
                handle: format!("staged artifact {name}"),
            }
            .into()),
        }
    }

    fn abort(&mut self, name: &StagedName) -> Result<AbortOutcome> {
        match self.store.borrow_mut().discard(&name.to_string()) {
            ObjectPlace::Staged => Ok(AbortOutcome::Aborted),
            ObjectPlace::Absent => Ok(AbortOutcome::AlreadyAborted),
            ObjectPlace::Published => bail!("cannot abort {name}: it is already published"),
        }
    }
}

impl<T: Clone> ExactlyOnceCapable for StagedArtifactSink<T> {}
