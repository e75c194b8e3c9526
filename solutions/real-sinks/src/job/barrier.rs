//! The coordinator's side of a run: a barrier on every subtask, the checkpoint written
//! (which completes it), and the notifications delivered `commit_lag` checkpoints later.

use std::collections::VecDeque;

use anyhow::Result;
use committer::{CheckpointId, CommitterOperator, CommittingSink, Fence, InMemoryOperatorState};

use crate::crash::Phase;
use crate::watchdog::Progress;

use super::checkpoints::{Checkpoint, CheckpointStore};
use super::fence::RunFence;
use super::hook::{Hook, Point};

/// The sink subtasks of a run.
pub(super) type Operators<S> = Vec<CommitterOperator<S, InMemoryOperatorState>>;

/// Which barrier a checkpoint starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Barrier {
    /// Every `barrier_every` records.
    Periodic,
    /// The final one, after the input's last record: the base prepares the tail.
    EndOfInput,
}

/// What the coordinator holds during a run.
pub(super) struct Coordinator<'a> {
    pub store: &'a CheckpointStore,
    pub fence: &'a RunFence,
    pub marks: bool,
    pub progress: &'a Progress,
    pub hook: &'a Hook,
    pub commit_lag: u64,
    /// Completed checkpoints whose notification is not delivered yet, oldest first.
    pub waiting: VecDeque<CheckpointId>,
}

impl Coordinator<'_> {
    /// Barrier `id` at `offset`: every subtask prepares, the checkpoint completes, and
    /// the notifications older than the commit lag are delivered.
    pub fn checkpoint<S: CommittingSink>(
        &mut self,
        operators: &mut Operators<S>,
        (id, barrier): (CheckpointId, Barrier),
        offset: u64,
    ) -> Result<()> {
        Phase::PreCommit.mark(self.marks);
        let snapshots = operators
            .iter_mut()
            .map(|op| {
                self.progress.beat();
                match barrier {
                    Barrier::Periodic => op.on_barrier(id),
                    Barrier::EndOfInput => op.end_of_input(id),
                }
            })
            .collect::<Result<Vec<_>>>()?;
        // A fenced run must not complete a checkpoint the newer run would then restore;
        // should it be overtaken right after this check, the store still never lets its
        // checkpoint win over the newer run's (see `checkpoints.rs`).
        self.fence.check()?;
        self.hook.reached(Point::CheckpointFenced(id))?;
        let checkpoint = Checkpoint {
            id,
            offset,
            snapshots,
        };
        self.store.complete(self.fence.epoch(), &checkpoint)?;
        self.hook.reached(Point::CheckpointCompleted(id))?;
        self.waiting.push_back(id);
        self.notify(operators, self.commit_lag)?;
        Phase::Writing.mark(self.marks);
        Ok(())
    }

    /// Delivers the oldest notifications until at most `keep` are waiting.
    pub fn notify<S: CommittingSink>(
        &mut self,
        operators: &mut Operators<S>,
        keep: u64,
    ) -> Result<()> {
        while self.waiting.len() as u64 > keep {
            let id = self.waiting.pop_front().expect("non-empty");
            for operator in operators.iter_mut() {
                self.progress.beat();
                operator.on_checkpoint_complete(id)?;
            }
        }
        Ok(())
    }
}
