//! Shape C: idempotent upsert by primary key. No two-phase commit at all: every
//! statement is keyed, so a replay overwrites what it wrote before and the table
//! converges to the same final state (effectively-once, for a deterministic input).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::mem;
use std::rc::Rc;

use anyhow::{Result, bail};

use super::changelog::Change;
use crate::{
    AbortOutcome, CheckpointId, CommitOutcome, CommittingSink, Mechanism, OpenContext,
    OpenTransaction,
};

/// A keyed table shared by every subtask and run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InMemoryTable<K, V> {
    rows: BTreeMap<K, V>,
    statements: u64,
}

impl<K: Ord + Clone, V: Clone> InMemoryTable<K, V> {
    /// An empty table, shareable.
    pub fn shared() -> Rc<RefCell<Self>> {
        Rc::new(RefCell::new(Self {
            rows: BTreeMap::new(),
            statements: 0,
        }))
    }

    /// The rows, by key.
    pub fn rows(&self) -> &BTreeMap<K, V> {
        &self.rows
    }

    /// How many keyed statements were applied (replays included).
    pub fn statements(&self) -> u64 {
        self.statements
    }

    fn apply(&mut self, key: K, row: Option<V>) {
        self.statements += 1;
        match row {
            Some(value) => self.rows.insert(key, value),
            None => self.rows.remove(&key),
        };
    }
}

/// A changelog-aware sink: buffers changes, nets them by key, and flushes one keyed
/// statement per key at every barrier.
#[derive(Debug)]
pub struct UpsertSink<K, V> {
    table: Rc<RefCell<InMemoryTable<K, V>>>,
    // Per key, the row as the latest change leaves it (`None`: deleted). Netting keeps
    // the flush to one statement per key and never sends a retraction that the next
    // change in the same flush would undo.
    netted: BTreeMap<K, Option<V>>,
}

impl<K: Ord + Clone, V: Clone> UpsertSink<K, V> {
    /// A sink writing into `table`.
    pub fn new(table: Rc<RefCell<InMemoryTable<K, V>>>) -> Self {
        Self {
            table,
            netted: BTreeMap::new(),
        }
    }
}

impl<K: Ord + Clone, V: Clone> CommittingSink for UpsertSink<K, V> {
    type Record = Change<K, V>;
    // An upsert sink never hands the base a handle: the key is the identity.
    type Committable = ();
    const MECHANISM: Mechanism = Mechanism::IdempotentUpsert;

    /// Nothing to reconcile: every flushed statement is already applied and keyed, so a
    /// dead run leaves no orphan; the replay overwrites what it wrote.
    fn on_open(&mut self, _context: &OpenContext<'_, ()>) -> Result<()> {
        Ok(())
    }

    fn write(&mut self, change: Change<K, V>) -> Result<()> {
        let row = change.kind.keeps_row().then_some(change.value);
        self.netted.insert(change.key, row);
        Ok(())
    }

    /// Holding while changes wait for the next flush.
    fn open_transaction(&self) -> OpenTransaction {
        if self.netted.is_empty() {
            OpenTransaction::Empty
        } else {
            OpenTransaction::Holding
        }
    }

    /// Flushes the netted changes and returns no handle: they are already applied.
    fn prepare_commit(&mut self, _checkpoint: CheckpointId) -> Result<Option<()>> {
        let mut table = self.table.borrow_mut();
        for (key, row) in mem::take(&mut self.netted) {
            table.apply(key, row);
        }
        Ok(None)
    }

    fn commit(&mut self, _: &()) -> Result<CommitOutcome> {
        bail!("an upsert sink prepares no handle, so there is nothing to commit")
    }

    fn abort(&mut self, _: &()) -> Result<AbortOutcome> {
        bail!("an upsert sink prepares no handle, so there is nothing to abort")
    }
}
