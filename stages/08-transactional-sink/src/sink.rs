//! An in-memory external system that honours the two-phase-commit contract.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::{CheckpointId, TwoPhaseCommitSink};

/// A transactional sink kept in memory: an open transaction, the transactions
/// pre-committed under their checkpoint ids, and the visible output.
///
/// It plays the part of the external system: what it holds outlives the job that
/// writes to it, so a crash of the job aborts nothing by itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionalSink<T> {
    // The fields are a suggestion: change them (and `Transaction`) as you see fit.
    open: Vec<T>,
    transactions: BTreeMap<CheckpointId, Transaction<T>>,
    committed: Vec<T>,
}

/// Where a transaction pre-committed under some checkpoint id stands.
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
}

impl<T: Serialize> TransactionalSink<T> {
    /// The whole sink as bytes (JSON): open and prepared data, and the visible output.
    ///
    /// Serialising can fail, hence the `Result`: see the brief's *Task* on the sink's
    /// fields.
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        serde_json::to_vec(self).context("serialising the transactional sink")
    }
}

impl<T: DeserializeOwned> TransactionalSink<T> {
    /// The sink that [`snapshot`](Self::snapshot) wrote: the same sink, whatever its
    /// fields (08-R27).
    pub fn restore(bytes: &[u8]) -> Result<Self> {
        serde_json::from_slice(bytes).context("restoring the transactional sink: not a snapshot")
    }
}

impl<T> TwoPhaseCommitSink<T> for TransactionalSink<T> {
    fn write(&mut self, record: T) {
        // TODO(stage 08): add the record to the open transaction.
        let _ = record;
        todo!()
    }

    fn pre_commit(&mut self, id: CheckpointId) {
        // TODO(stage 08): seal the open transaction as prepared transaction `id` and open
        // a new, empty one.
        let _ = id;
        todo!()
    }

    fn commit(&mut self, id: CheckpointId) {
        // TODO(stage 08): publish prepared transaction `id` exactly once; ignore an id
        // that is already committed, aborted or unknown.
        let _ = id;
        todo!()
    }

    fn abort(&mut self, id: CheckpointId) {
        // TODO(stage 08): discard prepared transaction `id` (committed data stays visible).
        let _ = id;
        todo!()
    }

    fn abort_open(&mut self) {
        // TODO(stage 08): discard the open transaction.
        todo!()
    }

    fn committed(&self) -> &[T] {
        // TODO(stage 08): everything published so far, in commit order.
        todo!()
    }
}
