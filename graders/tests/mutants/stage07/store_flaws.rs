//! The one flawed store of the stage-07 store mutants: the brief's store with one mistake,
//! switched on by a `MISTAKE` constant.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use solution07::{CheckpointStore, StoredCheckpoint};

pub const KEEP_FIRST_SAVE: u8 = 1;
pub const COMPLETE_ONCE: u8 = 2;
pub const COMPLETE_UNKNOWN: u8 = 3;
pub const EIGHT_IN_FLIGHT: u8 = 4;

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
}

impl<const M: u8> Store<M> {
    pub fn new() -> Self {
        Self {
            saved: BTreeMap::new(),
        }
    }
}

impl<const M: u8> CheckpointStore for Store<M> {
    fn save(&mut self, id: u64, offset: u64, state: Vec<u8>) -> Result<()> {
        match self.saved.get(&id) {
            Some((_, Phase::Completed)) => bail!("checkpoint {id} is already completed"),
            Some((_, Phase::InFlight)) if M == KEEP_FIRST_SAVE => return Ok(()),
            _ => {}
        }
        let checkpoint = StoredCheckpoint { id, offset, state };
        self.saved.insert(id, (checkpoint, Phase::InFlight));
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
        match self.saved.get_mut(&id) {
            None if M == COMPLETE_UNKNOWN => Ok(()),
            None => bail!("checkpoint {id} was never saved"),
            Some((_, Phase::Completed)) if M == COMPLETE_ONCE => {
                bail!("checkpoint {id} is already completed")
            }
            Some((_, phase)) => {
                *phase = Phase::Completed;
                Ok(())
            }
        }
    }

    fn latest_completed(&self) -> Option<StoredCheckpoint> {
        self.saved
            .values()
            .rev()
            .find(|(_, phase)| *phase == Phase::Completed)
            .map(|(checkpoint, _)| checkpoint.clone())
    }
}
