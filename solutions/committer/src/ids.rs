//! The names the choreography is written in: checkpoints, subtasks and runs.

use std::fmt;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

/// A checkpoint's id, as stages 06 to 08 number them: from 1, one more per barrier.
pub use solution08::CheckpointId;

/// One parallel instance of the sink: its index and the parallelism it ran at.
///
/// The parallelism travels with the index on purpose: a pending handle or an orphaned
/// artifact outlives the topology that made it, and after a rescale "subtask 1" means a
/// different key-group range, so only the pair says whose it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SubtaskId {
    /// The subtask's index, `0..parallelism`.
    pub index: u32,
    /// How many subtasks ran side by side.
    pub parallelism: u32,
}

impl SubtaskId {
    /// The subtask `index` of `parallelism`.
    ///
    /// # Errors
    /// When `parallelism` is 0 or `index` is not below it.
    pub fn new(index: u32, parallelism: u32) -> Result<Self> {
        if parallelism == 0 {
            bail!("parallelism must be at least 1, got 0");
        }
        if index >= parallelism {
            bail!("subtask index must be below the parallelism {parallelism}, got {index}");
        }
        Ok(Self { index, parallelism })
    }
}

impl fmt::Display for SubtaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sub{}of{}", self.index, self.parallelism)
    }
}

/// A token naming one open of one subtask, fresh at every open.
///
/// It is minted from the run's generation, which the coordinator bumps at every start
/// of the job and which is never restored from a checkpoint: two runs restored from the
/// same checkpoint must still get different tokens, or the second would stage (and
/// publish) under the first one's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RunToken(pub u64);

impl fmt::Display for RunToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}", self.0)
    }
}
