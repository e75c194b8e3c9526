//! Grading slots: `target/byo-grade/slot-K/`, each a pristine tree, its over-reference
//! tree ([`super::over_reference`]), a workspace for each, and one target folder both build into.
//!
//! A run takes one free slot per job (`--jobs`) and holds it to its end, so no two
//! builds ever race on a target folder, while two runs in one repository (or the jobs of
//! one) each grade in their own. A slot's target folder outlives the run: the next run
//! that takes it finds the graders built, and rebuilds only the learner crates that
//! differ. A fresh slot builds the graders once (minutes).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::lock::FileLock;

/// The most slots a repository's grading folder holds: runs beyond that many jobs at once
/// are refused rather than fill the disk with target folders.
pub const MAX_SLOTS: usize = 32;

/// A grading slot, held: the folders one job grades in.
#[derive(Debug)]
pub struct Slot {
    _lock: FileLock,
    /// `target/byo-grade/slot-K`.
    pub dir: PathBuf,
}

impl Slot {
    /// The instructor's committed tree (`git archive HEAD`).
    pub fn pristine(&self) -> PathBuf {
        self.dir.join("pristine")
    }

    /// The pristine tree with every stage built over the references of the earlier ones.
    pub fn pristine_over_reference(&self) -> PathBuf {
        self.dir.join("pristine-over-reference")
    }

    /// Where a submission is laid over the pristine tree (its own chain of stages).
    pub fn workspace(&self) -> PathBuf {
        self.dir.join("workspace")
    }

    /// Where a submission is laid over the over-reference tree (where it is scored).
    pub fn workspace_over_reference(&self) -> PathBuf {
        self.dir.join("workspace-over-reference")
    }

    /// The target folder both workspaces build into: their learner crates differ in
    /// their dependencies, so cargo keeps them apart, and the graders are shared.
    pub fn target(&self) -> PathBuf {
        self.dir.join("target")
    }
}

/// Takes `jobs` free slots of the grading folder `work`, the lowest-numbered first (so
/// a lone run always finds slot 0 warm).
///
/// # Errors
/// When fewer than `jobs` of the [`MAX_SLOTS`] slots are free, or a lock cannot be made.
pub fn take(work: &Path, jobs: usize) -> Result<Vec<Slot>> {
    let mut slots = Vec::with_capacity(jobs);
    for k in 0..MAX_SLOTS {
        if slots.len() == jobs {
            break;
        }
        let dir = work.join(format!("slot-{k}"));
        if let Some(lock) = FileLock::try_take(&dir.join("lock"))? {
            slots.push(Slot { _lock: lock, dir });
        }
    }
    if slots.len() < jobs {
        bail!(
            "grade: only {} of the {MAX_SLOTS} grading slots in {} are free (other byo grade \
             runs hold the rest); grade with fewer --jobs, or wait for them to finish",
            slots.len(),
            work.display()
        );
    }
    for slot in &slots {
        for dir in [
            slot.workspace(),
            slot.workspace_over_reference(),
            slot.target(),
        ] {
            // The sandbox mounts only folders that exist: cargo must not have to make these.
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        }
    }
    Ok(slots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_take_free_slots_and_never_share_one() {
        let work = tempfile::tempdir().unwrap();
        let first = take(work.path(), 2).unwrap();
        let second = take(work.path(), 1).unwrap();
        let names = |slots: &[Slot]| {
            slots
                .iter()
                .map(|s| s.dir.file_name().unwrap().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&first), ["slot-0", "slot-1"]);
        assert_eq!(names(&second), ["slot-2"]);
        assert!(second[0].target().is_dir());
        drop(first);
        // Another test of this process spawning a child at that moment holds a copy of
        // the lock's descriptor until the child's exec closes it: wait that out.
        let again = (0..100)
            .map(|_| take(work.path(), 1).unwrap())
            .find(|slots| {
                let free = names(slots) == ["slot-0"];
                if !free {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                free
            });
        assert!(again.is_some(), "slot-0 is taken again once freed");
        let error = take(work.path(), MAX_SLOTS).unwrap_err().to_string();
        assert!(error.contains("fewer --jobs"), "{error}");
    }
}
