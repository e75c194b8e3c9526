//! An in-memory external system that honours the two-phase-commit contract.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::{CheckpointId, TwoPhaseCommitSink};

/// A transactional sink kept in memory: an open transaction, the transactions
/// pre-committed under each checkpoint id, and the visible output.
///
/// It plays the part of the external system (a database, a topic with transactions,
/// a directory of staged files): what it holds outlives the job that writes to it, so
/// a crash of the job aborts nothing by itself. Recovery must say what to abort.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionalSink<T> {
    open: Vec<T>,
    // A BTreeMap so that snapshots and debug output list transactions by id.
    transactions: BTreeMap<CheckpointId, Transaction<T>>,
    committed: Vec<T>,
}

/// Where a transaction pre-committed under some checkpoint id stands.
///
/// The ended phases keep no records but are remembered, so that a notification that
/// arrives again (after a failure, say) is recognised instead of publishing twice, and
/// so that a late notification cannot bring an aborted transaction back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum Transaction<T> {
    /// Durable, invisible, waiting for the notification of its checkpoint.
    Prepared(Vec<T>),
    /// Published: its records are in the visible output.
    Committed,
    /// Discarded: its records will come again from the replay.
    Aborted,
}

impl<T> Default for TransactionalSink<T> {
    fn default() -> Self {
        Self {
            open: Vec::new(),
            transactions: BTreeMap::new(),
            committed: Vec::new(),
        }
    }
}

impl<T> TransactionalSink<T> {
    /// A sink with an empty open transaction, nothing prepared and nothing visible.
    pub fn new() -> Self {
        Self::default()
    }

    /// [`TransactionalSink::new`] with room for `records` visible records up front, for
    /// a job that knows how much it will publish: the output then never moves as it
    /// grows.
    pub fn with_capacity(records: usize) -> Self {
        Self {
            committed: Vec::with_capacity(records),
            ..Self::default()
        }
    }

    /// Everything visible, moved out of the sink (what [`TwoPhaseCommitSink::committed`]
    /// shows, without copying it).
    pub fn into_committed(self) -> Vec<T> {
        self.committed
    }
}

impl<T: Serialize> TransactionalSink<T> {
    /// The whole sink as bytes (JSON): open and prepared data, and the visible output.
    ///
    /// # Errors
    /// When a record cannot be serialised.
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        serde_json::to_vec(self).context("serialising the transactional sink")
    }
}

impl<T: DeserializeOwned> TransactionalSink<T> {
    /// The sink that [`snapshot`](Self::snapshot) wrote.
    ///
    /// # Errors
    /// When `bytes` is not a snapshot of a sink of this record type.
    pub fn restore(bytes: &[u8]) -> Result<Self> {
        serde_json::from_slice(bytes).context("restoring the transactional sink: not a snapshot")
    }
}

impl<T> TwoPhaseCommitSink<T> for TransactionalSink<T> {
    fn write(&mut self, record: T) {
        self.open.push(record);
    }

    fn pre_commit(&mut self, id: CheckpointId) {
        // An id names one transaction forever, so a reused id is refused: the open data
        // stays open rather than being lost or merged into a transaction that may
        // already be published. (The trait gives no way to say so; the committer's
        // adopter, which can, refuses the same way and reports it.)
        if self.transactions.contains_key(&id) {
            return;
        }
        // The next epoch is likely as long as this one: room for it up front, rather
        // than growing a fresh buffer from nothing record by record.
        let room = Vec::with_capacity(self.open.len());
        let sealed = std::mem::replace(&mut self.open, room);
        self.transactions.insert(id, Transaction::Prepared(sealed));
    }

    fn commit(&mut self, id: CheckpointId) {
        // Only a prepared transaction moves. Committed, aborted and unknown ids are left
        // alone, which is what makes a repeated or stray notification harmless.
        let Some(transaction) = self.transactions.get_mut(&id) else {
            return;
        };
        if let Transaction::Prepared(records) = transaction {
            let mut records = std::mem::take(records);
            *transaction = Transaction::Committed;
            self.committed.append(&mut records);
        }
    }

    fn abort(&mut self, id: CheckpointId) {
        if let Some(transaction @ Transaction::Prepared(_)) = self.transactions.get_mut(&id) {
            *transaction = Transaction::Aborted;
        }
    }

    fn abort_open(&mut self) {
        self.open.clear();
    }

    fn committed(&self) -> &[T] {
        &self.committed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sink_with(open: &[u32]) -> TransactionalSink<u32> {
        let mut sink = TransactionalSink::new();
        for &record in open {
            sink.write(record);
        }
        sink
    }

    #[test]
    fn open_and_prepared_data_is_invisible_until_commit() {
        let mut sink = sink_with(&[1, 2]);
        assert!(sink.committed().is_empty());
        sink.pre_commit(1);
        assert!(sink.committed().is_empty());
        sink.commit(1);
        assert_eq!(sink.committed(), [1, 2]);
    }

    #[test]
    fn commit_is_idempotent_and_ignores_unknown_ids() {
        let mut sink = sink_with(&[7]);
        sink.pre_commit(1);
        sink.commit(1);
        sink.commit(1);
        sink.commit(9);
        assert_eq!(sink.committed(), [7]);
    }

    #[test]
    fn aborted_data_never_becomes_visible() {
        let mut sink = sink_with(&[1]);
        sink.pre_commit(1);
        sink.write(2);
        sink.abort_open();
        sink.abort(1);
        sink.commit(1);
        sink.pre_commit(2);
        sink.commit(2);
        assert!(sink.committed().is_empty());
    }

    #[test]
    fn abort_leaves_committed_data_visible() {
        let mut sink = sink_with(&[1]);
        sink.pre_commit(1);
        sink.commit(1);
        sink.abort(1);
        assert_eq!(sink.committed(), [1]);
    }

    #[test]
    fn a_reused_id_keeps_the_open_data_open() {
        let mut sink = sink_with(&[1]);
        sink.pre_commit(1);
        sink.write(2);
        sink.pre_commit(1);
        sink.commit(1);
        sink.pre_commit(2);
        sink.commit(2);
        assert_eq!(sink.committed(), [1, 2]);
    }

    #[test]
    fn snapshot_round_trips() -> Result<()> {
        let mut sink = sink_with(&[1, 2]);
        sink.pre_commit(1);
        sink.write(3);
        let restored = TransactionalSink::<u32>::restore(&sink.snapshot()?)?;
        assert_eq!(restored, sink);
        Ok(())
    }
}
