//! Test hooks: named points of a run where a test stops it (a kill at an exact place)
//! or acts while it stands still (a pause), so that fault schedules such as "frozen
//! between its fence check and its checkpoint write" are driven step by step instead of
//! by timing. A run without a hook ([`Hook::default`]) passes every point.

use std::fmt;
use std::sync::Arc;

use anyhow::Result;
use committer::CheckpointId;

/// A place in a run a hook is told about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// Every subtask prepared checkpoint `c` and the fence was checked; the checkpoint
    /// is not written yet.
    CheckpointFenced(CheckpointId),
    /// Checkpoint `c` is written, so complete; no notification of it delivered yet.
    CheckpointCompleted(CheckpointId),
}

/// How far a run goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Reach {
    /// To the end of its input (a run of the job).
    #[default]
    EndOfInput,
    /// Through its open only: recovery commits what the restored checkpoint holds and
    /// the sweeps discard the orphans, then the run stops (`demo doctor --sweep`).
    Recovery,
}

/// What a test does at each [`Point`]: an error stops the run there, as a kill would
/// (nothing after the point happens; what is durable stays).
#[derive(Clone, Default)]
pub struct Hook(Option<Arc<dyn Fn(Point) -> Result<()> + Send + Sync>>);

impl Hook {
    /// A hook calling `at` at every point.
    pub fn new(at: impl Fn(Point) -> Result<()> + Send + Sync + 'static) -> Self {
        Self(Some(Arc::new(at)))
    }

    /// The run reached `point`.
    ///
    /// # Errors
    /// When the hook stops the run there.
    pub fn reached(&self, point: Point) -> Result<()> {
        self.0.as_ref().map_or(Ok(()), |at| at(point))
    }
}

impl fmt::Debug for Hook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "Hook(set)"
        } else {
            "Hook(none)"
        })
    }
}
