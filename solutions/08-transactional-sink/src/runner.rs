//! The exactly-once job: run, maybe crash, abort what was never notified, replay.
//!
//! One attempt of the job ([`Job`]) reads the source, writes every record into the
//! sink's open transaction, pre-commits at each barrier and commits a checkpoint once its
//! notification arrives, `commit_lag` barriers later. [`run_exactly_once_sink_with`]
//! runs one attempt to the end, or one to the crash, the recovery, and one replay.

use std::collections::VecDeque;

use anyhow::{Context, Result, bail};
use stage01::{Offset, Source};

use crate::{CheckpointId, TransactionalSink, TwoPhaseCommitSink};

/// [`run_exactly_once_sink_with`] writing into [`TransactionalSink`]s.
///
/// # Errors
/// As [`run_exactly_once_sink_with`].
pub fn run_exactly_once_sink<T: Clone>(
    records: &[T],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
) -> Result<Vec<T>> {
    // The sinks are ours: each has room for all it can publish (the input), and its
    // output is moved out rather than copied.
    let attempts = run_attempts(records, barrier_every, crash_after, commit_lag, || {
        TransactionalSink::with_capacity(records.len())
    })?;
    Ok(attempts.output(TransactionalSink::into_committed))
}

/// Runs `records` into sinks made by `new_sink` with two-phase commit and returns the
/// visible output, as the sinks' `committed()` shows it (rows from before the job, and
/// those other writers commit beside it, included): the dead sink's at the crash
/// followed by the fresh sink's.
///
/// A barrier follows every `barrier_every` records and pre-commits the open
/// transaction; the notification of a checkpoint arrives `commit_lag` barriers later
/// and commits it. `crash_after = Some(k)` kills the job once it has processed `k`
/// records (their barriers and the notifications those deliver included); recovery
/// aborts the dead sink's open transaction and its unnotified prepared ones, never to
/// notify them, and only then makes a fresh sink with `new_sink` and replays into it
/// from the last notified checkpoint's offset.
///
/// # Errors
/// When `barrier_every` is 0 or `crash_after` is past the end of `records`.
pub fn run_exactly_once_sink_with<T: Clone, S: TwoPhaseCommitSink<T>>(
    records: &[T],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
    new_sink: impl FnMut() -> S,
) -> Result<Vec<T>> {
    let attempts = run_attempts(records, barrier_every, crash_after, commit_lag, new_sink)?;
    Ok(attempts.output(|sink| sink.committed().to_vec()))
}

/// The sinks the attempts wrote into: the one the crash left behind, if any, and the
/// one the last attempt finished.
struct Attempts<S> {
    dead: Option<S>,
    last: S,
}

impl<S> Attempts<S> {
    /// The visible output: the dead sink's, then the last one's.
    fn output<T>(self, committed: impl Fn(S) -> Vec<T>) -> Vec<T> {
        let last = committed(self.last);
        match self.dead {
            None => last,
            Some(dead) => {
                let mut output = committed(dead);
                output.extend(last);
                output
            }
        }
    }
}

/// One attempt to the end, or one to the crash, the recovery and the replay.
fn run_attempts<T: Clone, S: TwoPhaseCommitSink<T>>(
    records: &[T],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
    mut new_sink: impl FnMut() -> S,
) -> Result<Attempts<S>> {
    if barrier_every == 0 {
        bail!("barrier_every must be at least 1, got 0");
    }
    let cadence = Cadence {
        barrier_every,
        commit_lag,
    };
    let Some(crash_after) = crash_after else {
        let mut sink = new_sink();
        let mut job = Job::start(records, Resume::FIRST, cadence, &mut sink)?;
        job.process_until(records.len());
        job.finish();
        return Ok(Attempts {
            dead: None,
            last: sink,
        });
    };
    if crash_after > records.len() {
        bail!(
            "crash_after must be at most the number of records ({}), got {crash_after}",
            records.len()
        );
    }

    let mut dead = new_sink();
    let mut job = Job::start(records, Resume::FIRST, cadence, &mut dead)?;
    job.process_until(crash_after);
    let resume = job.crash();

    // Recovery. The dead sink outlives the job: its open transaction and the
    // transactions it prepared after the last notified checkpoint belong to no completed
    // checkpoint, and the replay is about to write their records again. Abort them, or
    // a late commit would publish those records twice.
    dead.abort_open();
    for id in resume.unnotified() {
        dead.abort(id);
    }

    let mut fresh = new_sink();
    let mut replay = Job::start(records, resume, cadence, &mut fresh)?;
    replay.process_until(records.len());
    replay.finish();
    Ok(Attempts {
        dead: Some(dead),
        last: fresh,
    })
}

/// When checkpoints are taken and when their notifications arrive.
#[derive(Debug, Clone, Copy)]
struct Cadence {
    /// A barrier follows every this many records (at least 1).
    barrier_every: usize,
    /// A checkpoint is notified complete this many barriers after its own.
    commit_lag: usize,
}

