//! Where checkpoints go: a store that outlives the job, and what it hands back.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::{CheckpointId, Offset};

/// Durable storage for checkpoints, shared by the first attempt of a job and by its
/// recovery.
///
/// The runner saves checkpoint `c` when it takes it (07-R7) and calls `complete(c)` once
/// it is durable (07-R8); recovery asks for the latest completed one (07-R12). The store,
/// unlike the job, is not lost in a crash (07-R22).
pub trait CheckpointStore {
    /// Records checkpoint `id`, taken at source `offset` with the operator `state` as
    /// bytes. It is in flight until [`complete`](Self::complete)d (07-R1).
    ///
    /// # Errors
    /// When `id` has already completed, which leaves the store unchanged (07-R3).
    fn save(&mut self, id: CheckpointId, offset: Offset, state: Vec<u8>) -> Result<()>;

    /// Marks checkpoint `id` completed: from now on recovery may restore it (07-R1).
    ///
    /// # Errors
    /// When `id` was never saved (07-R5).
    fn complete(&mut self, id: CheckpointId) -> Result<()>;

    /// The completed checkpoint with the highest id, if any: where recovery starts (07-R1)
    /// (07-R12).
    fn latest_completed(&self) -> Option<StoredCheckpoint>;
}

/// One checkpoint as stored: its id, the source offset of its cut and the state there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredCheckpoint {
    /// The checkpoint's number.
    pub id: CheckpointId,
    /// The source position of the cut: the number of records the state reflects.
    pub offset: Offset,
    /// The operator state at the cut, as bytes.
    pub state: Vec<u8>,
}

/// A [`CheckpointStore`] in memory: durable enough for a simulated crash, which drops the
/// job but not the store.
///
/// Saving an id that is in flight replaces it (a replay retakes the checkpoints that were
/// in flight at the crash) (07-R2); saving an id that is already completed is an error,
/// and changes nothing (07-R3); completing an id twice is fine (07-R4); completing an id
/// never saved is an error (07-R5).
#[derive(Debug, Clone, Default)]
pub struct InMemoryCheckpointStore {
    // TODO(stage 07): the fields you need: every saved checkpoint, and whether it has
    // completed.
}

impl InMemoryCheckpointStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }
}

impl CheckpointStore for InMemoryCheckpointStore {
    fn save(&mut self, id: CheckpointId, offset: Offset, state: Vec<u8>) -> Result<()> {
        // TODO(stage 07): keep the checkpoint as in flight (an error if `id` already
        // completed).
        let _ = (id, offset, state);
        todo!()
    }

    fn complete(&mut self, id: CheckpointId) -> Result<()> {
        // TODO(stage 07): mark `id` completed (an error if it was never saved).
        let _ = id;
        todo!()
    }

    fn latest_completed(&self) -> Option<StoredCheckpoint> {
        // TODO(stage 07): the completed checkpoint with the highest id.
        todo!()
    }
}
