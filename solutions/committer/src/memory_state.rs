//! The in-memory operator-state backend, as the pipeline keeps its operators' state.

use anyhow::Result;

use crate::pending::PendingKey;
use crate::snapshot::{self, entries_from_bytes};
use crate::state_backend::OperatorStateBackend;

/// Operator state in memory: lost with the process, like a heap backend, so a restart
/// must restore it from the checkpoint.
///
/// A sorted list rather than a map: it holds a handle or two, one appended at every
/// barrier and the oldest removed at every commit, which a list does without allocating.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InMemoryOperatorState {
    entries: Vec<(PendingKey, Vec<u8>)>,
}

impl InMemoryOperatorState {
    /// Empty state, for a first run.
    pub fn new() -> Self {
        Self::default()
    }

    /// The state a checkpoint's `snapshot` bytes describe.
    ///
    /// # Errors
    /// When `bytes` is not an operator-state snapshot.
    pub fn restore(bytes: &[u8]) -> Result<Self> {
        Ok(Self {
            entries: entries_from_bytes(bytes)?.into_iter().collect(),
        })
    }

    /// Where `key` is, or where it would go.
    fn find(&self, key: &PendingKey) -> Result<usize, usize> {
        self.entries.binary_search_by_key(key, |(k, _)| *k)
    }
}

impl OperatorStateBackend for InMemoryOperatorState {
    fn put(&mut self, key: PendingKey, value: Vec<u8>) -> Result<()> {
        match self.find(&key) {
            Ok(at) => self.entries[at].1 = value,
            Err(at) => self.entries.insert(at, (key, value)),
        }
        Ok(())
    }

    fn get(&self, key: &PendingKey) -> Result<Option<Vec<u8>>> {
        Ok(self.find(key).ok().map(|at| self.entries[at].1.clone()))
    }

    fn remove(&mut self, key: &PendingKey) -> Result<()> {
        if let Ok(at) = self.find(key) {
            self.entries.remove(at);
        }
        Ok(())
    }

    fn keys(&self) -> Result<Vec<PendingKey>> {
        Ok(self.entries.iter().map(|(key, _)| *key).collect())
    }

    fn snapshot(&self) -> Result<Vec<u8>> {
        snapshot::write(
            self.entries
                .iter()
                .map(|(key, handle)| (key, handle.as_slice())),
        )
    }
}
