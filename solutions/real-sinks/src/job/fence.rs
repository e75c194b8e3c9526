//! The job folder's fence: an exclusive lock held for the whole run, and the generation
//! file as the fencing epoch.
//!
//! The lock refuses a second run of the job in the same folder while the first lives
//! (the kernel drops it when the process dies, kill -9 included, so a crash never
//! leaves the job locked). The epoch is bumped under the lock and re-read before every
//! commit, barrier and cleanup: a lock can be lost behind a run's back (its file deleted
//! and recreated, a network filesystem that ignores it), and the epoch then tells the
//! older run it was overtaken before it commits or discards anything.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use committer::{Fence, Fenced};

use super::checkpoints::{bump_generation, generation_file};
use crate::pg::PgFence;

/// A run's hold on its job folder.
#[derive(Debug)]
pub struct FolderFence {
    // Held, never read: the lock lives as long as the open file.
    _lock: File,
    epoch_file: PathBuf,
    epoch: u64,
}

impl FolderFence {
    /// Locks the job in `dir` and takes the next epoch (the run's generation).
    ///
    /// # Errors
    /// When another live run holds the folder (the message says which file and what to
    /// do), or the lock or epoch file cannot be written.
    pub fn take(dir: &Path) -> Result<Self> {
        let path = dir.join("run.lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("opening the job's lock {}", path.display()))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => bail!(
                "the job in {} is already running (another process holds {}): a second run \
                 of one job would restore the same checkpoint and write its records twice, \
                 so it is refused; wait for the other run to end or stop it",
                dir.display(),
                path.display()
            ),
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("locking {}", path.display()));
            }
        }
        let epoch = bump_generation(dir)?;
        Ok(Self {
            _lock: lock,
            epoch_file: generation_file(dir),
            epoch,
        })
    }

    /// The epoch this run holds: its generation.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }
}

impl Fence for FolderFence {
    fn check(&self) -> Result<()> {
        let text = fs::read_to_string(&self.epoch_file)
            .with_context(|| format!("re-reading the epoch {}", self.epoch_file.display()))?;
        let current: u64 = text
            .trim()
            .parse()
            .with_context(|| format!("reading {}", self.epoch_file.display()))?;
        if current != self.epoch {
            return Err(Fenced {
                held: self.epoch,
                current,
            }
            .into());
        }
        Ok(())
    }
}

/// Everything a run holds: its folder's fence, and the external system's when the sink
/// has one (a PostgreSQL job name is shared by every folder that names it).
pub struct RunFence {
    folder: FolderFence,
    external: Option<PgFence>,
}

impl RunFence {
    /// The fences of one run; `folder` first, so the external epoch is only ever taken
    /// by the folder's one live run.
    pub fn new(folder: FolderFence, external: Option<PgFence>) -> Self {
        Self { folder, external }
    }

    /// The run's generation, which its run tokens and global transaction ids are minted
    /// from: the server's epoch of the job name when the sink has a server (unique over
    /// every folder that ever ran the name there, where a folder's own count restarts
    /// at 1 in every fresh folder and minted the same ids for different records), the
    /// folder's epoch otherwise (the file sink's output lives in the folder).
    pub fn generation(&self) -> u64 {
        self.external
            .as_ref()
            .map_or(self.folder.epoch(), |pg| pg.epoch() as u64)
    }

    /// The folder's epoch, which orders its checkpoint files.
    pub fn epoch(&self) -> u64 {
        self.folder.epoch()
    }
}

impl Fence for RunFence {
    fn check(&self) -> Result<()> {
        self.folder.check()?;
        self.external.as_ref().map_or(Ok(()), Fence::check)
    }
}
