//! A learner-level sink as an external system the framework can reconcile.
//!
//! [`TwoPhaseCommitSink`] only takes orders: it cannot say what it holds. A connector
//! needs two answers from its external system, so this wrapper keeps them beside the
//! sink, where they outlive a crash of the job just as the sink does:
//!
//! - which transactions are prepared and which committed, so that a commit can tell
//!   [`CommitOutcome::Committed`] from [`CommitOutcome::AlreadyCommitted`] and recovery
//!   can list the prepared orphans (a database answers this from `pg_prepared_xacts` and
//!   a table of committed ids, as [`XaDatabase`](super::XaDatabase) does);
//! - which run holds the open transaction, so that the next run rolls back the one a
//!   dead run left open (a database does this when the dead run's connection drops),
//!   and whether it holds records, so that end of input cannot close over them.
//!
//! Where a transaction stands is the sink's own business (its `Transaction` phases);
//! this keeps only the registry a real system would expose, two sets of ids and the
//! open transaction's holder. Its rule
//! for a reused id is the sink's: refused, the open data stays open. The sink cannot
//! say so through the trait; this can, and does.

use std::collections::BTreeSet;

use anyhow::{Result, bail};
use solution08::TwoPhaseCommitSink;

use crate::ids::{CheckpointId, RunToken};
use crate::verbs::{AbortOutcome, CommitOutcome, OpenTransaction};

/// A two-phase-commit sink and the registry of what it was told.
#[derive(Debug)]
pub struct TwoPhaseSystem<S> {
    sink: S,
    open_by: Option<RunToken>,
    open: OpenTransaction,
    prepared: BTreeSet<CheckpointId>,
    committed: BTreeSet<CheckpointId>,
}

impl<S> TwoPhaseSystem<S> {
    /// A system around a sink nobody has written to yet.
    pub fn new(sink: S) -> Self {
        Self {
            sink,
            open_by: None,
            open: OpenTransaction::Empty,
            prepared: BTreeSet::new(),
            committed: BTreeSet::new(),
        }
    }

    /// The sink, for reading what it made visible.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// The sink, taken out of the system (to move what it made visible).
    pub fn into_sink(self) -> S {
        self.sink
    }

    /// The ids of the transactions prepared and neither committed nor aborted, oldest
    /// first.
    pub fn prepared(&self) -> Vec<CheckpointId> {
        self.prepared.iter().copied().collect()
    }

    /// Run `run` begins writing: the open transaction of an earlier run, which died
    /// with it, is rolled back first (a run never rolls back its own).
    pub fn begin<T>(&mut self, run: RunToken)
    where
        S: TwoPhaseCommitSink<T>,
    {
        if self.open_by.is_some_and(|holder| holder != run) {
            self.sink.abort_open();
            self.open = OpenTransaction::Empty;
        }
        self.open_by = Some(run);
    }

    /// Adds `record` to the open transaction.
    pub fn write<T>(&mut self, record: T)
    where
        S: TwoPhaseCommitSink<T>,
    {
        self.sink.write(record);
        self.open = OpenTransaction::Holding;
    }

    /// Whether records were written since the last prepare (the sink cannot say, so
    /// the registry keeps it).
    pub fn open_transaction(&self) -> OpenTransaction {
        self.open
    }

    /// Seals the open transaction as prepared transaction `id`.
    ///
    /// # Errors
    /// When `id` already names a transaction: it is refused, as the sink refuses it,
    /// and the open data stays open.
    pub fn prepare<T>(&mut self, id: CheckpointId) -> Result<()>
    where
        S: TwoPhaseCommitSink<T>,
    {
        if self.prepared.contains(&id) || self.committed.contains(&id) {
            bail!("checkpoint id {id} already names a transaction of this sink");
        }
        self.sink.pre_commit(id);
        self.prepared.insert(id);
        self.open = OpenTransaction::Empty;
        Ok(())
    }

    /// Publishes prepared transaction `id`; a committed one is left alone.
    ///
    /// # Errors
    /// When `id` is neither prepared nor committed (aborted, or never prepared): its
    /// records are lost.
    pub fn commit<T>(&mut self, id: CheckpointId) -> Result<CommitOutcome>
    where
        S: TwoPhaseCommitSink<T>,
    {
        if self.prepared.remove(&id) {
            self.sink.commit(id);
            self.committed.insert(id);
            Ok(CommitOutcome::Committed)
        } else if self.committed.contains(&id) {
            // The sink would ignore a second commit; not sending it keeps its calls
            // exactly those of the learner-level protocol.
            Ok(CommitOutcome::AlreadyCommitted)
        } else {
            bail!("transaction {id} is neither prepared nor committed: its records are lost")
        }
    }

    /// Discards prepared transaction `id`; an aborted or unknown one is left alone.
    ///
    /// # Errors
    /// When `id` is committed: its records are visible and cannot be taken back.
    pub fn abort<T>(&mut self, id: CheckpointId) -> Result<AbortOutcome>
    where
        S: TwoPhaseCommitSink<T>,
    {
        if self.committed.contains(&id) {
            bail!("cannot abort transaction {id}: it is committed");
        }
        if self.prepared.remove(&id) {
            self.sink.abort(id);
            Ok(AbortOutcome::Aborted)
        } else {
            Ok(AbortOutcome::AlreadyAborted)
        }
    }
}
