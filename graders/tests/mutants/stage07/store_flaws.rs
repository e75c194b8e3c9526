//! The one flawed store of the stage-07 store mutants: the brief's store with one mistake,
//! switched on by a `MISTAKE` constant.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use solution07::{CheckpointStore, StoredCheckpoint};

pub const KEEP_FIRST_SAVE: u8 = 1;
pub const COMPLETE_ONCE: u8 = 2;
pub const COMPLETE_UNKNOWN: u8 = 3;
pub const EIGHT_IN_FLIGHT: u8 = 4;
pub const SLOT_PER_ID: u8 = 5;
pub const ID_IN_U32: u8 = 6;
pub const KEEP_TWO_COMPLETED: u8 = 7;

/// Where a checkpoint is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    InFlight,
    Completed,
}

/// The store, with mistake `M`.
#[derive(Debug, Default)]
pub struct Store<const M: u8> {
    saved: BTreeMap<u64, (StoredCheckpoint, Phase)>,
    /// Checkpoint `id` at index `id`, for `SLOT_PER_ID`.
    slots: Vec<Option<(StoredCheckpoint, Phase)>>,
}

impl<const M: u8> Store<M> {
    pub fn new() -> Self {
        Self {
            saved: BTreeMap::new(),
            slots: Vec::new(),
        }
    }

    /// For `KEEP_TWO_COMPLETED`: "only the latest completed checkpoint is ever restored",
    /// so it and one spare are kept, and the older completed ones dropped.
    fn drop_old_completed(&mut self) {
        let completed: Vec<u64> = self
            .saved
            .iter()
            .filter(|(_, (_, phase))| *phase == Phase::Completed)
            .map(|(id, _)| *id)
            .collect();
        for old in completed.iter().rev().skip(2) {
            self.saved.remove(old);
        }
    }

    /// The key a checkpoint is filed under: for `ID_IN_U32`, the id's low 32 bits ("a
    /// `u32` is plenty of checkpoints").
    fn key(id: u64) -> u64 {
        if M == ID_IN_U32 {
            u64::from(id as u32)
        } else {
            id
        }
    }
}

impl<const M: u8> CheckpointStore for Store<M> {
    fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> Result<()> {
        if M == SLOT_PER_ID {
            // "Ids are 1, 2, 3, ...": slot `id` of a vector, grown to hold it.
            let slot = id as usize;
            if self.slots.len() <= slot {
                self.slots.resize_with(slot + 1, || None);
            }
            if let Some((_, Phase::Completed)) = self.slots[slot] {
                bail!("checkpoint {id} is already completed");
            }
            self.slots[slot] = Some((StoredCheckpoint { id, offset, state }, Phase::InFlight));
            return Ok(());
        }
        let key = Self::key(id);
        match self.saved.get(&key) {
            Some((_, Phase::Completed)) => bail!("checkpoint {id} is already completed"),
            Some((_, Phase::InFlight)) if M == KEEP_FIRST_SAVE => return Ok(()),
            _ => {}
        }
        let checkpoint = StoredCheckpoint { id, offset, state };
        self.saved.insert(key, (checkpoint, Phase::InFlight));
        if M == EIGHT_IN_FLIGHT {
            // "A bounded buffer of pending checkpoints": past eight, the oldest is dropped.
            let in_flight: Vec<u64> = self
                .saved
                .iter()
                .filter(|(_, (_, phase))| *phase == Phase::InFlight)
                .map(|(id, _)| *id)
                .collect();
            if let Some(oldest) = in_flight.first().filter(|_| in_flight.len() > 8) {
                self.saved.remove(oldest);
            }
        }
        Ok(())
    }

    fn complete(&mut self, id: u64) -> Result<()> {
        if M == SLOT_PER_ID {
            let Some(Some((_, phase))) = self.slots.get_mut(id as usize) else {
                bail!("checkpoint {id} was never saved");
            };
            *phase = Phase::Completed;
            return Ok(());
        }
        match self.saved.get_mut(&Self::key(id)) {
            None if M == COMPLETE_UNKNOWN => Ok(()),
            None => bail!("checkpoint {id} was never saved"),
            Some((_, Phase::Completed)) if M == COMPLETE_ONCE => {
                bail!("checkpoint {id} is already completed")
            }
            Some((_, phase)) => {
                *phase = Phase::Completed;
                if M == KEEP_TWO_COMPLETED {
                    self.drop_old_completed();
                }
                Ok(())
            }
        }
    }

    fn latest_completed(&self) -> Option<StoredCheckpoint> {
        if M == SLOT_PER_ID {
            return self
                .slots
                .iter()
                .rev()
                .flatten()
                .find_map(|(checkpoint, phase)| {
                    (*phase == Phase::Completed).then(|| checkpoint.clone())
                });
        }
        self.saved
            .values()
            .rev()
            .find(|(_, phase)| *phase == Phase::Completed)
            .map(|(checkpoint, _)| checkpoint.clone())
    }
}
