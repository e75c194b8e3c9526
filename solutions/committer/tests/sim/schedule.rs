//! One schedule: the input, the cadence, the faults and the crashes of a simulated job.

use std::collections::BTreeMap;

use committer::{CheckpointId, Step};

use super::faults::CommitFault;

/// What goes wrong with one checkpoint's completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fault {
    /// Completed, but the notification never arrives.
    Lost,
    /// The notification arrives twice.
    Duplicated,
    /// The notification arrives one completion round later, before that round's own.
    Late,
    /// The notification arrives after the next checkpoint's.
    Reordered,
    /// The checkpoint never completes; subtasks are told it was aborted.
    Aborted,
}

impl Fault {
    /// Every fault kind.
    pub const ALL: [Fault; 5] = [
        Fault::Lost,
        Fault::Duplicated,
        Fault::Late,
        Fault::Reordered,
        Fault::Aborted,
    ];
}

/// Which old operator state a new subtask receives at a restore.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distribution {
    /// Its parents' (like an embedded key-value backend).
    Parents,
    /// Every old subtask's (like a shared file system backend).
    Everything,
    /// Old subtask `o`'s goes to new subtask `o % q` (like Flink's split list state).
    RoundRobin,
    /// Every old subtask's to the last new subtask; the others get nothing (Flink's
    /// `testStateRestore` hands it all to subtask 9 of 10).
    AllToLast,
}

/// A simulated job's run, fully determined.
#[derive(Debug, Clone)]
pub struct Schedule {
    /// Input records.
    pub len: usize,
    /// A barrier after every `barrier_every` records (counted from the start of input).
    pub barrier_every: usize,
    /// The commit lag: a checkpoint completes (and its notification is sent)
    /// `commit_lag` barriers after it was taken.
    pub commit_lag: usize,
    /// The parallelism of each attempt; the last one repeats.
    pub parallelism: Vec<u32>,
    /// Faults by checkpoint id (in every attempt).
    pub faults: BTreeMap<CheckpointId, Fault>,
    /// Per attempt: crash right after this many steps of that attempt.
    pub crashes: Vec<Option<usize>>,
    /// Per attempt: crash right after this named step (its first occurrence).
    pub crash_steps: Vec<Option<Step>>,
    /// How restored operator state is handed out.
    pub distribution: Distribution,
    /// The attempts that restore the completed checkpoint before the latest (as if
    /// the latest one's metadata were lost).
    pub restore_previous: Vec<usize>,
    /// Whether the first planned crash leaves a zombie instead of a dead run.
    pub zombie: bool,
    /// What goes wrong with commits.
    pub commit_fault: Option<CommitFault>,
    /// From this attempt on, a lost handle is abandoned (the operator's way out).
    pub abandon_from: Option<usize>,
}

impl Schedule {
    /// A schedule without faults or crashes at parallelism 1.
    pub fn new(len: usize, barrier_every: usize, commit_lag: usize) -> Self {
        Self {
            len,
            barrier_every,
            commit_lag,
            parallelism: vec![1],
            faults: BTreeMap::new(),
            crashes: Vec::new(),
            crash_steps: Vec::new(),
            distribution: Distribution::Parents,
            restore_previous: Vec::new(),
            zombie: false,
            commit_fault: None,
            abandon_from: None,
        }
    }

    /// With attempt `attempt` restoring the completed checkpoint before the latest.
    pub fn restoring_previous_at(mut self, attempt: usize) -> Self {
        self.restore_previous.push(attempt);
        self
    }

    /// With the first planned crash leaving a zombie that wakes after the next open.
    pub fn zombie(mut self) -> Self {
        self.zombie = true;
        self
    }

    /// With `fault` on commits.
    pub fn commit_fault(mut self, fault: CommitFault) -> Self {
        self.commit_fault = Some(fault);
        self
    }

    /// With lost handles abandoned from attempt `attempt` on.
    pub fn abandoning_lost_handles_from(mut self, attempt: usize) -> Self {
        self.abandon_from = Some(attempt);
        self
    }

    /// With these parallelisms per attempt.
    pub fn at(mut self, parallelism: &[u32]) -> Self {
        self.parallelism = parallelism.to_vec();
        self
    }

    /// With `fault` on checkpoint `checkpoint`.
    pub fn fault(mut self, checkpoint: CheckpointId, fault: Fault) -> Self {
        self.faults.insert(checkpoint, fault);
        self
    }

    /// With these crash points per attempt.
    pub fn crash(mut self, crashes: &[Option<usize>]) -> Self {
        self.crashes = crashes.to_vec();
        self
    }

    /// With these named crash steps per attempt.
    pub fn crash_on(mut self, steps: &[Option<Step>]) -> Self {
        self.crash_steps = steps.to_vec();
        self
    }

    /// With this restore distribution.
    pub fn distributed(mut self, distribution: Distribution) -> Self {
        self.distribution = distribution;
        self
    }

    /// The parallelism of attempt `attempt`.
    pub fn parallelism_at(&self, attempt: usize) -> u32 {
        let last = self.parallelism.len() - 1;
        self.parallelism[attempt.min(last)]
    }

    /// The checkpoint ids a clean run takes (the barriers plus the final one).
    pub fn checkpoints(&self) -> CheckpointId {
        (self.len / self.barrier_every) as CheckpointId + 1
    }
}