/// A checkpoint the job took: its id and the source offset of its barrier.
#[derive(Debug, Clone, Copy)]
struct Checkpoint {
    id: CheckpointId,
    offset: Offset,
}

/// Where an attempt starts, and all that survives a crash to say so: the last notified
/// checkpoint (kept by the coordinator, which delivered its notification) and the next
/// checkpoint id (the coordinator's counter, which never goes back).
#[derive(Debug, Clone, Copy)]
struct Resume {
    last_notified: Option<Checkpoint>,
    next_id: CheckpointId,
}

impl Resume {
    /// The very first attempt: from offset 0, first checkpoint 1.
    const FIRST: Resume = Resume {
        last_notified: None,
        next_id: 1,
    };

    /// The checkpoints taken but never notified: every id handed out after the last
    /// notified one (notifications arrive oldest first), oldest first.
    fn unnotified(&self) -> impl Iterator<Item = CheckpointId> {
        let first = self.last_notified.map_or(1, |c| c.id + 1);
        first..self.next_id
    }
}

/// The input log, read in place. Stage 01's `VecSource` owns its records, so every
/// attempt would first copy the whole input; a replay only needs to read it again.
struct Log<'r, T> {
    records: &'r [T],
    next: usize,
}

impl<T: Clone> Source for Log<'_, T> {
    type Item = T;

    fn poll(&mut self) -> Option<T> {
        let record = self.records.get(self.next)?.clone();
        self.next += 1;
        Some(record)
    }

    fn position(&self) -> Offset {
        self.next as Offset
    }

    fn seek(&mut self, offset: Offset) -> Result<()> {
        let len = self.records.len();
        if offset > len as Offset {
            bail!("seek: offset {offset} is past the end of the log ({len} records)");
        }
        self.next = offset as usize;
        Ok(())
    }
}

/// One attempt of the job: everything in here dies in a crash, except what it told the
/// sink.
struct Job<'r, 's, T, S> {
    cadence: Cadence,
    source: Log<'r, T>,
    sink: &'s mut S,
    // Taken, pre-committed, not yet notified; oldest first.
    in_flight: VecDeque<Checkpoint>,
    resume: Resume,
}

impl<'r, 's, T: Clone, S: TwoPhaseCommitSink<T>> Job<'r, 's, T, S> {
    /// An attempt over `records` from `resume`'s offset, writing into `sink`.
    fn start(records: &'r [T], resume: Resume, cadence: Cadence, sink: &'s mut S) -> Result<Self> {
        let mut source = Log { records, next: 0 };
        // A checkpoint's offset is a multiple of `barrier_every`, so the replay's
        // barriers fall where the dead attempt's fell.
        let from = resume.last_notified.map_or(0, |c| c.offset);
        source
            .seek(from)
            .with_context(|| format!("replaying from offset {from}"))?;
        Ok(Self {
            cadence,
            source,
            sink,
            in_flight: VecDeque::new(),
            resume,
        })
    }

    /// Writes records until the source position reaches `stop` or the input ends, with
    /// the barriers and notifications that fall on the way.
    fn process_until(&mut self, stop: usize) {
        let every = self.cadence.barrier_every as Offset;
        loop {
            // Epoch by epoch, so the barrier test is not a division per record.
            let barrier_at = (self.source.position() / every + 1) * every;
            let until = barrier_at.min(stop as Offset);
            while self.source.position() < until {
                let Some(record) = self.source.poll() else {
                    return;
                };
                self.sink.write(record);
            }
            if self.source.position() != barrier_at {
                return;
            }
            self.barrier();
        }
    }

    /// Phase one: the barrier seals the open transaction under the next checkpoint id.
    /// Phase two for the checkpoints this barrier's notifications complete: a checkpoint
    /// is notified `commit_lag` barriers after its own, oldest first.
    fn barrier(&mut self) {
        self.pre_commit();
        while self.in_flight.len() > self.cadence.commit_lag {
            self.commit_oldest();
        }
    }

    /// The end of the input: the trailing open transaction (empty or not) becomes a last
    /// checkpoint, and with nothing left to wait for every checkpoint completes.
    fn finish(mut self) {
        self.pre_commit();
        while !self.in_flight.is_empty() {
            self.commit_oldest();
        }
    }

    /// The crash: the attempt is gone; what survives says where to resume.
    fn crash(self) -> Resume {
        self.resume
    }

    fn pre_commit(&mut self) {
        let id = self.resume.next_id;
        self.resume.next_id += 1;
        self.sink.pre_commit(id);
        self.in_flight.push_back(Checkpoint {
            id,
            offset: self.source.position(),
        });
    }

    fn commit_oldest(&mut self) {
        if let Some(oldest) = self.in_flight.pop_front() {
            self.sink.commit(oldest.id);
            self.resume.last_notified = Some(oldest);
        }
    }
}
