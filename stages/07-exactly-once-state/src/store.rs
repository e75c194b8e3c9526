//! Where checkpoints go: a store that outlives the job, and what it hands back.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::{CheckpointId, Offset};

/// Durable storage for checkpoints, shared by every attempt of a job.
///
/// The runner saves checkpoint `c` when it takes it and calls `complete(c)` once it is
/// durable; recovery asks for the latest completed one. The store, unlike the job, is
/// not lost in a crash.
pub trait CheckpointStore {
    /// Records checkpoint `id`, taken at source `offset` with the operator `state` as
    /// bytes. It is in flight until [`complete`](Self::complete)d.
    ///
    /// # Errors
    /// When the checkpoint cannot be stored.
    fn save(&mut self, id: CheckpointId, offset: Offset, state: Vec<u8>) -> Result<()>;

    /// Marks checkpoint `id` completed: from now on recovery may restore it.
    ///
    /// # Errors
    /// When `id` was never saved.
    fn complete(&mut self, id: CheckpointId) -> Result<()>;

    /// The completed checkpoint with the highest id, if any: where recovery starts.
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
/// in flight at the crash); saving an id that is already completed is an error;
/// completing an id twice is fine; completing an id never saved is an error.
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
