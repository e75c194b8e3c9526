//! What the laws demand: a model of the two-phase-commit sink, and the schedule of
//! barriers, notifications and the restart point of one run.

use std::collections::BTreeMap;

use super::call::SpyCall;

/// How a pre-committed transaction ended, in the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelTxn {
    /// Pre-committed, holding these records, not yet committed or aborted.
    Prepared(Vec<u32>),
    /// Visible.
    Committed,
    /// Discarded.
    Aborted,
}

/// The contract of `TwoPhaseCommitSink` as plain data: what the spy runs inside, and
/// what the sink-alone check compares the implementation's sink with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModelSink {
    /// The open transaction.
    pub open: Vec<u32>,
    /// Every id ever pre-committed, and where it stands.
    pub transactions: BTreeMap<u64, ModelTxn>,
    /// Prepared ids, oldest pre-commit first.
    pub pending: Vec<u64>,
    /// The visible output.
    pub committed: Vec<u32>,
}

impl ModelSink {
    /// Takes `id` off the pending ids, where it is once (a pre-commit of a known id changes
    /// nothing). Found from the oldest, where a commit's id usually is: a walk of many
    /// pending checkpoints stays linear, not a pass over all of them at each commit.
    fn unpend(&mut self, id: u64) {
        if let Some(at) = self.pending.iter().position(|p| *p == id) {
            self.pending.remove(at);
        }
    }

    /// Applies one call; whether it changed anything (`false`: the call was idle, as a
    /// repeated commit or an abort of an id that is not prepared is).
    pub fn apply(&mut self, call: SpyCall) -> bool {
        match call {
            SpyCall::Write(record) => {
                self.open.push(record);
                true
            }
            SpyCall::PreCommit(id) => {
                // A reused id is a protocol error of the job; the model keeps the open
                // data open (the reference sink does the same), the judge reports it.
                if self.transactions.contains_key(&id) {
                    return false;
                }
                let sealed = std::mem::take(&mut self.open);
                self.transactions.insert(id, ModelTxn::Prepared(sealed));
                self.pending.push(id);
                true
            }
            SpyCall::Commit(id) => {
                let Some(ModelTxn::Prepared(records)) = self.transactions.get_mut(&id) else {
                    return false;
                };
                let records = std::mem::take(records);
                self.transactions.insert(id, ModelTxn::Committed);
                self.committed.extend(records);
                self.unpend(id);
                true
            }
            SpyCall::Abort(id) => {
                let Some(txn @ ModelTxn::Prepared(_)) = self.transactions.get_mut(&id) else {
                    return false;
                };
                *txn = ModelTxn::Aborted;
                self.unpend(id);
                true
            }
            SpyCall::AbortOpen => {
                let changed = !self.open.is_empty();
                self.open.clear();
                changed
            }
        }
    }

    /// Applies one call on a table another writer shares with the job: that writer's
    /// rows, while still to come, become visible at their moments (see `OtherWriter`).
    pub fn apply_beside(&mut self, call: SpyCall, other: &mut OtherWriter) -> bool {
        let changed = self.apply(call);
        if changed
            && matches!(call, SpyCall::Commit(_))
            && let Some(row) = other.after_first_commit.take()
        {
            self.committed.push(row);
        }
        if matches!(call, SpyCall::Write(_)) {
            other.writes += 1;
            if let Some((write, row)) = other.after_write
                && write == other.writes
            {
                other.after_write = None;
                self.committed.push(row);
            }
        }
        changed
    }

    /// The visible output.
    pub fn committed(&self) -> &[u32] {
        &self.committed
    }

    /// The records of prepared transaction `id`, if it is prepared.
    pub fn prepared(&self, id: u64) -> Option<&[u32]> {
        match self.transactions.get(&id) {
            Some(ModelTxn::Prepared(records)) => Some(records),
            _ => None,
        }
    }
}

/// What another writer commits to a table the job shares, and when: the job's rows are
/// not all a table shows, and what it shows changes between the job's own commits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OtherWriter {
    /// A row committed right after the job's first commit that publishes something.
    pub after_first_commit: Option<u32>,
    /// A row committed right after the job's write number `.0` (counted from 1): with
    /// the crash point there, after the job's last write before the crash, where no
    /// commit of the job need follow it.
    pub after_write: Option<(usize, u32)>,
    /// The job's writes so far.
    writes: usize,
}

