//! The coordinator's durable records: completed checkpoints and run generations.
//!
//! Writing the checkpoint file *is* the completion: once it is on disk, a restart
//! restores it, so its handles must be committed (by a notification or by recovery).
//! The generation is bumped, durably, before a run opens anything: two runs never share
//! one, even when both restore the same checkpoint, because the run token and the XA
//! global ids are minted from it.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use committer::CheckpointId;
use serde::{Deserialize, Serialize};
use solution01::Offset;

use crate::durable::replace_file;

/// A completed checkpoint: where the source resumes and each subtask's operator state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Its id.
    pub id: CheckpointId,
    /// The source offset its barrier was injected at.
    pub offset: Offset,
    /// Operator-state snapshot of each subtask, by index.
    pub snapshots: Vec<Vec<u8>>,
}

/// The coordinator's files in a job folder.
#[derive(Debug, Clone)]
pub struct CheckpointStore {
    dir: PathBuf,
}

impl CheckpointStore {
    /// The store of the job in `dir`.
    pub fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_owned(),
        }
    }

    /// The latest completed checkpoint, if any.
    ///
    /// # Errors
    /// When the checkpoint file cannot be read.
    pub fn latest(&self) -> Result<Option<Checkpoint>> {
        let path = self.dir.join("checkpoint.json");
        match fs::read(&path) {
            Ok(bytes) => Ok(Some(
                serde_json::from_slice(&bytes)
                    .with_context(|| format!("reading {}", path.display()))?,
            )),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// Completes `checkpoint`, durably.
    ///
    /// # Errors
    /// When it cannot be written; the previous checkpoint then stays the latest.
    pub fn complete(&self, checkpoint: &Checkpoint) -> Result<()> {
        replace_file(
            &self.dir.join("checkpoint.json"),
            &serde_json::to_vec(checkpoint)?,
        )
    }

    /// The next run's generation (1 for the first run), recorded before it is used.
    ///
    /// # Errors
    /// When the generation file cannot be read or written.
    pub fn bump_generation(&self) -> Result<u64> {
        let path = self.generation_file();
        let last = match fs::read_to_string(&path) {
            Ok(text) => text
                .trim()
                .parse()
                .with_context(|| format!("reading {}", path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        let next: u64 = last + 1;
        replace_file(&path, next.to_string().as_bytes())?;
        Ok(next)
    }

    /// The file holding the latest run's generation (the job's fencing epoch).
    pub fn generation_file(&self) -> PathBuf {
        self.dir.join("generation")
    }

    /// Whether a run has finished the input.
    pub fn is_done(&self) -> bool {
        self.dir.join("done").exists()
    }

    /// Records that the input is finished and every handle committed.
    ///
    /// # Errors
    /// When the marker cannot be written.
    pub fn mark_done(&self) -> Result<()> {
        replace_file(&self.dir.join("done"), b"done\n")
    }
}
