//! One parallel instance of a keyed operator: its key groups and their keys' state.

use std::ops::RangeInclusive;

use anyhow::Result;
use serde::{Serialize, de::DeserializeOwned};
use stage02::KeyedState;

/// One subtask of a keyed operator: its index, its parallelism and its keys' state (stage
/// 02's [`KeyedState`]).
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
    /// When the configuration is invalid (03-R21) or `index` is not below `parallelism`
    /// (03-R22).
    pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> Result<Self> {
        // TODO(stage 03): validate the arguments, then build an empty subtask.
        let _ = (index, parallelism, max_parallelism);
        todo!()
    }

    /// This subtask's index in `0..parallelism`.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The key groups this subtask owns: the range of its index (03-R3).
    pub fn key_groups(&self) -> RangeInclusive<u32> {
        // TODO(stage 03): the range of this subtask's index.
        todo!()
    }

    /// Replaces the value of `key` by `f(current)`; `None` removes it (03-R4).
    ///
    /// # Errors
    /// When `key`'s key group is not one of this subtask's: the record was misrouted, and
    /// the state stays unchanged (03-R5).
    pub fn update(&mut self, key: &[u8], f: impl FnOnce(Option<V>) -> Option<V>) -> Result<()> {
        // TODO(stage 03): refuse a key of another subtask's key group, else update its state.
        let _ = (key, f);
        todo!()
    }

    /// This subtask's keyed state.
    pub fn state(&self) -> &KeyedState<Vec<u8>, V> {
        &self.state
    }

    /// The keyed state as bytes, without the index or the parallelism (03-R6): after a
    /// rescale the same bytes feed a subtask of another parallelism.
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        // TODO(stage 03): the keyed state's bytes.
        todo!()
    }

    /// Subtask `index` of `parallelism`, restored from the snapshots of old subtasks (of
    /// any earlier parallelism): it keeps exactly the keys whose key group it owns, with
    /// their values (03-R7).
    ///
    /// # Errors
    /// When the configuration is invalid (03-R21), `index` is not below `parallelism`
    /// (03-R22), a snapshot is not keyed state of `V` (03-R9), or one key appears in two
    /// snapshots (03-R8).
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
