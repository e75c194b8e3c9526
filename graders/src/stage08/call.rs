//! One call the job made on a sink: what the spy logs, the model applies and the
//! judge walks.

use serde::{Deserialize, Serialize};

/// One call the job made on a sink, as the spy saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpyCall {
    /// `write(record)`
    Write(u32),
    /// `pre_commit(id)`
    PreCommit(u64),
    /// `commit(id)`
    Commit(u64),
    /// `abort(id)`
    Abort(u64),
    /// `abort_open()`
    AbortOpen,
}
