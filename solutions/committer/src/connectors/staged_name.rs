//! The name of a staged artifact: `<job>/sub<N>of<P>-r<run>-c<checkpoint>`.
//!
//! The run token is there because checkpoint ids repeat: a rerun restored from the same
//! checkpoint, or a new run of the same job, takes the same ids again, and a name built
//! from the checkpoint alone would publish over an earlier run's artifact. The author
//! with its parallelism is there so that an orphan can be attributed after a rescale.

use std::fmt;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::{CheckpointId, RunToken, SubtaskId};

/// A staged artifact's name, also its committable (shape A's handle).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct StagedName {
    /// The job that staged it.
    pub job: String,
    /// The subtask that staged it.
    pub author: SubtaskId,
    /// The open (run) it was staged in.
    pub run: RunToken,
    /// The checkpoint whose barrier staged it.
    pub checkpoint: CheckpointId,
}

impl StagedName {
    /// Reads a name `Display` wrote; `None` for another job's or a foreign object.
    pub fn parse(job: &str, name: &str) -> Option<Self> {
        Self::parse_strict(job, name).ok()
    }

    fn parse_strict(job: &str, name: &str) -> Result<Self> {
        let rest = name
            .strip_prefix(job)
            .and_then(|r| r.strip_prefix("/sub"))
            .context("another job's object")?;
        let (index, rest) = rest.split_once("of").context("no parallelism")?;
        let (parallelism, rest) = rest.split_once("-r").context("no run token")?;
        let (run, checkpoint) = rest.split_once("-c").context("no checkpoint")?;
        Ok(Self {
            job: job.to_owned(),
            author: SubtaskId::new(index.parse()?, parallelism.parse()?)?,
            run: RunToken(run.parse()?),
            checkpoint: checkpoint.parse()?,
        })
    }
}

impl fmt::Display for StagedName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}-{}-c{}",
            self.job, self.author, self.run, self.checkpoint
        )
    }
}
