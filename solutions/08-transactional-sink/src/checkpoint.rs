//! Checkpoints as the job sees them: an id, the source offset of the cut, and the
//! sink operator's state at the barrier.

use stage01::Offset;

use crate::CheckpointId;

/// A checkpoint taken at a barrier: its id, how many records precede the barrier, and
/// the snapshot of the sink operator's state (its pending handles) at that barrier.
///
/// Offset and snapshot are what recovery restores when this is the last checkpoint
/// whose notification arrived: the source seeks back to the offset, the operator
/// reopens over the snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    pub(crate) id: CheckpointId,
    pub(crate) offset: Offset,
    pub(crate) operator_state: Vec<u8>,
}
