//! A second, compact stage-08 job for the mistakes written from the brief alone (the
//! round after [`super::template`]): the protocol with one slip, switched by `SLIP`, and
//! correct but unusual choices the brief allows.

use std::collections::VecDeque;

use anyhow::{Result, ensure};
use solution08::{CheckpointId, TwoPhaseCommitSink};

pub const NONE: u8 = 0;
/// The clean finish commits the pending checkpoints newest first.
pub const FINISH_NEWEST_FIRST: u8 = 1;
/// At the crash point's barrier the job pre-commits, then dies before the commits the
/// barrier releases.
pub const CRASH_BETWEEN_PHASES: u8 = 2;
/// Recovery aborts only the newest unnotified checkpoint.
pub const ABORT_ONLY_NEWEST: u8 = 3;
/// Recovery aborts only the oldest unnotified checkpoint.
pub const ABORT_ONLY_OLDEST: u8 = 4;
/// The output is the fresh sink's visible records, then the dead sink's.
pub const RESULT_FRESH_FIRST: u8 = 5;
/// `abort_open()` goes to the fresh sink, not the dead one.
pub const ABORT_OPEN_ON_FRESH: u8 = 6;
/// `crash_after >= len` refused: `Some(len)` is an error.
pub const CRASH_CHECK_GE: u8 = 7;
/// The replay starts at the offset of the barrier that delivered the last notification.
pub const REPLAY_FROM_NOTIFYING_BARRIER: u8 = 8;
/// The replay's first id is the last notified one plus `commit_lag` plus one.
pub const IDS_BY_LAG: u8 = 9;
/// The unnotified transactions are aborted through the fresh sink, not the dead one.
pub const ABORT_ON_FRESH: u8 = 10;
/// A crash before the first record creates no first sink: the only sink is the replay's.
pub const NO_SINK_BEFORE_THE_FIRST_RECORD: u8 = 11;
/// Checkpoint ids count from 0, not 1.
pub const IDS_FROM_ZERO: u8 = 12;
/// The replay's sink is made up front, beside the first one, crash or not.
pub const FRESH_SINK_UP_FRONT: u8 = 13;
/// An empty input returns at once, after the argument checks: no sink, no crash.
pub const EMPTY_INPUT_RETURNS_EARLY: u8 = 14;
/// The replay's finish commits its pending checkpoints newest first (the first run's
/// finish is right).
pub const REPLAY_NEWEST_FIRST: u8 = 15;
/// A probe sink is made, and dropped, before the first one ("check the connection").
pub const PROBE_SINK: u8 = 16;
/// At each barrier the commits it releases come before its pre-commit (at lag 1 and
/// more).
pub const COMMITS_BEFORE_PRE_COMMIT: u8 = 17;
/// Recovery aborts every id ever pre-committed, the notified ones too (08-R18).
pub const ABORT_EVERY_ID: u8 = 20;
/// Correct: after the crash the last notification arrives again, then the aborts, newest
/// first, then `abort_open()`.
pub const DUPLICATE_NOTIFICATION: u8 = 21;
/// Recovery's aborts run twice, "to be sure" (08-R18).
pub const ABORT_TWICE: u8 = 22;
/// The replay's ids after its first step by two (08-R17).
pub const REPLAY_IDS_BY_TWO: u8 = 23;
/// At most four checkpoints pending: past that the oldest is committed early (08-R23).
pub const AT_MOST_FOUR_PENDING: u8 = 25;
/// At most 32 checkpoints pending, a "max concurrent checkpoints" (08-R23).
pub const AT_MOST_32_PENDING: u8 = 26;
/// The replay takes its checkpoints but commits them only at its end, "catching up"
/// (08-R9).
pub const REPLAY_COMMITS_AT_THE_END: u8 = 27;

struct Job<'a, S, const F: u8> {
    sink: &'a mut S,
    every: usize,
    lag: usize,
    next_id: CheckpointId,
    pending: VecDeque<(CheckpointId, usize)>,
    /// The last notified checkpoint: its id and offset (and the notifying barrier's).
    notified: (CheckpointId, usize, usize),
    /// Whether this is the replay into the fresh sink (read by `REPLAY_NEWEST_FIRST`).
    replaying: bool,
}

