//! The job the stage-08 mutants share, with one mistake switched on by a flaw.

use std::collections::VecDeque;

use anyhow::{Result, bail};
use solution08::{CheckpointId, TwoPhaseCommitSink};

/// One mistake (or inessential difference) of the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flaw {
    Shortcut,
    IgnoreLag,
    LateByOne,
    NewestFirst,
    NoAbortOnCrash,
    AbortOnlyOpen,
    CommitPendingOnCrash,
    TailNeverCommitted,
    ReplayFromZero,
    ReplayFromLastTaken,
    ReplayIntoOldSink,
    NoFinalPreCommit,
    CrashBeforeBarrier,
    FinalReusesId,
    ReplayRestartsIds,
    ReplayReusesAbortedIds,
    NoFreshSinkWhenNothingLeft,
    CommitsNextId,
    ReplayFinalLeftPrepared,
    NoBarrierCheck,
    ClampCrash,
    UnnamedError,
    AbortOpenOnlyWhenNonEmpty,
    CrashAtTheEndFinishes,
    ReplayIdsSkipOne,
    ResultFromTheFreshSinkOnly,
    CheckpointBeforeTheFirstRecord,
    WritesAtTheBarrier,
    LagArithmetic,
    FreshSinkUpFront,
    AbortAfterReplay,
    CrashCheckedLate,
    FreshSinkBeforeAborts,
    OutputFromTheRecords,
    ReplayFromWhatTheSinkShows,
    ReplayFromWhatTheJobAdded,
    ReplayInheritsPending,
    ReplayIdsFromTwo,
    AbortOpenAtBarrier,
    LagAsU32,
    BarrierEveryAsU32,
    CrashCheckedAsU32,
    AbortsTheNextId,
    AbortsFromTheLastNotified,
    AbortsOnTheFreshSinkToo,
    DeadOutputCopiedAtCommits,
    // Correct variants.
    TailAsOneTransaction,
    SkipEmptyFinal,
    ReplayIgnoresLag,
}

struct Job<S> {
    flaw: Flaw,
    sink: S,
    barrier_every: usize,
    commit_lag: usize,
    next_id: CheckpointId,
    pending: VecDeque<(CheckpointId, usize)>,
    last_notified: usize,
    last_notified_id: CheckpointId,
    last_taken: usize,
    written_since_barrier: usize,
    replaying: bool,
    /// How many rows the sink showed at its creation and after each of the job's
    /// commits: `DeadOutputCopiedAtCommits`'s copy of its output (a table only grows,
    /// so the copy is that many rows of it).
    shown_at_commit: usize,
}

impl<S> Job<S> {
    fn write<T>(&mut self, record: T)
    where
        S: TwoPhaseCommitSink<T>,
    {
        self.sink.write(record);
        self.written_since_barrier += 1;
    }

    fn barrier<T>(&mut self, offset: usize)
    where
        S: TwoPhaseCommitSink<T>,
    {
        let id = self.next_id;
        self.next_id += 1;
        self.sink.pre_commit(id);
        self.written_since_barrier = 0;
        if self.flaw == Flaw::AbortOpenAtBarrier {
            // "Release the connection of the now empty open transaction."
            self.sink.abort_open();
        }
        self.pending.push_back((id, offset));
        self.last_taken = offset;
        let commit_lag = match self.flaw {
            Flaw::IgnoreLag => 0,
            Flaw::ReplayIgnoresLag if self.replaying => 0,
            Flaw::LateByOne => self.commit_lag + 1,
            Flaw::LagAsU32 => self.commit_lag as u32 as usize,
            _ => self.commit_lag,
        };
        // `LagArithmetic` counts the pending checkpoints a notification needs, one more
        // than the lag: fine until the lag is `usize::MAX`.
        let needed = if self.flaw == Flaw::LagArithmetic {
            commit_lag + 1
        } else {
            commit_lag.saturating_add(1)
        };
        while self.pending.len() >= needed {
            let (id, offset) = if self.flaw == Flaw::NewestFirst {
                self.pending.pop_back()
            } else {
                self.pending.pop_front()
            }
            .unwrap_or_default();
            // The off-by-one: the id the next barrier will take, not the one notified.
            let id = if self.flaw == Flaw::CommitsNextId {
                self.next_id
            } else {
                id
            };
            self.sink.commit(id);
            self.shown_at_commit = self.sink.committed().len();
            self.last_notified = offset;
            self.last_notified_id = id;
        }
    }

