//! The exactly-once job: run, maybe crash, abort what was never notified (08-R13), replay
//! (08-R15).

use anyhow::Result;

use crate::{TransactionalSink, TwoPhaseCommitSink};

/// [`run_exactly_once_sink_with`] writing into [`TransactionalSink`]s.
///
/// # Errors
/// Those of [`run_exactly_once_sink_with`]: when `barrier_every` is 0 (08-R20) or
/// `crash_after` is past the end of `records` (08-R21).
pub fn run_exactly_once_sink<T: Clone>(
    records: &[T],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
) -> Result<Vec<T>> {
    run_exactly_once_sink_with(
        records,
        barrier_every,
        crash_after,
        commit_lag,
        TransactionalSink::new,
    )
}

/// Runs `records` into sinks made by `new_sink` with two-phase commit and returns the
/// visible output, as the sinks' `committed()` shows it (rows from before the job, and
/// those other writers commit beside it, included): the dead sink's at the crash
/// followed by the fresh sink's (08-R19).
///
/// A barrier follows every `barrier_every` records and pre-commits the open
/// transaction (08-R8); the notification of a checkpoint arrives `commit_lag` barriers
/// later and commits it (08-R9). Without a crash, the job finishes cleanly: it
/// pre-commits the trailing open transaction as one more checkpoint (or skips it when it
/// holds no record) and commits every pending one, oldest first (08-R10). `crash_after = Some(k)` kills the job once it has
/// processed `k` records, their barriers and the notifications those deliver included
/// (08-R11); recovery aborts the dead sink's open transaction (`abort_open()`, even when
/// it holds nothing) (08-R14) and its unnotified prepared ones, never to notify them
/// (08-R13), and only then makes a fresh sink with `new_sink` and replays into it from
/// the last notified checkpoint's offset (08-R15).
/// `Some(records.len())` is a crash too, after the last record and not a clean finish
/// (08-R12), and checkpoint ids keep counting across the restart (08-R17): none is ever
/// reused, and recovery aborts no id but the prepared ones' (08-R18).
///
/// # Errors
/// When `barrier_every` is 0 (08-R20) or `crash_after` is past the end of `records`
/// (08-R21), with a message that names the argument.
pub fn run_exactly_once_sink_with<T: Clone, S: TwoPhaseCommitSink<T>>(
    records: &[T],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
    new_sink: impl FnMut() -> S,
) -> Result<Vec<T>> {
    // TODO(stage 08): reject a `barrier_every` of 0 and a `crash_after` past the end
    // (name the argument in the error); write every record into the sink, pre-commit at
    // each barrier, commit the oldest pending checkpoint whenever more than `commit_lag`
    // are pending, and finish cleanly, or crash after `crash_after` records, abort what
    // was never notified, and replay from the last notified checkpoint into a fresh sink.
    let _ = (records, barrier_every, crash_after, commit_lag, new_sink);
    todo!()
}