impl<S, const F: u8> Job<'_, S, F> {
    fn run<T: Clone>(&mut self, records: &[T], from: usize, to: usize, crash: bool)
    where
        S: TwoPhaseCommitSink<T>,
    {
        for (i, record) in records.iter().enumerate().take(to).skip(from) {
            self.sink.write(record.clone());
            let position = i + 1;
            if !position.is_multiple_of(self.every) {
                continue;
            }
            if F == COMMITS_BEFORE_PRE_COMMIT && self.lag > 0 {
                // "The notification of the older checkpoint arrives with this barrier":
                // delivered before the barrier's own checkpoint is queued.
                while self.pending.len() >= self.lag {
                    let Some((id, offset)) = self.pending.pop_front() else {
                        break;
                    };
                    self.sink.commit(id);
                    self.notified = (id, offset, position);
                }
            }
            let id = self.next_id;
            self.next_id += if F == REPLAY_IDS_BY_TWO && self.replaying {
                2
            } else {
                1
            };
            self.sink.pre_commit(id);
            self.pending.push_back((id, position));
            if F == CRASH_BETWEEN_PHASES && crash && position == to {
                return;
            }
            let lag = match F {
                AT_MOST_FOUR_PENDING => self.lag.min(4),
                AT_MOST_32_PENDING => self.lag.min(32),
                _ => self.lag,
            };
            while self.pending.len() > lag {
                let Some((id, offset)) = self.pending.pop_front() else {
                    break;
                };
                self.sink.commit(id);
                self.notified = (id, offset, position);
            }
        }
    }

    fn finish<T>(&mut self, len: usize)
    where
        S: TwoPhaseCommitSink<T>,
    {
        let id = self.next_id;
        self.next_id += 1;
        self.sink.pre_commit(id);
        self.pending.push_back((id, len));
        let mut left: Vec<_> = self.pending.drain(..).collect();
        if F == FINISH_NEWEST_FIRST || (F == REPLAY_NEWEST_FIRST && self.replaying) {
            left.reverse();
        }
        for (id, _) in left {
            self.sink.commit(id);
        }
    }
}

/// The protocol with slip `F`.
pub fn run<T: Clone, S: TwoPhaseCommitSink<T>, const F: u8>(
    records: &[T],
    every: usize,
    crash_after: Option<usize>,
    lag: usize,
    mut new_sink: impl FnMut() -> S,
) -> Result<Vec<T>> {
    let len = records.len();
    ensure!(every > 0, "barrier_every must be positive");
    if let Some(k) = crash_after {
        let past = if F == CRASH_CHECK_GE {
            k >= len
        } else {
            k > len
        };
        ensure!(!past, "crash_after = {k} is past the end ({len} records)");
    }
    if F == NO_SINK_BEFORE_THE_FIRST_RECORD && crash_after == Some(0) {
        let mut sink = new_sink();
        let mut job = Job::<S, F> {
            sink: &mut sink,
            every,
            lag,
            next_id: 1,
            pending: VecDeque::new(),
            notified: (0, 0, 0),
            replaying: false,
        };
        job.run(records, 0, len, false);
        job.finish(len);
        return Ok(sink.committed().to_vec());
    }
    if F == EMPTY_INPUT_RETURNS_EARLY && records.is_empty() {
        return Ok(Vec::new());
    }
    if F == PROBE_SINK {
        drop(new_sink());
    }
    let mut sink = new_sink();
    let mut made_up_front = (F == FRESH_SINK_UP_FRONT).then(&mut new_sink);
    let mut job = Job::<S, F> {
        sink: &mut sink,
        every,
        lag,
        next_id: if F == IDS_FROM_ZERO { 0 } else { 1 },
        pending: VecDeque::new(),
        notified: (0, 0, 0),
        replaying: false,
    };
    let Some(k) = crash_after else {
        job.run(records, 0, len, false);
        job.finish(len);
        return Ok(sink.committed().to_vec());
    };
    job.run(records, 0, k, true);
    let (next_id, notified) = (job.next_id, job.notified);
    let mut unnotified: Vec<CheckpointId> = job.pending.iter().map(|(id, _)| *id).collect();
    match F {
        ABORT_ONLY_NEWEST => unnotified = unnotified.pop().into_iter().collect(),
        ABORT_ONLY_OLDEST => unnotified.truncate(1),
        ABORT_EVERY_ID => unnotified = (1..next_id).collect(),
        _ => {}
    }
    if F == DUPLICATE_NOTIFICATION {
        if notified.0 > 0 {
            sink.commit(notified.0);
        }
        unnotified.reverse();
    } else if F != ABORT_OPEN_ON_FRESH {
        sink.abort_open();
    }
    if F != ABORT_ON_FRESH {
        for &id in &unnotified {
            sink.abort(id);
        }
    }
    if F == ABORT_TWICE {
        for &id in &unnotified {
            sink.abort(id);
        }
    }
    if F == DUPLICATE_NOTIFICATION {
        sink.abort_open();
    }
    // The fresh sink comes once the dead sink's aborts are done (08-R15).
    let mut fresh = made_up_front.take().unwrap_or_else(&mut new_sink);
    if F == ABORT_ON_FRESH {
        for &id in &unnotified {
            fresh.abort(id);
        }
    }
    if F == ABORT_OPEN_ON_FRESH {
        fresh.abort_open();
    }
    let from = if F == REPLAY_FROM_NOTIFYING_BARRIER {
        notified.2
    } else {
        notified.1
    };
    let first_id = if F == IDS_BY_LAG {
        notified.0.saturating_add(lag as u64).saturating_add(1)
    } else {
        next_id
    };
    let mut replay = Job::<S, F> {
        sink: &mut fresh,
        every,
        lag: if F == REPLAY_COMMITS_AT_THE_END {
            usize::MAX
        } else {
            lag
        },
        next_id: first_id,
        pending: VecDeque::new(),
        notified,
        replaying: true,
    };
    replay.run(records, from, len, false);
    replay.finish(len);
    let (dead, fresh) = (sink.committed().to_vec(), fresh.committed().to_vec());
    Ok(if F == RESULT_FRESH_FIRST {
        [fresh, dead].concat()
    } else {
        [dead, fresh].concat()
    })
}
