//! What the walk of the first sink knows after each call, and the schedule's demands
//! that hold between calls (a barrier owed, a notification late).

use std::collections::BTreeMap;

use crate::stage08::anomaly::Anomaly;
use crate::stage08::cell::{CellFailure, fail};
use crate::stage08::oracle::{ModelSink, Schedule};

/// What a pre-committed id stands for on the first sink.
#[derive(Debug, Clone, Copy)]
pub(super) enum Taken {
    /// The checkpoint of barrier number `index` (1-based), after `offset` records.
    Barrier { index: usize, offset: usize },
    /// The trailing transaction of a clean finish.
    Final,
}

/// The first sink as walked so far: its model, where the job is, and what each
/// pre-committed id stands for.
pub(super) struct FirstSink<'a> {
    pub(super) records: &'a [u32],
    pub(super) schedule: Schedule,
    pub(super) model: ModelSink,
    pub(super) position: usize,
    pub(super) barriers: usize,
    pub(super) last_barrier_at: Option<usize>,
    pub(super) taken: BTreeMap<u64, Taken>,
    pub(super) final_taken: bool,
}

impl FirstSink<'_> {
    pub(super) fn finishing(&self) -> bool {
        self.schedule.crash_after.is_none() && self.position == self.records.len()
    }

    pub(super) fn running(&self) -> bool {
        self.schedule.crash_after.is_none() || self.position < self.schedule.stop()
    }

    pub(super) fn barrier_owed(&self) -> Result<(), CellFailure> {
        let p = self.position;
        if self.schedule.is_barrier(p) && self.last_barrier_at != Some(p) {
            return fail(
                Anomaly::MissingBarrier,
                format!(
                    "no pre-commit at the barrier after record {p} (barriers follow every {} records)",
                    self.schedule.barrier_every
                ),
            );
        }
        Ok(())
    }

    /// Every pending checkpoint whose notification has arrived must be committed.
    pub(super) fn none_late(&self) -> Result<(), CellFailure> {
        let commit_lag = self.schedule.commit_lag;
        for id in &self.model.pending {
            if let Some(Taken::Barrier { index, offset }) = self.taken.get(id)
                && index + commit_lag <= self.barriers
            {
                return fail(
                    Anomaly::NotificationLate,
                    format!(
                        "checkpoint {id} (barrier after record {offset}) was still not committed after barrier {}: with commit_lag = {commit_lag} its notification arrives at barrier {}",
                        self.barriers,
                        index + commit_lag
                    ),
                );
            }
        }
        Ok(())
    }
}
