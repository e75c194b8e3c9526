//! Where checkpoints go: a store that outlives the job, and what it hands back.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
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
#[derive(Debug, Clone, Default)]
pub struct InMemoryCheckpointStore {
    checkpoints: BTreeMap<CheckpointId, Entry>,
}

/// A stored checkpoint at one of the two stages of its life.
#[derive(Debug, Clone)]
enum Entry {
    /// Saved but not yet known to be durable: recovery must not use it.
    InFlight(StoredCheckpoint),
    /// Durable: a recovery point.
    Completed(StoredCheckpoint),
}

impl InMemoryCheckpointStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }
}

impl CheckpointStore for InMemoryCheckpointStore {
    fn save(&mut self, id: CheckpointId, offset: Offset, state: Vec<u8>) -> Result<()> {
        if id == 0 {
            bail!("save: checkpoint ids start at 1, got 0");
        }
        if let Some(Entry::Completed(_)) = self.checkpoints.get(&id) {
            // A replay after recovery takes only checkpoints newer than the one it
            // restored, so this can only be a bug in the runner.
            bail!(
                "save: checkpoint {id} is already completed, and a completed checkpoint never changes"
            );
        }
        // Saving an in-flight id again replaces it: a replay retakes the checkpoints that
        // were in flight at the crash.
        let checkpoint = StoredCheckpoint { id, offset, state };
        self.checkpoints.insert(id, Entry::InFlight(checkpoint));
        Ok(())
    }

    fn complete(&mut self, id: CheckpointId) -> Result<()> {
        let Some(entry) = self.checkpoints.remove(&id) else {
            bail!("complete: checkpoint {id} was never saved");
        };
        // Completing twice is harmless: notifications may be repeated.
        let completed = match entry {
            Entry::InFlight(checkpoint) | Entry::Completed(checkpoint) => {
                Entry::Completed(checkpoint)
            }
        };
        self.checkpoints.insert(id, completed);
        Ok(())
    }

    fn latest_completed(&self) -> Option<StoredCheckpoint> {
        self.checkpoints
            .values()
            .rev()
            .find_map(|entry| match entry {
                Entry::Completed(checkpoint) => Some(checkpoint.clone()),
                Entry::InFlight(_) => None,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_completed_checkpoints_are_recovery_points_and_the_latest_wins() {
        let mut store = InMemoryCheckpointStore::new();
        store.save(1, 2, b"one".to_vec()).unwrap();
        assert_eq!(store.latest_completed(), None);
        store.complete(1).unwrap();
        store.save(2, 4, b"two".to_vec()).unwrap();
        assert_eq!(store.latest_completed().unwrap().id, 1);
        store.complete(2).unwrap();
        let latest = store.latest_completed().unwrap();
        assert_eq!(
            (latest.id, latest.offset, latest.state),
            (2, 4, b"two".to_vec())
        );
    }

    #[test]
    fn completing_an_unknown_checkpoint_or_rewriting_a_completed_one_is_an_error() {
        let mut store = InMemoryCheckpointStore::new();
        assert!(store.complete(1).is_err());
        store.save(1, 1, vec![]).unwrap();
        store.save(1, 1, vec![]).unwrap();
        store.complete(1).unwrap();
        store.complete(1).unwrap();
        assert!(store.save(1, 1, vec![]).is_err());
    }
}
