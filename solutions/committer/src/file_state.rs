//! A durable operator-state backend: one file, replaced atomically on every change.
//!
//! Every change rewrites the whole file through write-temp, fsync, rename, fsync of
//! the directory. A crash at any instant leaves either the old file or the new one,
//! never a torn mix: rename is atomic, and the fsyncs order the data before the name
//! (the file) and the name before our return (the directory). The state is small (a
//! handful of handles), so rewriting it whole is cheaper than being clever.
//!
//! The cost grows with the handles pending: a put and a remove took 0.5 ms at 10 and
//! 25 ms at 10 000. That is why the real sinks' pipeline does not use this backend: it
//! keeps operator state in memory ([`crate::InMemoryOperatorState`]) and writes it only
//! into each checkpoint, as Flink does. This one is for a runtime that has no checkpoint
//! to carry the state.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::pending::PendingKey;
use crate::snapshot::{Entries, Names, entries_from_bytes, entries_to_bytes};
use crate::state_backend::OperatorStateBackend;

/// Operator state kept in a file that survives the process.
#[derive(Debug)]
pub struct FileOperatorState {
    path: PathBuf,
    entries: Entries,
    names: Names,
}

impl FileOperatorState {
    /// Opens the state at `path`, empty if there is no file yet. A temporary file that
    /// a crash left half-written is ignored: it was never renamed into place.
    ///
    /// # Errors
    /// When the file exists but cannot be read or is not an operator-state snapshot.
    pub fn open(path: impl Into<PathBuf>) -> Result<Self> {
        let path = path.into();
        let (entries, names) = match fs::read(&path) {
            Ok(bytes) => entries_from_bytes(&bytes)
                .with_context(|| format!("reading operator state {}", path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Entries::new(), Names::new()),
            Err(e) => {
                return Err(e).with_context(|| format!("opening {}", path.display()));
            }
        };
        Ok(Self {
            path,
            entries,
            names,
        })
    }

    /// Replaces whatever is at `path` by the checkpoint's `snapshot` bytes, durably.
    ///
    /// A restore must start from the checkpoint, not from the live file: the file may
    /// hold handles of checkpoints that never completed.
    ///
    /// # Errors
    /// When `snapshot` is not an operator-state snapshot or the file cannot be written.
    pub fn restore(path: impl Into<PathBuf>, snapshot: &[u8]) -> Result<Self> {
        let (entries, names) = entries_from_bytes(snapshot)?;
        let state = Self {
            path: path.into(),
            entries,
            names,
        };
        state.persist()?;
        Ok(state)
    }

    /// Where the state lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn persist(&self) -> Result<()> {
        let temp = self.path.with_extension("tmp");
        let bytes = entries_to_bytes(&self.entries, &self.names)?;
        let mut file =
            File::create(&temp).with_context(|| format!("creating {}", temp.display()))?;
        file.write_all(&bytes)
            .and_then(|()| file.sync_all())
            .with_context(|| format!("writing {}", temp.display()))?;
        fs::rename(&temp, &self.path)
            .with_context(|| format!("renaming {} into place", temp.display()))?;
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            File::open(dir)
                .and_then(|d| d.sync_all())
                .with_context(|| format!("syncing directory {}", dir.display()))?;
        }
        Ok(())
    }
}

impl OperatorStateBackend for FileOperatorState {
    fn put(&mut self, key: PendingKey, value: &[u8]) -> Result<()> {
        self.entries.insert(key, value.to_vec());
        self.persist()
    }

    fn get(&self, key: &PendingKey) -> Result<Option<Vec<u8>>> {
        Ok(self.entries.get(key).cloned())
    }

    fn remove(&mut self, key: &PendingKey) -> Result<()> {
        if self.entries.remove(key).is_some() {
            self.persist()?;
        }
        Ok(())
    }

    fn keys(&self) -> Result<Vec<PendingKey>> {
        Ok(self.entries.keys().copied().collect())
    }

    fn names(&self) -> Result<Vec<String>> {
        Ok(self.names.iter().cloned().collect())
    }

    fn record_name(&mut self, name: &str) -> Result<()> {
        if self.names.insert(name.to_owned()) {
            self.persist()?;
        }
        Ok(())
    }

    fn snapshot(&self) -> Result<Vec<u8>> {
        entries_to_bytes(&self.entries, &self.names)
    }
}
