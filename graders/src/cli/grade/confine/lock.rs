//! The locks `byo grade` takes, so that two runs in one repository (two instructors, or
//! one with two terminals) never race but do not refuse each other needlessly:
//!
//! - a **slot** (a workspace pair and its target folder, see [`super::slots`]) per job,
//!   held for the whole run: a run takes free slots and never waits for a busy one;
//! - a **submission**, held while it is graded: two runs over the same submission are
//!   the only ones refused, for that submission alone;
//! - the **output folder**, held only while its gradebook is rebuilt, waited for.
//!
//! Each is an operating-system lock on a file (`flock`), not the file's existence: the
//! lock goes with the process however it ends (Ctrl-C, a kill, a crash), so a stale lock
//! never blocks the next run.

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// A held lock; released when dropped or when the process ends.
#[derive(Debug)]
pub struct FileLock {
    _file: File,
    path: PathBuf,
}

impl FileLock {
    /// Takes the lock on the file at `path` (creating it and its folder) if it is free.
    ///
    /// # Errors
    /// When the file cannot be made or locked for another reason than being held.
    pub fn try_take(path: &Path) -> Result<Option<Self>> {
        let file = open(path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(Self {
                _file: file,
                path: path.to_owned(),
            })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(e).with_context(|| format!("locking {}", path.display()))
            }
        }
    }

    /// Takes the lock on the file at `path`, waiting while another process holds it: only
    /// for locks held briefly (the gradebook's rebuild).
    ///
    /// # Errors
    /// When the file cannot be made or locked.
    pub fn wait(path: &Path) -> Result<Self> {
        let file = open(path)?;
        file.lock()
            .with_context(|| format!("locking {}", path.display()))?;
        Ok(Self {
            _file: file,
            path: path.to_owned(),
        })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

fn open(path: &Path) -> Result<File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))
}

/// The lock file of the submission at `submission` (canonical, so two spellings of one
/// folder are one submission) under the grading folder `work`.
pub fn submission_lock_path(work: &Path, submission: &Path) -> PathBuf {
    let canonical = std::fs::canonicalize(submission).unwrap_or_else(|_| submission.to_owned());
    // FNV-1a: stable across toolchains, so two `byo` builds agree on the name.
    let key = canonical
        .as_os_str()
        .as_encoded_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
        });
    work.join("submissions").join(format!("{key:016x}.lock"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_taker_is_refused_until_the_first_lets_go() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("nested/lock");
        let first = FileLock::try_take(&path).unwrap().expect("free");
        assert!(FileLock::try_take(&path).unwrap().is_none(), "held");
        drop(first);
        FileLock::try_take(&path).unwrap().expect("free again");
        FileLock::wait(&path).expect("free, so no wait");
    }

    #[test]
    fn two_spellings_of_one_submission_share_its_lock() {
        let dir = tempfile::tempdir().expect("temp dir");
        let sub = dir.path().join("alice");
        std::fs::create_dir(&sub).unwrap();
        let other = dir.path().join("bob");
        std::fs::create_dir(&other).unwrap();
        let work = dir.path().join("work");
        assert_eq!(
            submission_lock_path(&work, &sub),
            submission_lock_path(&work, &dir.path().join("bob/../alice"))
        );
        assert_ne!(
            submission_lock_path(&work, &sub),
            submission_lock_path(&work, &other)
        );
    }
}