    fn finish<T>(&mut self, len: usize)
    where
        S: TwoPhaseCommitSink<T>,
    {
        let skip = match self.flaw {
            Flaw::NoFinalPreCommit => true,
            Flaw::SkipEmptyFinal => self.written_since_barrier == 0,
            _ => false,
        };
        if !skip {
            if self.flaw == Flaw::FinalReusesId {
                self.next_id -= 1;
            }
            let id = self.next_id;
            self.sink.pre_commit(id);
            if !(self.flaw == Flaw::ReplayFinalLeftPrepared && self.replaying) {
                self.pending.push_back((id, len));
            }
        }
        for (id, _) in self.pending.drain(..) {
            self.sink.commit(id);
        }
    }

    fn run<T: Clone>(&mut self, records: &[T], from: usize, until: usize, barriers: bool)
    where
        S: TwoPhaseCommitSink<T>,
    {
        if self.flaw == Flaw::CheckpointBeforeTheFirstRecord && from == 0 && until > 0 {
            self.barrier(0);
        }
        // What `WritesAtTheBarrier` holds back until the next barrier.
        let mut held = Vec::new();
        for (i, record) in records.iter().enumerate().take(until).skip(from) {
            let position = i + 1;
            if self.flaw == Flaw::WritesAtTheBarrier {
                held.push(record.clone());
                if barriers && position % self.barrier_every == 0 {
                    while let Some(r) = held.pop() {
                        self.write(r);
                    }
                }
            } else {
                self.write(record.clone());
            }
            if !barriers || position % self.barrier_every != 0 {
                continue;
            }
            if self.flaw == Flaw::CrashBeforeBarrier && position == until && !self.replaying {
                return;
            }
            self.barrier(position);
        }
        // The end of the input releases what is held; a crash loses it.
        if until == records.len() {
            while let Some(r) = held.pop() {
                self.write(r);
            }
        }
    }
}

