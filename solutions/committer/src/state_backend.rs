//! Operator state: where the base keeps pending handles between barrier and commit.
//!
//! Operator state, not keyed state: a handle belongs to the subtask that prepared it,
//! not to any key, and a rescale must not filter it by key group (that sent a handle to
//! an arbitrary subtask, or to none). Its snapshot goes into the checkpoint, so a handle
//! persisted at a barrier is restored by every restore from that checkpoint on.

use std::collections::BTreeMap;

use anyhow::{Result, bail};

use crate::pending::PendingKey;
use crate::snapshot::{Names, entries_from_bytes, entries_to_bytes};

/// A durable map from pending-handle keys to the persisted handles' bytes, snapshotted
/// with every checkpoint.
pub trait OperatorStateBackend {
    /// Sets `key` to `value`, durably.
    ///
    /// # Errors
    /// When the write cannot be made durable.
    fn put(&mut self, key: PendingKey, value: &[u8]) -> Result<()>;

    /// The value of `key`, if any.
    ///
    /// # Errors
    /// When the backend cannot be read.
    fn get(&self, key: &PendingKey) -> Result<Option<Vec<u8>>>;

    /// Erases `key`, durably; erasing a missing key is not an error.
    ///
    /// # Errors
    /// When the erase cannot be made durable.
    fn remove(&mut self, key: &PendingKey) -> Result<()>;

    /// Every key, in ascending order (oldest checkpoint first).
    ///
    /// # Errors
    /// When the backend cannot be read.
    fn keys(&self) -> Result<Vec<PendingKey>>;

    /// Every name the job has run under that this state has seen, in order: the base
    /// records the current one at open, so a job restored under a new name still
    /// sweeps what it left under the old ones.
    ///
    /// # Errors
    /// When the backend cannot be read.
    fn names(&self) -> Result<Vec<String>>;

    /// Records `name` among [`names`](Self::names), durably; recording it again is not
    /// an error.
    ///
    /// # Errors
    /// When the write cannot be made durable.
    fn record_name(&mut self, name: &str) -> Result<()>;

    /// Every entry and name as bytes, for the checkpoint.
    ///
    /// # Errors
    /// When the entries cannot be serialised.
    fn snapshot(&self) -> Result<Vec<u8>>;
}

/// The operator state a new subtask restores when it inherits several old subtasks'
/// snapshots (a rescale): the union of their entries and of their names.
///
/// # Errors
/// When a snapshot is unreadable, or two hold different values under one key (keys name
/// their author, so that would mean two authors claimed the same handle).
pub fn merge_snapshots<'a>(snapshots: impl IntoIterator<Item = &'a [u8]>) -> Result<Vec<u8>> {
    let mut merged = BTreeMap::new();
    let mut all_names = Names::new();
    for bytes in snapshots {
        let (entries, names) = entries_from_bytes(bytes)?;
        all_names.extend(names);
        for (key, value) in entries {
            if let Some(earlier) = merged.insert(key, value.clone())
                && earlier != value
            {
                bail!("two restored snapshots disagree on operator state key {key}");
            }
        }
    }
    entries_to_bytes(&merged, &all_names)
}
