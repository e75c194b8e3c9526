//! One parallel instance of a keyed operator: its key groups and their keys' state.

use std::ops::RangeInclusive;

use anyhow::Result;
use serde::{Serialize, de::DeserializeOwned};
use stage02::KeyedState;

/// The state a subtask holds: for every key of the key groups it owns, that key's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedSubtask<V> {
    index: u32,
    parallelism: u32,
    max_parallelism: u32,
    state: KeyedState<Vec<u8>, V>,
}

impl<V: Clone + Serialize + DeserializeOwned> KeyedSubtask<V> {
    /// Subtask `index` of `parallelism`, with no state yet.
    ///
    /// # Errors
    /// When the configuration is invalid or `index` is not below `parallelism`.
    pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> Result<Self> {
        // TODO(stage 03): validate the arguments, then build an empty subtask.
        let _ = (index, parallelism, max_parallelism);
        todo!()
    }

    /// This subtask's index in `0..parallelism`.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The key groups this subtask owns.
    pub fn key_groups(&self) -> RangeInclusive<u32> {
        // TODO(stage 03): the range of this subtask's index.
        todo!()
    }

    /// Replaces the value of `key` by `f(current)`; `None` removes it.
    ///
    /// # Errors
    /// When `key`'s key group is not one of this subtask's: the record was misrouted.
    pub fn update(&mut self, key: &[u8], f: impl FnOnce(Option<V>) -> Option<V>) -> Result<()> {
        // TODO(stage 03): refuse a key of another subtask's key group, else update its state.
        let _ = (key, f);
        todo!()
    }

    /// The state of every key this subtask holds.
    pub fn state(&self) -> &KeyedState<Vec<u8>, V> {
        &self.state
    }

    /// The keyed state as bytes (not the index nor the parallelism: after a rescale the
    /// same bytes feed a subtask of another parallelism).
    ///
    /// # Errors
    /// When a value cannot be serialised.
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        // TODO(stage 03): the keyed state's bytes.
        todo!()
    }

    /// Subtask `index` of `parallelism`, restored from the snapshots of old subtasks (of
    /// any earlier parallelism): it keeps exactly the keys whose key group it owns.
    ///
    /// # Errors
    /// When the configuration is invalid, a snapshot is not keyed state of `V`, or one key
    /// appears in two snapshots.
    pub fn restore(
        index: u32,
        parallelism: u32,
        max_parallelism: u32,
        snapshots: &[Vec<u8>],
    ) -> Result<Self> {
        // TODO(stage 03): read every snapshot, keep only the keys of your own key groups.
        let _ = (index, parallelism, max_parallelism, snapshots);
        todo!()
    }
}
