//! Checkpoint-complete notifications that arrive some barriers after the checkpoint.

use std::collections::VecDeque;

use crate::checkpoint::Checkpoint;

/// The checkpoints that are pre-committed and still wait for their notification.
///
/// A checkpoint completes only once every part of the job has acknowledged it, so the
/// notification trails the barrier. The lag is counted in barriers: with lag `l`, the
/// notification of a checkpoint arrives at the barrier `l` checkpoints later, that is,
/// the oldest waiting checkpoint is notified whenever more than `l` are waiting.
#[derive(Debug)]
pub(crate) struct PendingCommits {
    lag: usize,
    // Oldest first: completions arrive in the order the checkpoints were taken.
    waiting: VecDeque<Checkpoint>,
}

impl PendingCommits {
    pub(crate) fn new(lag: usize) -> Self {
        Self {
            lag,
            waiting: VecDeque::new(),
        }
    }

    /// Queues the checkpoint taken at this barrier and returns those whose notification
    /// this barrier delivers, oldest first.
    pub(crate) fn on_barrier(&mut self, taken: Checkpoint) -> Vec<Checkpoint> {
        self.waiting.push_back(taken);
        let due = self.waiting.len().saturating_sub(self.lag);
        self.waiting.drain(..due).collect()
    }

    /// At the end of the input the last checkpoint is taken and, the job having
    /// nothing left to do, every checkpoint completes: all of them, oldest first.
    pub(crate) fn on_end(&mut self, last: Checkpoint) -> Vec<Checkpoint> {
        self.waiting.push_back(last);
        self.waiting.drain(..).collect()
    }
}
