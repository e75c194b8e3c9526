//! Operator state: where the base keeps pending handles between barrier and commit.
//!
//! Operator state, not keyed state: a handle belongs to the subtask that prepared it,
//! not to any key, and a rescale must not filter it by key group (that sent a handle to
//! an arbitrary subtask, or to none). Its snapshot goes into the checkpoint, so a handle
//! persisted at a barrier is restored by every restore from that checkpoint on.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};

/// A durable string-keyed map of bytes, snapshotted with every checkpoint.
pub trait OperatorStateBackend {
    /// Sets `key` to `value`, durably.
    ///
    /// # Errors
    /// When the write cannot be made durable.
    fn put(&mut self, key: &str, value: Vec<u8>) -> Result<()>;

    /// The value of `key`, if any.
    ///
    /// # Errors
    /// When the backend cannot be read.
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>>;

    /// Erases `key`, durably; erasing a missing key is not an error.
    ///
    /// # Errors
    /// When the erase cannot be made durable.
    fn remove(&mut self, key: &str) -> Result<()>;

    /// Every key, in ascending order.
    ///
    /// # Errors
    /// When the backend cannot be read.
    fn keys(&self) -> Result<Vec<String>>;

    /// Every entry as bytes, for the checkpoint.
    ///
    /// # Errors
    /// When the entries cannot be serialised.
    fn snapshot(&self) -> Result<Vec<u8>>;
}

/// The snapshot format shared by every backend: the sorted entries as JSON, each value
/// as a hex string (JSON has no bytes, and an array of numbers is four times larger and
/// slower to read back).
pub(crate) fn entries_to_bytes(entries: &BTreeMap<String, Vec<u8>>) -> Result<Vec<u8>> {
    let hex: BTreeMap<&str, String> = entries
        .iter()
        .map(|(k, v)| (k.as_str(), to_hex(v)))
        .collect();
    serde_json::to_vec(&hex).context("serialising operator state")
}

/// The entries that [`entries_to_bytes`] wrote.
pub(crate) fn entries_from_bytes(bytes: &[u8]) -> Result<BTreeMap<String, Vec<u8>>> {
    let hex: BTreeMap<String, String> =
        serde_json::from_slice(bytes).context("restoring operator state: not a snapshot")?;
    hex.into_iter()
        .map(|(key, value)| {
            let bytes = from_hex(value.as_bytes())
                .with_context(|| format!("operator state value of {key} is not hex"))?;
            Ok((key, bytes))
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
            if let Some(earlier) = merged.insert(key.clone(), value.clone())
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
    entries: BTreeMap<String, Vec<u8>>,
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
    fn put(&mut self, key: &str, value: Vec<u8>) -> Result<()> {
        self.entries.insert(key.to_owned(), value);
        Ok(())
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        Ok(self.entries.get(key).cloned())
    }

    fn remove(&mut self, key: &str) -> Result<()> {
        self.entries.remove(key);
        Ok(())
    }

    fn keys(&self) -> Result<Vec<String>> {
        Ok(self.entries.keys().cloned().collect())
    }

    fn snapshot(&self) -> Result<Vec<u8>> {
        entries_to_bytes(&self.entries)
    }
}