impl OtherWriter {
    /// A writer that commits `after_first_commit` and `after_write` (see the fields).
    pub fn new(after_first_commit: Option<u32>, after_write: Option<(usize, u32)>) -> Self {
        Self {
            after_first_commit,
            after_write,
            writes: 0,
        }
    }
}

/// The shape of one run: where the barriers fall and where a crash leaves the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// Number of records.
    pub len: usize,
    /// A barrier after every this many records.
    pub barrier_every: usize,
    /// The crash point, if any.
    pub crash_after: Option<usize>,
    /// Notifications trail their barrier by this many barriers.
    pub commit_lag: usize,
}

impl Schedule {
    /// How many records the first attempt processes.
    pub fn stop(&self) -> usize {
        self.crash_after.unwrap_or(self.len)
    }

    /// Whether a barrier follows record number `position` (1-based count of records).
    pub fn is_barrier(&self, position: usize) -> bool {
        position > 0 && position.is_multiple_of(self.barrier_every)
    }

    /// Barriers the first attempt passes (up to the crash or the end).
    pub fn barriers_before_stop(&self) -> usize {
        self.stop() / self.barrier_every
    }

    /// Checkpoints notified before the crash.
    pub fn notified_before_crash(&self) -> usize {
        self.barriers_before_stop().saturating_sub(self.commit_lag)
    }

    /// The offset the replay starts from: the last notified checkpoint's, or 0.
    pub fn restart_offset(&self) -> usize {
        self.notified_before_crash() * self.barrier_every
    }
}

/// The calls the reference job makes on its sinks, one list per sink: the canonical
/// run a trace compares a learner's with. (The judge does not demand these exact calls:
/// see `judge`.)
pub fn reference_calls(records: &[u32], schedule: Schedule) -> Vec<Vec<SpyCall>> {
    let mut next_id = 1;
    let mut first = Vec::new();
    let (pending, last_notified) = attempt(
        records,
        schedule,
        0,
        schedule.stop(),
        &mut next_id,
        &mut first,
    );
    let Some(_) = schedule.crash_after else {
        finish(records.len(), pending, &mut next_id, &mut first);
        return vec![first];
    };
    first.push(SpyCall::AbortOpen);
    first.extend(pending.iter().map(|(id, _)| SpyCall::Abort(*id)));
    let from = last_notified.map_or(0, |(_, offset)| offset);
    let mut fresh = Vec::new();
    let (pending, _) = attempt(
        records,
        schedule,
        from,
        records.len(),
        &mut next_id,
        &mut fresh,
    );
    finish(records.len(), pending, &mut next_id, &mut fresh);
    vec![first, fresh]
}

type Pending = Vec<(u64, usize)>;

fn attempt(
    records: &[u32],
    schedule: Schedule,
    from: usize,
    until: usize,
    next_id: &mut u64,
    calls: &mut Vec<SpyCall>,
) -> (Pending, Option<(u64, usize)>) {
    let mut pending: Pending = Vec::new();
    let mut last_notified = None;
    for (position, record) in records.iter().enumerate().take(until).skip(from) {
        calls.push(SpyCall::Write(*record));
        if schedule.is_barrier(position + 1) {
            calls.push(SpyCall::PreCommit(*next_id));
            pending.push((*next_id, position + 1));
            *next_id += 1;
            while pending.len() > schedule.commit_lag {
                let (id, offset) = pending.remove(0);
                calls.push(SpyCall::Commit(id));
                last_notified = Some((id, offset));
            }
        }
    }
    (pending, last_notified)
}

fn finish(len: usize, mut pending: Pending, next_id: &mut u64, calls: &mut Vec<SpyCall>) {
    calls.push(SpyCall::PreCommit(*next_id));
    pending.push((*next_id, len));
    *next_id += 1;
    calls.extend(pending.iter().map(|(id, _)| SpyCall::Commit(*id)));
}
