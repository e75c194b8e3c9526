//! Stage 08 mutants of the job's barriers and notifications: no sink at all, commits
//! before or after their notification or out of order, a barrier or the final
//! pre-commit skipped, a reused checkpoint id.

use graders::stage08::{Case, Observation, TransactionalSinkStage, drive};
use rstest::rstest;

use super::expect_anomaly;

flawed_job! {
    /// **Mistake (the shortcut):** validate the arguments, then return the input; no sink,
    /// no protocol. The output is even right.
    /// **Verdict:** `protocol`, "no sink".
    shortcut, Shortcut, Shortcut, ShortcutSpy
}

flawed_job! {
    /// **Mistake:** commit at the barrier itself, whatever `commit_lag` says (the
    /// notification is assumed instant). Consistent enough to output each record once.
    /// **Verdict:** `protocol`, "visible before notification".
    ignore_lag, IgnoreLag, IgnoreLag, IgnoreLagSpy
}

flawed_job! {
    /// **Mistake:** off by one in the queue: commit when more than `commit_lag + 1` are
    /// pending.
    /// **Verdict:** `protocol`, "notification late".
    late_by_one, LateByOne, LateByOne, LateByOneSpy
}

flawed_job! {
    /// **Mistake:** the pending queue is a stack: a notification commits the newest pending
    /// checkpoint.
    /// **Verdict:** `protocol`, "notified out of order".
    newest_first, NewestFirst, NewestFirst, NewestFirstSpy
}

flawed_job! {
    /// **Mistake:** the barrier of record `k` is skipped when the job crashes after record
    /// `k` (the crash is checked before the barrier).
    /// **Verdict:** `protocol`, "missing barrier".
    crash_before_barrier, CrashBeforeBarrier, CrashEarly, CrashEarlySpy
}

flawed_job! {
    /// **Mistake:** the clean finish commits what is pending but never pre-commits the
    /// trailing open transaction.
    /// **Verdict:** `exactly-once`, "lost record".
    no_final_pre_commit, NoFinalPreCommit, NoFinal, NoFinalSpy
}

flawed_job! {
    /// **Mistake:** the final checkpoint reuses the id of the last barrier's checkpoint.
    /// **Verdict:** `protocol`, "reused checkpoint id".
    final_reuses_id, FinalReusesId, ReusedId, ReusedIdSpy
}

flawed_job! {
    /// **Mistake:** a notification commits the id the *next* barrier will take (the
    /// counter, already incremented) instead of the notified checkpoint's.
    /// **Verdict:** `protocol`, "commit of an id never pre-committed", at that commit
    /// (not at the later call that finds the checkpoint still pending).
    commits_next_id, CommitsNextId, NextId, NextIdSpy
}

/// Every mutant of this file, the check that must reject it, the anomaly and the
/// requirement of the brief its report must name, and its card (the mutant's doc comment
/// says why).
#[rstest]
#[case::commits_next_id(drive::<NextId>, "protocol", "commit of an id never pre-committed", "08-R9", "08-commit-the-counter")]
#[case::shortcut(drive::<Shortcut>, "protocol", "no sink", "08-R25", "08-output-needs-no-sink")]
#[case::ignore_lag(drive::<IgnoreLag>, "protocol", "visible before notification", "08-R23", "08-commit-at-the-barrier")]
#[case::late_by_one(drive::<LateByOne>, "protocol", "notification late", "08-R9", "08-notification-a-step-late")]
#[case::newest_first(drive::<NewestFirst>, "protocol", "notified out of order", "08-R9", "08-pending-is-a-stack")]
#[case::crash_before_barrier(drive::<CrashEarly>, "protocol", "missing barrier", "08-R11", "08-crash-skips-the-barrier")]
#[case::no_final_pre_commit(drive::<NoFinal>, "exactly-once", "lost record", "08-R22", "08-finish-commits-the-pending")]
#[case::final_reuses_id(drive::<ReusedId>, "protocol", "reused checkpoint id", "08-R18", "08-final-checkpoint-reuses-an-id")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] anomaly: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = super::rejects_for(drive, check, requirement);
    expect_anomaly(&report, check, anomaly);
    crate::cards::shows(&report, card);
}

/// Ignoring the lag reads as an early notification at its barrier.
#[test]
fn ignoring_the_lag_reads_visible_before_notification() {
    let report = crate::rejects::<TransactionalSinkStage>(drive::<IgnoreLag>, "protocol");
    crate::wordings::reads(
        &report,
        "protocol",
        [
            "run_exactly_once_sink_with(&[2], 1, crash_after, commit_lag, spy) at every crash point and lag 0..=2",
            "at the crash after record 1: records[..0] visible, the rest aborted; the fresh sink gets records[0..]",
            "visible before notification: output [2]",
            "with barrier_every = 1, crash_after = 1, commit_lag = 1: first sink, call 4 (AbortOpen): call 3 (Commit(1)) committed checkpoint 1 (barrier 1, after record 1) at barrier 1, the last before the crash, but with commit_lag = 1 its notification arrives at barrier 2\n      crash point x commit_lag (ok, or the anomaly):\n                lag 0     lag 1     lag 2\n      no crash  ok        ok        ok\n      after 0   ok        ok        ok\n      after 1   ok        EARLY     EARLY\n      reading it: only lag > 0 fails; at lag 0 a checkpoint is notified at its own barrier, so a mix-up of \"prepared\" and \"notified\" hides there (a commit before the notification, a commit instead of an abort at the crash, a replay from the last checkpoint taken, an off queue)\n      see it: cargo byo trace 08 --records 1 --barrier-every 1 --crash-after 1 --lag 1 --mine",
        ],
    );
}

/// A commit of an id never pre-committed is blamed on that commit.
#[test]
fn a_commit_of_an_unknown_id_reads_as_such() {
    let report = crate::rejects::<TransactionalSinkStage>(drive::<NextId>, "protocol");
    crate::wordings::reads(
        &report,
        "protocol",
        [
            "run_exactly_once_sink_with(&[2], 1, crash_after, commit_lag, spy) at every crash point and lag 0..=2",
            "every checkpoint committed when notified, the output = records",
            "commit of an id never pre-committed: output []",
            "with barrier_every = 1, crash_after = none, commit_lag = 0: first sink, call 3 (Commit(2)): committed checkpoint 2, which was never pre-committed on this sink (pre-committed so far: [1]): a commit names a checkpoint the sink has prepared\n      crash point x commit_lag (ok, or the anomaly):\n                lag 0     lag 1     lag 2\n      no crash  UNKNOWN   ok        ok\n      after 0   UNKNOWN   ok        ok\n      after 1   UNKNOWN   ok        ok\n      reading it: the run without a crash fails too; start with the normal run (writes, barriers, notifications, the final commit)\n      see it: cargo byo trace 08 --records 1 --barrier-every 1 --lag 0 --mine",
        ],
    );
}
