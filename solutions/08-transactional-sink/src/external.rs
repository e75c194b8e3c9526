//! A learner-level sink as the external system the framework writes to.
//!
//! [`TwoPhaseCommitSink`] only takes orders: it cannot say what it holds. A framework
//! connector needs two answers from its external system, so this wrapper records them
//! beside the sink, where they outlive a crash of the job just as the sink does:
//!
//! - where each transaction stands, so that a commit can tell
//!   [`CommitOutcome::Committed`] from [`CommitOutcome::AlreadyCommitted`] and recovery
//!   can list the prepared orphans (a database answers this from `pg_prepared_xacts`);
//! - which run holds the open transaction, so that the next run rolls back the one a
//!   dead run left open (a database does this when the dead run's connection drops).

use std::collections::BTreeMap;

use anyhow::{Result, bail};

use crate::committer::{AbortOutcome, CommitOutcome, RunToken};
use crate::{CheckpointId, TwoPhaseCommitSink};

/// Where a transaction pre-committed under a checkpoint id stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Prepared,
    Committed,
    Aborted,
}

/// A two-phase-commit sink and what it was told, in the order it was told.
#[derive(Debug)]
pub(crate) struct ExternalSystem<S> {
    sink: S,
    open_by: Option<RunToken>,
    phases: BTreeMap<CheckpointId, Phase>,
}

impl<S> ExternalSystem<S> {
    /// A system around a sink nobody has written to yet.
    pub(crate) fn new(sink: S) -> Self {
        Self {
            sink,
            open_by: None,
            phases: BTreeMap::new(),
        }
    }

    /// The sink, for reading what it made visible.
    pub(crate) fn sink(&self) -> &S {
        &self.sink
    }

    /// The ids of the transactions prepared and neither committed nor aborted, oldest
    /// first.
    pub(crate) fn prepared(&self) -> Vec<CheckpointId> {
        self.phases
            .iter()
            .filter(|(_, phase)| **phase == Phase::Prepared)
            .map(|(id, _)| *id)
            .collect()
    }

    /// Run `run` begins writing: the open transaction of an earlier run, which died
    /// with it, is rolled back first (a run never rolls back its own).
    pub(crate) fn begin<T>(&mut self, run: RunToken)
    where
        S: TwoPhaseCommitSink<T>,
    {
        if self.open_by.is_some_and(|holder| holder != run) {
            self.sink.abort_open();
        }
        self.open_by = Some(run);
    }

    pub(crate) fn write<T>(&mut self, record: T)
    where
        S: TwoPhaseCommitSink<T>,
    {
        self.sink.write(record);
    }

    /// Seals the open transaction as prepared transaction `id`.
    ///
    /// # Errors
    /// When `id` already names a transaction: the sink would keep the records open,
    /// and no handle could ever publish them.
    pub(crate) fn prepare<T>(&mut self, id: CheckpointId) -> Result<()>
    where
        S: TwoPhaseCommitSink<T>,
    {
        if self.phases.contains_key(&id) {
            bail!("checkpoint id {id} already names a transaction of this sink");
        }
        self.sink.pre_commit(id);
        self.phases.insert(id, Phase::Prepared);
        Ok(())
    }

    /// Publishes prepared transaction `id`; a committed one is left alone.
    ///
    /// # Errors
    /// When `id` was aborted or never prepared: its records are lost.
    pub(crate) fn commit<T>(&mut self, id: CheckpointId) -> Result<CommitOutcome>
    where
        S: TwoPhaseCommitSink<T>,
    {
        match self.phases.get(&id) {
            Some(Phase::Prepared) => {
                self.sink.commit(id);
                self.phases.insert(id, Phase::Committed);
                Ok(CommitOutcome::Committed)
            }
            // The sink would ignore a second commit; not sending it keeps its calls
            // exactly those of the learner-level protocol.
            Some(Phase::Committed) => Ok(CommitOutcome::AlreadyCommitted),
            Some(Phase::Aborted) => bail!("transaction {id} was aborted: its records are lost"),
            None => bail!("transaction {id} was never prepared: its records are lost"),
        }
    }

    /// Discards prepared transaction `id`; an aborted or unknown one is left alone.
    ///
    /// # Errors
    /// When `id` is committed: its records are visible and cannot be taken back.
    pub(crate) fn abort<T>(&mut self, id: CheckpointId) -> Result<AbortOutcome>
    where
        S: TwoPhaseCommitSink<T>,
    {
        match self.phases.get(&id) {
            Some(Phase::Prepared) => {
                self.sink.abort(id);
                self.phases.insert(id, Phase::Aborted);
                Ok(AbortOutcome::Aborted)
            }
            Some(Phase::Aborted) | None => Ok(AbortOutcome::AlreadyAborted),
            Some(Phase::Committed) => bail!("cannot abort transaction {id}: it is committed"),
        }
    }
}
