//! Checkpoints as the sink sees them: an id and the source offset of the cut.

use stage01::Offset;

/// The number of a checkpoint; the first one is 1.
///
/// Stage 06 defines this type and stage 07 reuses it. Until those stages are in the
/// workspace, stage 08 spells the same definition here; it becomes a re-export then.
pub type CheckpointId = u64;

/// A checkpoint taken at a barrier: its id and how many records precede the barrier.
///
/// The offset is what recovery seeks the source back to when this is the last
/// checkpoint whose notification arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    pub(crate) id: CheckpointId,
    pub(crate) offset: Offset,
}
