//! The lock on the grading workspace: one `byo grade` at a time per repository.
//!
//! An operating-system lock on a file (`flock`), not the file's existence: the lock goes
//! with the process however it ends (Ctrl-C, a kill, a crash), so a stale lock never
//! blocks the next run.

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Held while grading; released when dropped or when the process ends.
#[derive(Debug)]
pub struct WorkLock {
    _file: File,
    path: PathBuf,
}

impl WorkLock {
    /// Takes the lock of the grading folder `work`, creating it.
    ///
    /// # Errors
    /// When another `byo grade` holds it, or the folder cannot be made.
    pub fn take(work: &Path) -> Result<Self> {
        std::fs::create_dir_all(work).with_context(|| format!("creating {}", work.display()))?;
        let path = work.join("lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(Self { _file: file, path }),
            Err(std::fs::TryLockError::WouldBlock) => bail!(
                "grade: another byo grade is grading in {} right now; wait for it to finish",
                work.display()
            ),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(e).with_context(|| format!("locking {}", path.display()))
            }
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_taker_is_refused_until_the_first_lets_go() {
        let dir = tempfile::tempdir().expect("temp dir");
        let first = WorkLock::take(dir.path()).expect("free");
        let second = WorkLock::take(dir.path()).expect_err("held");
        assert!(second.to_string().contains("another byo grade"), "{second}");
        drop(first);
        WorkLock::take(dir.path()).expect("free again");
    }
}
