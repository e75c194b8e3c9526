//! The job and the sink the stage-08 mutants share, each with one mistake switched on
//! by a flaw.

use std::collections::{BTreeMap, VecDeque};
use std::marker::PhantomData;

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
        self.pending.push_back((id, offset));
        self.last_taken = offset;
        let commit_lag = match self.flaw {
            Flaw::IgnoreLag => 0,
            Flaw::ReplayIgnoresLag if self.replaying => 0,
            Flaw::LateByOne => self.commit_lag + 1,
            _ => self.commit_lag,
        };
        while self.pending.len() > commit_lag {
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
        for (i, record) in records.iter().enumerate().take(until).skip(from) {
            let position = i + 1;
            self.write(record.clone());
            if !barriers || position % self.barrier_every != 0 {
                continue;
            }
            if self.flaw == Flaw::CrashBeforeBarrier && position == until && !self.replaying {
                return;
            }
            self.barrier(position);
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
        _ if crash_after.is_some_and(|k| k > len) => {
            bail!("crash_after must be at most {len}, got {crash_after:?}")
        }
        _ => {}
    }
    if flaw == Flaw::Shortcut {
        return Ok(records.to_vec());
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
    };
    let Some(k) = crash_after else {
        job.run(records, 0, len, true);
        job.finish(len);
        return Ok(job.sink.committed().to_vec());
    };
    job.run(records, 0, k, true);
    match flaw {
        Flaw::NoAbortOnCrash => {}
        Flaw::AbortOnlyOpen => job.sink.abort_open(),
        Flaw::CommitPendingOnCrash => {
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
    job.pending.clear();
    let from = match flaw {
        Flaw::ReplayFromZero => 0,
        Flaw::ReplayFromLastTaken => job.last_taken,
        _ => job.last_notified,
    };
    if flaw == Flaw::ReplayIntoOldSink {
        job.run(records, from, len, true);
        job.finish(len);
        return Ok(job.sink.committed().to_vec());
    }
    let mut output = job.sink.committed().to_vec();
    if flaw == Flaw::NoFreshSinkWhenNothingLeft && from == len {
        return Ok(output);
    }
    job.sink = new_sink();
    job.replaying = true;
    job.written_since_barrier = 0;
    match flaw {
        Flaw::ReplayRestartsIds => job.next_id = 1,
        Flaw::ReplayReusesAbortedIds => job.next_id = job.last_notified_id + 1,
        _ => {}
    }
    job.run(records, from, len, flaw != Flaw::TailAsOneTransaction);
    if flaw != Flaw::TailNeverCommitted {
        job.finish(len);
    }
    output.extend_from_slice(job.sink.committed());
    Ok(output)
}

/// One mistake of the sink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinkFlaw {
    CommitNotIdempotent,
    WriteVisibleAtOnce,
    AbortIgnored,
    AbortOpenIgnored,
    PreCommitKeepsOpen,
    UnknownCommitPublishesOpen,
    PanicsOnUnknownCommit,
}

pub trait Flawed {
    const FLAW: SinkFlaw;
}

pub struct FlawedSink<T, F> {
    open: Vec<T>,
    prepared: BTreeMap<CheckpointId, Vec<T>>,
    committed: Vec<T>,
    flaw: PhantomData<F>,
}

impl<T, F> FlawedSink<T, F> {
    pub fn new() -> Self {
        Self {
            open: Vec::new(),
            prepared: BTreeMap::new(),
            committed: Vec::new(),
            flaw: PhantomData,
        }
    }
}

impl<T: Clone, F: Flawed> TwoPhaseCommitSink<T> for FlawedSink<T, F> {
    fn write(&mut self, record: T) {
        if F::FLAW == SinkFlaw::WriteVisibleAtOnce {
            self.committed.push(record.clone());
        }
        self.open.push(record);
    }
    fn pre_commit(&mut self, id: CheckpointId) {
        let sealed = if F::FLAW == SinkFlaw::PreCommitKeepsOpen {
            self.open.clone()
        } else {
            std::mem::take(&mut self.open)
        };
        self.prepared.entry(id).or_insert(sealed);
    }
    fn commit(&mut self, id: CheckpointId) {
        match self.prepared.get(&id) {
            Some(records) if F::FLAW == SinkFlaw::CommitNotIdempotent => {
                self.committed.extend(records.iter().cloned());
            }
            Some(_) => {
                let records = self.prepared.remove(&id).unwrap_or_default();
                if F::FLAW != SinkFlaw::WriteVisibleAtOnce {
                    self.committed.extend(records);
                }
            }
            None if F::FLAW == SinkFlaw::UnknownCommitPublishesOpen => {
                self.committed.append(&mut self.open);
            }
            None if F::FLAW == SinkFlaw::PanicsOnUnknownCommit => {
                panic!("commit of unknown checkpoint {id}")
            }
            None => {}
        }
    }
    fn abort(&mut self, id: CheckpointId) {
        if F::FLAW != SinkFlaw::AbortIgnored {
            self.prepared.remove(&id);
        }
    }
    fn abort_open(&mut self) {
        if F::FLAW != SinkFlaw::AbortOpenIgnored {
            self.open.clear();
        }
    }
    fn committed(&self) -> &[T] {
        &self.committed
    }
}
