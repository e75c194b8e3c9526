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
    /// A checkpoint committed before its notification at the crash point, right after
    /// the barrier there and before any abort: `(id, barrier index, offset, call)`. Whether it
    /// was an early notification at that barrier or a flush at the crash shows only
    /// later: an abort after it means the job went on to recover normally (so it was
    /// the barrier's commit); no abort at all means it flushed instead of aborting.
    pub(super) committed_at_crash: Option<(u64, usize, usize, usize)>,
    /// Calls walked so far.
    pub(super) calls: usize,
    /// Whether `abort_open()` was called after the crash point.
    pub(super) open_aborted: bool,
}

impl FirstSink<'_> {
    /// The commit held in `committed_at_crash`, judged as an early notification.
    pub(super) fn early_at_last_barrier(&self) -> Result<(), CellFailure> {
        let Some((id, index, offset, call)) = self.committed_at_crash else {
            return Ok(());
        };
        let commit_lag = self.schedule.commit_lag;
        fail(
            Anomaly::VisibleBeforeNotification,
            format!(
                "call {call} (Commit({id})) committed checkpoint {id} (barrier {index}, after record {offset}) at barrier {}, the last before the crash, but with commit_lag = {commit_lag} its notification arrives at barrier {}",
                self.barriers,
                index.saturating_add(commit_lag)
            ),
        )
    }

    /// The commit held in `committed_at_crash`, judged as a flush at the crash.
    pub(super) fn flushed_at_crash(&self) -> Result<(), CellFailure> {
        let Some((id, index, offset, call)) = self.committed_at_crash else {
            return Ok(());
        };
        fail(
            Anomaly::NotAborted,
            format!(
                "call {call} (Commit({id})) committed checkpoint {id} (barrier {index}, after record {offset}) at the crash after record {}, though it was never notified (with commit_lag = {} its notification would arrive at barrier {}), where recovery aborts it: at the crash it must be aborted, not committed",
                self.position,
                self.schedule.commit_lag,
                index.saturating_add(self.schedule.commit_lag)
            ),
        )
    }
}

impl FirstSink<'_> {
    /// The first sink's checkpoints are numbered 1, 2, ... in the order they are taken
    /// (08-R8): any other numbering passes every other check, so only this one can
    /// reject it (and the replay's ids, counting on from these, rest on it).
    pub(super) fn counts_from_one(&self, id: u64) -> Result<(), CellFailure> {
        let expected = self.taken.len() as u64 + 1;
        if id == expected {
            return Ok(());
        }
        let which = match self.taken.len() {
            0 => "the first checkpoint".to_string(),
            n => format!("checkpoint number {}", n + 1),
        };
        fail(
            Anomaly::IdsNotFromOne,
            format!(
                "pre-committed {which} after record {} under id {id}, expected {expected}: the barriers take checkpoints 1, 2, ... in order",
                self.position
            ),
        )
    }

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

    /// Every pending checkpoint whose notification has arrived must be committed. The
    /// pending ids are in pre-commit order, and a barrier's index grows with it, so the
    /// oldest pending barrier checkpoint falls due first: when it is not late, none is.
    /// Asking it alone keeps a walk of many pending checkpoints linear.
    pub(super) fn none_late(&self) -> Result<(), CellFailure> {
        let commit_lag = self.schedule.commit_lag;
        let oldest = self
            .model
            .pending
            .iter()
            .find_map(|id| match self.taken.get(id) {
                Some(Taken::Barrier { index, offset }) => Some((id, index, offset)),
                _ => None,
            });
        if let Some((id, index, offset)) = oldest
            && index.saturating_add(commit_lag) <= self.barriers
        {
            let due = index.saturating_add(commit_lag);
            // Seen only at the crash, the same calls are a queue one step late or a
            // job that dies between a barrier's pre-commit and the commits it releases.
            let at_crash = match self.schedule.crash_after {
                Some(k) if !self.running() && due == self.barriers => format!(
                    ", and a crash after record {k} comes after the commits that barrier releases"
                ),
                _ => String::new(),
            };
            return fail(
                Anomaly::NotificationLate,
                format!(
                    "checkpoint {id} (barrier after record {offset}) was still not committed after barrier {}: with commit_lag = {commit_lag} its notification arrives at barrier {due}{at_crash}",
                    self.barriers,
                ),
            );
        }
        Ok(())
    }
}
