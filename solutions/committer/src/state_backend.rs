//! Operator state: where the base keeps pending handles between barrier and commit.
//!
//! Operator state, not keyed state: a handle belongs to the subtask that prepared it,
//! not to any key, and a rescale must not filter it by key group (that sent a handle to
//! an arbitrary subtask, or to none). Its snapshot goes into the checkpoint, so a handle
//! persisted at a barrier is restored by every restore from that checkpoint on.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::pending::PendingKey;

/// A durable map from pending-handle keys to the persisted handles' bytes, snapshotted
/// with every checkpoint.
pub trait OperatorStateBackend {
    /// Sets `key` to `value`, durably.
    ///
    /// # Errors
    /// When the write cannot be made durable.
    fn put(&mut self, key: PendingKey, value: Vec<u8>) -> Result<()>;

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

    /// Every entry as bytes, for the checkpoint.
    ///
    /// # Errors
    /// When the entries cannot be serialised.
    fn snapshot(&self) -> Result<Vec<u8>>;
}

/// The entries of a backend: persisted handles by key, oldest checkpoint first.
pub(crate) type Entries = BTreeMap<PendingKey, Vec<u8>>;

/// One entry of a snapshot, as JSON: the typed key, and the handle's bytes as a hex
/// string (JSON has no bytes, and an array of numbers is four times larger and slower
/// to read back).
#[derive(Serialize, Deserialize)]
struct SnapshotEntry {
    key: PendingKey,
    handle: String,
}

/// The snapshot format shared by every backend: the sorted entries as a JSON array.
pub(crate) fn entries_to_bytes(entries: &Entries) -> Result<Vec<u8>> {
    let list: Vec<SnapshotEntry> = entries
        .iter()
        .map(|(key, value)| SnapshotEntry {
            key: *key,
            handle: to_hex(value),
        })
        .collect();
    serde_json::to_vec(&list).context("serialising operator state")
}

/// The entries that [`entries_to_bytes`] wrote.
pub(crate) fn entries_from_bytes(bytes: &[u8]) -> Result<Entries> {
    let list: Vec<SnapshotEntry> =
        serde_json::from_slice(bytes).context("restoring operator state: not a snapshot")?;
    list.into_iter()
        .map(|entry| {
            let bytes = from_hex(entry.handle.as_bytes())
                .with_context(|| format!("operator state value of {} is not hex", entry.key))?;
            Ok((entry.key, bytes))
        })
        .collect()
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn to_hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .flat_map(|b| [HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]])
        .map(char::from)
        .collect()
}

fn from_hex(hex: &[u8]) -> Option<Vec<u8>> {
    let digit = |c: u8| HEX.iter().position(|&h| h == c).map(|d| d as u8);
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    hex.chunks(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

/// The operator state a new subtask restores when it inherits several old subtasks'
/// snapshots (a rescale): the union of their entries.
///
/// # Errors
/// When a snapshot is unreadable, or two hold different values under one key (keys name
/// their author, so that would mean two authors claimed the same handle).
pub fn merge_snapshots<'a>(snapshots: impl IntoIterator<Item = &'a [u8]>) -> Result<Vec<u8>> {
    let mut merged = BTreeMap::new();
    for bytes in snapshots {
        for (key, value) in entries_from_bytes(bytes)? {
            if let Some(earlier) = merged.insert(key, value.clone())
                && earlier != value
            {
                bail!("two restored snapshots disagree on operator state key {key}");
            }
        }
    }
    entries_to_bytes(&merged)
}

/// Operator state in memory: lost with the process, like a heap backend, so a restart
/// must restore it from the checkpoint.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InMemoryOperatorState {
    entries: Entries,
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
            entries: entries_from_bytes(bytes)?,
        })
    }
}

impl OperatorStateBackend for InMemoryOperatorState {
    fn put(&mut self, key: PendingKey, value: Vec<u8>) -> Result<()> {
        self.entries.insert(key, value);
        Ok(())
    }

    fn get(&self, key: &PendingKey) -> Result<Option<Vec<u8>>> {
        Ok(self.entries.get(key).cloned())
    }

    fn remove(&mut self, key: &PendingKey) -> Result<()> {
        self.entries.remove(key);
        Ok(())
    }

    fn keys(&self) -> Result<Vec<PendingKey>> {
        Ok(self.entries.keys().copied().collect())
    }

    fn snapshot(&self) -> Result<Vec<u8>> {
        entries_to_bytes(&self.entries)
    }
}
