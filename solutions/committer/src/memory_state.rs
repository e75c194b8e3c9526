//! The in-memory operator-state backend, as the pipeline keeps its operators' state.

use std::ops::Range;

use anyhow::Result;

use crate::pending::PendingKey;
use crate::snapshot::{self, Names, entries_from_bytes};
use crate::state_backend::OperatorStateBackend;

/// Operator state in memory: lost with the process, like a heap backend, so a restart
/// must restore it from the checkpoint.
///
/// It is written at every barrier and erased at every commit, so it is laid out to do
/// both without allocating: the handles' bytes are appended to one log, and a sorted
/// list (it holds a handle or two) says where each lies. The log is cleared whenever no
/// handle is left, which at a commit lag of 1 is after every commit, and compacted when
/// most of it is dead.
#[derive(Debug, Clone, Default)]
pub struct InMemoryOperatorState {
    entries: Vec<(PendingKey, Range<usize>)>,
    log: Vec<u8>,
    names: Names,
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
        let (entries, names) = entries_from_bytes(bytes)?;
        let mut state = Self {
            names,
            ..Self::new()
        };
        for (key, handle) in entries {
            state.put(key, &handle)?;
        }
        Ok(state)
    }

    /// Where `key` is, or where it would go.
    fn find(&self, key: &PendingKey) -> Result<usize, usize> {
        self.entries.binary_search_by_key(key, |(k, _)| *k)
    }

    /// Every handle with its key, in key order.
    fn handles(&self) -> impl ExactSizeIterator<Item = (&PendingKey, &[u8])> + Clone {
        self.entries
            .iter()
            .map(|(key, at)| (key, &self.log[at.clone()]))
    }

    /// Drops the dead bytes once they outweigh the live ones, so the log stays within
    /// twice what it holds.
    fn reclaim(&mut self) {
        let live: usize = self.entries.iter().map(|(_, at)| at.len()).sum();
        if live == 0 {
            self.log.clear();
        } else if live * 2 < self.log.len() {
            let mut log = Vec::with_capacity(live);
            for (_, at) in &mut self.entries {
                let start = log.len();
                log.extend_from_slice(&self.log[at.clone()]);
                *at = start..log.len();
            }
            self.log = log;
        }
    }
}

/// Two states are equal when they hold the same handles, wherever they lie in the log,
/// and the same names.
impl PartialEq for InMemoryOperatorState {
    fn eq(&self, other: &Self) -> bool {
        self.handles().eq(other.handles()) && self.names == other.names
    }
}

impl Eq for InMemoryOperatorState {}

impl OperatorStateBackend for InMemoryOperatorState {
    fn put(&mut self, key: PendingKey, value: &[u8]) -> Result<()> {
        let at = self.log.len()..self.log.len() + value.len();
        self.log.extend_from_slice(value);
        match self.find(&key) {
            Ok(i) => self.entries[i].1 = at,
            Err(i) => self.entries.insert(i, (key, at)),
        }
        self.reclaim();
        Ok(())
    }

    fn get(&self, key: &PendingKey) -> Result<Option<Vec<u8>>> {
        Ok(self
            .find(key)
            .ok()
            .map(|i| self.log[self.entries[i].1.clone()].to_vec()))
    }

    fn remove(&mut self, key: &PendingKey) -> Result<()> {
        if let Ok(i) = self.find(key) {
            self.entries.remove(i);
            self.reclaim();
        }
        Ok(())
    }

    fn keys(&self) -> Result<Vec<PendingKey>> {
        Ok(self.entries.iter().map(|(key, _)| *key).collect())
    }

    fn names(&self) -> Result<Vec<String>> {
        Ok(self.names.iter().cloned().collect())
    }

    fn record_name(&mut self, name: &str) -> Result<()> {
        self.names.insert(name.to_owned());
        Ok(())
    }

    fn snapshot(&self) -> Result<Vec<u8>> {
        snapshot::write(self.handles(), &self.names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::SubtaskId;

    fn key(checkpoint: u64) -> PendingKey {
        PendingKey {
            checkpoint,
            author: SubtaskId::new(0, 1).unwrap(),
        }
    }

    #[test]
    fn the_log_is_cleared_when_empty_and_stays_within_twice_what_it_holds() -> Result<()> {
        let mut state = InMemoryOperatorState::new();
        for checkpoint in 1..=1000 {
            state.put(key(checkpoint), &[7; 40])?;
            state.remove(&key(checkpoint))?;
            assert!(
                state.log.is_empty(),
                "a commit at lag 1 leaves nothing behind"
            );
        }
        state.put(key(1), &[1; 100])?;
        state.put(key(2), &[2; 10])?;
        state.remove(&key(1))?; // 100 dead bytes against 10 live ones
        assert_eq!(state.log, [2; 10]);
        // Each overwrite leaves the old bytes dead: kept while they are half the log,
        // dropped once they are most of it.
        for _ in 0..100 {
            state.put(key(2), &[3; 10])?;
            assert_eq!(state.log.len(), 20, "half dead");
            state.put(key(2), &[3; 10])?;
            assert_eq!(state.log.len(), 10, "two thirds dead, compacted");
        }
        assert_eq!(state.get(&key(2))?, Some(vec![3; 10]));
        Ok(())
    }

    #[test]
    fn states_holding_the_same_handles_are_equal_however_their_logs_lie() -> Result<()> {
        let mut written = InMemoryOperatorState::new();
        written.put(key(1), b"old")?;
        written.put(key(2), b"two")?;
        written.put(key(1), b"one")?;
        let restored = InMemoryOperatorState::restore(&written.snapshot()?)?;
        assert_ne!(written.log, restored.log);
        assert_eq!(written, restored);
        let mut fewer = restored.clone();
        fewer.remove(&key(2))?;
        assert_ne!(written, fewer);
        Ok(())
    }
}