pub fn run<T: Clone, S: TwoPhaseCommitSink<T>>(
    flaw: Flaw,
    records: &[T],
    barrier_every: usize,
    mut crash_after: Option<usize>,
    commit_lag: usize,
    mut new_sink: impl FnMut() -> S,
) -> Result<Vec<T>> {
    let len = records.len();
    match flaw {
        Flaw::UnnamedError if barrier_every == 0 || crash_after.is_some_and(|k| k > len) => {
            bail!("invalid configuration")
        }
        Flaw::NoBarrierCheck => {}
        _ if barrier_every == 0 => bail!("barrier_every must be at least 1, got 0"),
        Flaw::ClampCrash => crash_after = crash_after.filter(|k| *k <= len),
        Flaw::CrashCheckedLate => {}
        Flaw::CrashCheckedAsU32 if crash_after.is_some_and(|k| k as u32 as usize > len) => {
            bail!("crash_after must be at most {len}, got {crash_after:?}")
        }
        Flaw::CrashCheckedAsU32 => {}
        _ if crash_after.is_some_and(|k| k > len) => {
            bail!("crash_after must be at most {len}, got {crash_after:?}")
        }
        _ => {}
    }
    if flaw == Flaw::Shortcut {
        return Ok(records.to_vec());
    }
    // Squeezed into a `u32` (kept at least 1, so no division by zero).
    let barrier_every = if flaw == Flaw::BarrierEveryAsU32 {
        (barrier_every as u32 as usize).max(1)
    } else {
        barrier_every
    };
    // A crash point squeezed through the `u32` check runs as if the input ended there.
    if flaw == Flaw::CrashCheckedAsU32 {
        crash_after = crash_after.map(|k| k.min(len));
    }
    let mut job = Job {
        flaw,
        sink: new_sink(),
        barrier_every,
        commit_lag,
        next_id: 1,
        pending: VecDeque::new(),
        last_notified: 0,
        last_notified_id: 0,
        last_taken: 0,
        written_since_barrier: 0,
        replaying: false,
        shown_at_commit: 0,
    };
    // What the sink showed before the job wrote anything: `ReplayFromWhatTheJobAdded`
    // takes every row beyond these for one of the job's.
    let shown_at_start = job.sink.committed().len();
    job.shown_at_commit = shown_at_start;
    if flaw == Flaw::CrashCheckedLate && crash_after.is_some_and(|k| k > len) {
        // No crash point is that far: the first attempt runs to the end, then the check.
        job.run(records, 0, len, true);
        job.finish(len);
        bail!("crash_after must be at most {len}, got {crash_after:?}");
    }
    let mut spare = (flaw == Flaw::FreshSinkUpFront && crash_after.is_some()).then(&mut new_sink);
    let Some(k) = crash_after else {
        job.run(records, 0, len, true);
        job.finish(len);
        if flaw == Flaw::OutputFromTheRecords {
            return Ok(records.to_vec());
        }
        return Ok(job.sink.committed().to_vec());
    };
    job.run(records, 0, k, true);
    if flaw == Flaw::CrashAtTheEndFinishes && k == len {
        job.finish(len);
        return Ok(job.sink.committed().to_vec());
    }
    if flaw == Flaw::FreshSinkBeforeAborts {
        spare = Some(new_sink());
    }
    let owed: Vec<CheckpointId> = job.pending.iter().map(|(id, _)| *id).collect();
    match flaw {
        Flaw::NoAbortOnCrash => {}
        // The dead job's queue is kept for the replay, its checkpoints aborted all the same.
        Flaw::ReplayInheritsPending => {
            job.sink.abort_open();
            for (id, _) in &job.pending {
                job.sink.abort(*id);
            }
        }
        Flaw::AbortOpenOnlyWhenNonEmpty => {
            if job.written_since_barrier > 0 {
                job.sink.abort_open();
            }
            for (id, _) in job.pending.drain(..) {
                job.sink.abort(id);
            }
        }
        Flaw::AbortOnlyOpen => job.sink.abort_open(),
        // One past the last prepared id too, an off-by-one the sink ignores.
        Flaw::AbortsTheNextId => {
            job.sink.abort_open();
            for (id, _) in job.pending.drain(..) {
                job.sink.abort(id);
            }
            job.sink.abort(job.next_id);
        }
        // From the last notified id, inclusive: 0 when none was notified.
        Flaw::AbortsFromTheLastNotified => {
            job.sink.abort_open();
            job.sink.abort(job.last_notified_id);
            for (id, _) in job.pending.drain(..) {
                job.sink.abort(id);
            }
        }
        // The barrier's own abort_open() is taken for recovery's.
        Flaw::AbortOpenAtBarrier if k > 0 && k % barrier_every == 0 => {
            for (id, _) in job.pending.drain(..) {
                job.sink.abort(id);
            }
        }
        Flaw::AbortAfterReplay => {}
        Flaw::CommitPendingOnCrash => {
            job.sink.abort_open();
            for (id, _) in job.pending.drain(..) {
                job.sink.commit(id);
            }
        }
        _ => {
            job.sink.abort_open();
            for (id, _) in job.pending.drain(..) {
                job.sink.abort(id);
            }
        }
    }
    let unnotified: Vec<CheckpointId> = if flaw == Flaw::ReplayInheritsPending {
        Vec::new()
    } else {
        job.pending.drain(..).map(|(id, _)| id).collect()
    };
    let from = match flaw {
        Flaw::ReplayFromZero => 0,
        Flaw::ReplayFromLastTaken => job.last_taken,
        // What the dead sink shows, taken for the records it holds (bounded by the input,
        // as a source's seek would refuse more).
        Flaw::ReplayFromWhatTheSinkShows => job.sink.committed().len().min(len),
        Flaw::ReplayFromWhatTheJobAdded => (job.sink.committed().len() - shown_at_start).min(len),
        _ => job.last_notified,
    };
    if flaw == Flaw::ReplayIntoOldSink {
        job.run(records, from, len, true);
        job.finish(len);
        return Ok(job.sink.committed().to_vec());
    }
    let mut output = job.sink.committed().to_vec();
    if flaw == Flaw::DeadOutputCopiedAtCommits {
        // "It only changes when the job commits": the copy the job kept as it went.
        output.truncate(job.shown_at_commit);
    }
    if flaw == Flaw::NoFreshSinkWhenNothingLeft && from == len {
        return Ok(output);
    }
    let mut dead = std::mem::replace(&mut job.sink, spare.take().unwrap_or_else(&mut new_sink));
    job.replaying = true;
    job.written_since_barrier = 0;
    if flaw == Flaw::AbortsOnTheFreshSinkToo {
        // "The fresh connection sees the same system: make sure they are gone there too."
        for id in &owed {
            job.sink.abort(*id);
        }
    }
    match flaw {
        Flaw::ReplayRestartsIds => job.next_id = 1,
        Flaw::ReplayReusesAbortedIds => job.next_id = job.last_notified_id + 1,
        // The id of the open transaction the crash aborted, kept for it.
        Flaw::ReplayIdsSkipOne => job.next_id += 1,
        // "The id after the last pre-committed", with 1 taken for "none".
        Flaw::ReplayIdsFromTwo => job.next_id = job.next_id.max(2),
        _ => {}
    }
    job.run(records, from, len, flaw != Flaw::TailAsOneTransaction);
    if flaw != Flaw::TailNeverCommitted {
        job.finish(len);
    }
    if flaw == Flaw::AbortAfterReplay {
        dead.abort_open();
        for id in unnotified {
            dead.abort(id);
        }
    }
    if flaw == Flaw::ResultFromTheFreshSinkOnly {
        return Ok(job.sink.committed().to_vec());
    }
    output.extend_from_slice(job.sink.committed());
    if flaw == Flaw::OutputFromTheRecords {
        return Ok(records.to_vec());
    }
    Ok(output)
}
