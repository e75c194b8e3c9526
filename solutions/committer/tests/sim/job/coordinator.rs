//! The simulated coordinator's side of an attempt: a barrier on every subtask, its
//! checkpoint completed once more than the commit lag are in flight, and the
//! completion's notification delivered as the schedule's fault for it says (aborted,
//! lost, duplicated, late or reordered).

use std::mem;

use anyhow::{Result, bail};
use committer::{CheckpointId, Step, Tripwire};

use super::super::adopters::Adopter;
use super::super::checkpoints::{Completed, History};
use super::super::schedule::Fault;
use super::{Attempt, Operators};

/// Which barrier the coordinator injects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Barrier {
    /// One of the input's, every `barrier_every` records.
    Periodic,
    /// The final checkpoint's, at end of input: the base prepares the tail.
    EndOfInput,
}

impl<A: Adopter> Attempt<'_, A> {
    pub(super) fn barrier(
        &mut self,
        ops: &mut Operators<A>,
        (id, barrier): (CheckpointId, Barrier),
        offset: usize,
        latest: &mut History,
    ) -> Result<()> {
        let states = ops
            .iter_mut()
            .map(|op| match barrier {
                Barrier::Periodic => op.on_barrier(id),
                Barrier::EndOfInput => op.end_of_input(id),
            })
            .collect::<Result<Vec<_>>>()?;
        self.inflight.push_back(Completed {
            id,
            offset,
            parallelism: self.parallelism,
            states,
        });
        while self.inflight.len() > self.schedule.commit_lag {
            let c = self
                .inflight
                .pop_front()
                .expect("longer than the commit lag");
            self.complete(ops, c, latest)?;
        }
        Ok(())
    }

    /// The coordinator's completion of `c`, with its fault.
    pub(super) fn complete(
        &mut self,
        ops: &mut Operators<A>,
        c: Completed,
        latest: &mut History,
    ) -> Result<()> {
        let id = c.id;
        let fault = self.schedule.faults.get(&id).copied();
        if fault == Some(Fault::Aborted) {
            ops.iter_mut().for_each(|op| op.on_checkpoint_aborted(id));
            return Ok(());
        }
        latest.completed(c);
        self.tripwire.reached(Step::CheckpointCompleted(id))?;
        let mut round = mem::take(&mut self.late);
        match fault {
            None => round.push(id),
            Some(Fault::Duplicated) => round.extend([id, id]),
            Some(Fault::Late) => self.late.push(id),
            Some(Fault::Lost | Fault::Reordered | Fault::Aborted) => {}
        }
        round.append(&mut self.reordered);
        if fault == Some(Fault::Reordered) {
            self.reordered.push(id);
        }
        self.notify(ops, &round)
    }

    pub(super) fn notify(&mut self, ops: &mut Operators<A>, ids: &[CheckpointId]) -> Result<()> {
        for &id in ids {
            for op in ops.iter_mut() {
                op.on_checkpoint_complete(id)?;
                // The protocol, not only the end state: a notification leaves nothing
                // pending at or below its id (a lost one is repaired by the next).
                let left = op.pending_committables()?;
                if let Some((stale, _)) = left.iter().find(|(c, _)| *c <= id) {
                    bail!("after the notification of c{id}, c{stale} is still pending");
                }
            }
        }
        Ok(())
    }
}
