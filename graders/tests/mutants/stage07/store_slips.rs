//! A second stage-07 store for the mistakes written from the brief alone: kept as the
//! in-flight checkpoints and the completed ones apart, with one slip switched by `SLIP`.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use solution07::{CheckpointStore, StoredCheckpoint};

pub const NONE: u8 = 0;
/// Completing a checkpoint forgets the older completed ones (only the latest is ever
/// restored), so a completed id saved again after a newer one completed is taken.
pub const FORGET_OLDER_COMPLETED: u8 = 1;
/// The refused save writes first and checks after: the completed checkpoint changes.
pub const WRITE_THEN_REFUSE: u8 = 2;
/// Completing an unknown id is an error only while nothing was ever saved.
pub const UNKNOWN_ONLY_WHEN_EMPTY: u8 = 3;
/// `latest_completed` is the checkpoint completed last, not the one with the highest id.
pub const LATEST_BY_COMPLETION: u8 = 4;
/// A save of a completed id is quietly ignored: nothing changes, but no error either.
pub const SAVE_COMPLETED_IGNORED: u8 = 5;
/// A save of an id still in flight is refused, as if ids were saved once.
pub const SAVE_IN_FLIGHT_REFUSED: u8 = 6;
/// `latest_completed` is the completed checkpoint with the highest offset, not id.
pub const LATEST_BY_OFFSET: u8 = 7;

/// In flight and completed apart, with slip `S`.
#[derive(Debug, Default)]
pub struct Store<const S: u8> {
    in_flight: BTreeMap<u64, StoredCheckpoint>,
    completed: BTreeMap<u64, StoredCheckpoint>,
    /// The id completed last (read by `LATEST_BY_COMPLETION` only).
    completed_last: Option<u64>,
}

impl<const S: u8> Store<S> {
    pub fn new() -> Self {
        Self {
            in_flight: BTreeMap::new(),
            completed: BTreeMap::new(),
            completed_last: None,
        }
    }
}

impl<const S: u8> CheckpointStore for Store<S> {
    fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> Result<()> {
        let checkpoint = StoredCheckpoint { id, offset, state };
        if let Some(done) = self.completed.get_mut(&id) {
            if S == WRITE_THEN_REFUSE {
                *done = checkpoint;
            }
            if S == SAVE_COMPLETED_IGNORED {
                return Ok(());
            }
            bail!("checkpoint {id} is completed and cannot be saved again");
        }
        if S == SAVE_IN_FLIGHT_REFUSED && self.in_flight.contains_key(&id) {
            bail!("checkpoint {id} is already saved");
        }
        self.in_flight.insert(id, checkpoint);
        Ok(())
    }

    fn complete(&mut self, id: u64) -> Result<()> {
        if let Some(checkpoint) = self.in_flight.remove(&id) {
            self.completed.insert(id, checkpoint);
            self.completed_last = Some(id);
            if let (FORGET_OLDER_COMPLETED, Some(&latest)) = (S, self.completed.keys().last()) {
                self.completed = self.completed.split_off(&latest);
            }
            return Ok(());
        }
        let empty = self.in_flight.is_empty() && self.completed.is_empty();
        if self.completed.contains_key(&id) || (S == UNKNOWN_ONLY_WHEN_EMPTY && !empty) {
            return Ok(());
        }
        bail!("checkpoint {id} was never saved")
    }

    fn latest_completed(&self) -> Option<StoredCheckpoint> {
        if S == LATEST_BY_COMPLETION {
            return self
                .completed_last
                .and_then(|id| self.completed.get(&id).cloned());
        }
        if S == LATEST_BY_OFFSET {
            return self.completed.values().max_by_key(|c| c.offset).cloned();
        }
        self.completed.values().next_back().cloned()
    }
}
