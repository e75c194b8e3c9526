//! Where the file sink's files live, and what each name says.
//!
//! ```text
//! <root>/staging/<job>/sub<N>of<P>-r<run>.inprogress   the open transaction (being written)
//! <root>/staging/<job>/sub<N>of<P>-r<run>-c<ckpt>      prepared: complete, fsynced, invisible
//! <root>/output/<job>/sub<N>of<P>-r<run>-c<ckpt>       committed: visible to readers
//! ```
//!
//! The three states are the three protocol phases, and a file moves between them only
//! by `rename`, which is atomic: a reader of the output folder sees a file whole or not
//! at all. Staging and output are siblings under one root so the renames stay on one
//! filesystem (a rename across filesystems is a copy, and no longer atomic).

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use committer::connectors::StagedName;
use committer::{RunToken, SubtaskId};

const IN_PROGRESS: &str = ".inprogress";

/// The folders of one job under one root.
#[derive(Debug, Clone)]
pub struct Layout {
    root: PathBuf,
    job: String,
    staging: PathBuf,
    output: PathBuf,
}

impl Layout {
    /// The folders of `job` under `root`.
    ///
    /// # Errors
    /// When `job` is not a plain name (it becomes a folder name and a file-name prefix).
    pub fn new(root: &Path, job: &str) -> Result<Self> {
        check_job_name(job)?;
        Ok(Self {
            root: root.to_owned(),
            job: job.to_owned(),
            staging: root.join("staging").join(job),
            output: root.join("output").join(job),
        })
    }

    /// The job.
    pub fn job(&self) -> &str {
        &self.job
    }

    /// The folders of `job` under the same root: where a job renamed since left its
    /// files under an earlier name.
    ///
    /// # Errors
    /// As [`Layout::new`].
    pub fn for_job(&self, job: &str) -> Result<Self> {
        Self::new(&self.root, job)
    }

    /// Where open and prepared files wait.
    pub fn staging(&self) -> &Path {
        &self.staging
    }

    /// Where committed files are visible.
    pub fn output(&self) -> &Path {
        &self.output
    }

    /// The open file of `author` in run `run`.
    pub fn in_progress(&self, author: SubtaskId, run: RunToken) -> PathBuf {
        self.staging.join(format!("{author}-{run}{IN_PROGRESS}"))
    }

    /// The prepared file of a handle, in the staging folder of the job that named it.
    pub fn prepared(&self, name: &StagedName) -> PathBuf {
        let staging = self.root.join("staging").join(&name.job);
        staging.join(file_name(name))
    }

    /// The published file of a handle, in the output folder of the job that named it.
    pub fn published(&self, name: &StagedName) -> PathBuf {
        let output = self.root.join("output").join(&name.job);
        output.join(file_name(name))
    }

    /// What a file name in the staging folder is, if it is one of ours.
    pub fn classify(&self, file: &str) -> Option<StagingFile> {
        if let Some(stem) = file.strip_suffix(IN_PROGRESS) {
            // An open file has no checkpoint yet; borrow the handle parser with a dummy one.
            let name = StagedName::parse(&self.job, &format!("{}/{stem}-c0", self.job))?;
            return Some(StagingFile::InProgress {
                author: name.author,
                run: name.run,
            });
        }
        StagedName::parse(&self.job, &format!("{}/{file}", self.job)).map(StagingFile::Prepared)
    }
}

/// A file found in the staging folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StagingFile {
    /// An open file some run was writing when it died (or this run, by another subtask
    /// that opened first).
    InProgress {
        /// The subtask writing it.
        author: SubtaskId,
        /// The run writing it.
        run: RunToken,
    },
    /// A prepared file, awaiting its commit or abandoned by a crash.
    Prepared(StagedName),
}

/// A handle's file name: its [`StagedName`] without the job folder.
pub fn file_name(name: &StagedName) -> String {
    format!("{}-{}-c{}", name.author, name.run, name.checkpoint)
}

/// Checks that `job` can name folders, files and PostgreSQL global ids.
///
/// # Errors
/// When `job` is empty, too long, or has a character other than `a-z`, `0-9`, `_`, `-`.
pub fn check_job_name(job: &str) -> Result<()> {
    let plain = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-';
    if job.is_empty() || job.len() > 64 || !job.chars().all(plain) {
        bail!("job must be 1 to 64 characters of a-z, 0-9, '_' or '-', got {job:?}");
    }
    Ok(())
}
