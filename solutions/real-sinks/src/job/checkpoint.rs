//! A completed checkpoint as the job keeps it: what its files hold once unsealed.

use committer::CheckpointId;
use serde::{Deserialize, Serialize};
use solution01::Offset;

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
