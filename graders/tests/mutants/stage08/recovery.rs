//! Stage 08 mutants of the job's crash handling, replay and argument checks: nothing or
//! too little aborted, a tail never committed, pending checkpoints flushed, a replay from
//! the wrong offset or into the dead sink, bad arguments accepted or refused without a
//! name.

use graders::stage08::{Case, Observation, TransactionalSinkStage, drive};
use rstest::rstest;

use super::expect_anomaly;
use crate::rejects;

flawed_job! {
    /// **Mistake:** recovery aborts nothing: the dead sink keeps its open and prepared
    /// transactions (in a real system, locks and staged data forever).
    /// **Verdict:** `protocol`, "not aborted".
    no_abort_on_crash, NoAbortOnCrash, NoAbortCrash, NoAbortCrashSpy
}

flawed_job! {
    /// **Mistake:** recovery aborts the open transaction but forgets the prepared ones
    /// whose checkpoints were never notified.
    /// **Verdict:** `protocol`, "not aborted".
    abort_only_open, AbortOnlyOpen, OnlyOpen, OnlyOpenSpy
}

flawed_job! {
    /// **Mistake:** the replay writes the tail into the fresh sink but never finishes: no
    /// last pre-commit, no commit of what the replay's checkpoints left pending.
    /// **Verdict:** `exactly-once`, "lost record"; `protocol`, "not committed at the end".
    tail_never_committed, TailNeverCommitted, NoTailCommit, NoTailCommitSpy
}

flawed_job! {
    /// **Mistake:** at the crash the job "flushes": it commits every pending checkpoint
    /// instead of aborting it.
    /// **Verdict:** `exactly-once`, "duplicate" (the replay writes them again), and
    /// `protocol`, "not aborted": "committed checkpoint 1 ... at the crash after record
    /// 1, though it was never notified ...: at the crash it must be aborted, not
    /// committed".
    commit_pending_on_crash, CommitPendingOnCrash, Flush, FlushSpy
}

flawed_job! {
    /// **Mistake:** the replay starts from the beginning of the input.
    /// **Verdict:** `exactly-once`, "duplicate"; `protocol`, "replay from the wrong offset".
    replay_from_zero, ReplayFromZero, FromZero, FromZeroSpy
}

flawed_job! {
    /// **Mistake:** the replay starts from the last checkpoint *taken*, which may never have
    /// been notified (stage 07's bug, one stage later).
    /// **Verdict:** `exactly-once`, "lost record"; `protocol`, "replay from the wrong offset".
    replay_from_last_taken, ReplayFromLastTaken, LastTaken, LastTakenSpy
}

flawed_job! {
    /// **Mistake:** the replay goes into the crashed sink instead of a fresh one.
    /// **Verdict:** `protocol`, "replay into the dead sink" (08-R15): after recovery's
    /// aborts, records, or with an empty input the final checkpoint, go to the dead
    /// attempt's sink.
    replay_into_old_sink, ReplayIntoOldSink, OldSink, OldSinkSpy
}

flawed_job! {
    /// **Mistake:** "a fresh sink is a fresh system": the replay numbers its checkpoints
    /// from 1 again, so its first pre-commit reuses an id the dead sink was given.
    /// **Verdict:** `protocol`, "reused checkpoint id".
    replay_restarts_ids, ReplayRestartsIds, RestartIds, RestartIdsSpy
}

flawed_job! {
    /// **Mistake:** the replay numbers its checkpoints from the one after the last
    /// notified checkpoint, reusing the ids of the transactions the crash aborted.
    /// **Verdict:** `protocol`, "reused checkpoint id".
    replay_reuses_aborted_ids, ReplayReusesAbortedIds, ReuseAborted, ReuseAbortedSpy
}

flawed_job! {
    /// **Mistake:** recovery skips `new_sink()` when nothing is left to replay, as if a
    /// crash after the last notified checkpoint were a clean finish.
    /// **Verdict:** `protocol`, "no fresh sink".
    no_fresh_sink_when_nothing_left, NoFreshSinkWhenNothingLeft, NoFresh, NoFreshSpy
}

flawed_job! {
    /// **Mistake:** the replay pre-commits its final transaction but forgets to queue it,
    /// so it is never committed (empty or not).
    /// **Verdict:** `protocol`, "not committed at the end"; on the smallest input the
    /// leftover is empty, and the report says "pre-committed but never committed", not
    /// "written".
    replay_final_left_prepared, ReplayFinalLeftPrepared, LeftPrepared, LeftPreparedSpy
}

// Bad input.

flawed_job! {
    /// **Mistake:** no check of `barrier_every`: `position % 0` panics on any record, and
    /// an empty input is accepted.
    /// **Verdict:** `bad-input`, "accepted bad input" on the empty input (the smallest case).
    no_barrier_check, NoBarrierCheck, DivZero, DivZeroSpy
}

flawed_job! {
    /// **Mistake:** a crash point past the end is silently treated as no crash.
    /// **Verdict:** `bad-input`, "accepted bad input".
    clamp_crash, ClampCrash, Clamp, ClampSpy
}

flawed_job! {
    /// **Mistake:** bad arguments are refused with a message that does not say which.
    /// **Verdict:** `bad-input`, "error does not name the argument".
    unnamed_error, UnnamedError, Unnamed, UnnamedSpy
}

flawed_job! {
    /// **Mistake:** the job knows its crash point (`crash_after`), so it makes the
    /// replay's sink at the start, beside the first: a second connection held open through
    /// the whole first attempt, which a real job, unable to foresee its crash, never has.
    /// **Verdict:** `protocol`, "fresh sink made before the crash" (08-R25).
    fresh_sink_up_front, FreshSinkUpFront, UpFront, UpFrontSpy
}

flawed_job! {
    /// **Mistake:** recovery replays into the fresh sink first and aborts the dead sink's
    /// open and unnotified transactions afterwards, while a real system would still hold
    /// their locks against the replay's writes.
    /// **Verdict:** `protocol`, "replay before the aborts" (08-R15).
    abort_after_replay, AbortAfterReplay, AbortLate, AbortLateSpy
}

flawed_job! {
    /// **Mistake:** `crash_after` is checked only once the first attempt has run ("the
    /// crash point is only needed at the crash"): the run writes, pre-commits and commits
    /// every record, then returns the error.
    /// **Verdict:** `bad-input`: the right error, after writes on a sink (08-R26).
    crash_checked_late, CrashCheckedLate, CheckedLate, CheckedLateSpy
}

flawed_job! {
    /// **Mistake:** recovery makes the fresh sink first and then aborts the dead sink's
    /// open and unnotified transactions ("the replay has not started yet"), while a real
    /// sink's new connection would wait on the locks those transactions still hold.
    /// **Verdict:** `protocol`, "replay before the aborts" (08-R15).
    fresh_sink_before_aborts, FreshSinkBeforeAborts, SinkFirst, SinkFirstSpy
}

flawed_job! {
    /// **Mistake:** "exactly once means the output is the input": the job runs the
    /// protocol but returns a copy of its records instead of what the sinks show.
    /// **Verdict:** `contract`, "result not from the sinks" (08-R19), once the sinks
    /// already show rows from before the job.
    output_from_the_records, OutputFromTheRecords, FromRecords, FromRecordsSpy
}

flawed_job! {
    /// **Mistake:** the replay resumes at the number of rows the dead sink shows, taking
    /// `committed().len()` for the offset of the last notified checkpoint: equal as long as
    /// the sink started empty.
    /// **Verdict:** `contract`, "replay from the wrong offset" (08-R15), once the sinks
    /// already show rows from before the job.
    replay_from_what_the_sink_shows, ReplayFromWhatTheSinkShows, FromShown, FromShownSpy
}

flawed_job! {
    /// **Mistake:** the replay resumes at the number of rows the dead sink gained since the
    /// job made it, taking every row beyond those it showed at the start for one of the
    /// job's: right until another writer commits to the same table while the job runs.
    /// **Verdict:** `contract`, "replay from the wrong offset" (08-R15), once another
    /// writer commits between the job's commits.
    replay_from_what_the_job_added, ReplayFromWhatTheJobAdded, FromAdded, FromAddedSpy
}

flawed_job! {
    /// **Mistake:** the replay keeps the dead job's queue of pending checkpoints (aborted
    /// all the same), so its first notifications ask the fresh sink to commit checkpoints
    /// recovery aborted. The output is right: the fresh sink never prepared those ids.
    /// **Verdict:** `protocol`, "aborted checkpoint notified" (08-R13).
    replay_inherits_pending, ReplayInheritsPending, Inherits, InheritsSpy
}

flawed_job! {
    /// **Mistake:** recovery aborts the unnotified ids up to and including the next one,
    /// which no transaction holds yet: the in-memory sink ignores it, but the replay then
    /// pre-commits an id the external system remembers as aborted.
    /// **Verdict:** `protocol`, "reused checkpoint id" (08-R18).
    aborts_the_next_id, AbortsTheNextId, NextAborted, NextAbortedSpy
}

flawed_job! {
    /// **Mistake:** recovery aborts from the last notified checkpoint on, that one included
    /// (an off-by-one in "the first unnotified id"): the committed checkpoint, or id 0 when
    /// none was notified.
    /// **Verdict:** `protocol`, "abort of an id not prepared" (08-R18).
    aborts_from_the_last_notified, AbortsFromTheLastNotified, FromLastNotified, FromLastNotifiedSpy
}

flawed_job! {
    /// **Mistake:** recovery aborts the dead job's unnotified ids on the dead sink and then
    /// on the fresh one as well ("the same system behind a new connection"), which never
    /// pre-committed them.
    /// **Verdict:** `protocol`, "abort of an id not prepared" (08-R18).
    aborts_on_the_fresh_sink_too, AbortsOnTheFreshSinkToo, FreshToo, FreshTooSpy
}

flawed_job! {
    /// **Mistake:** the replay numbers its first checkpoint "one after the last
    /// pre-committed", taking 1 for the last when none was: after a crash before the
    /// first barrier, the replay starts at 2.
    /// **Verdict:** `protocol`, "replay ids do not count on" (08-R17).
    replay_ids_from_two, ReplayIdsFromTwo, FromTwo, FromTwoSpy
}

flawed_job! {
    /// **Mistake:** the job calls `abort_open()` after every pre-commit, to release the
    /// connection of the new, empty, open transaction, and recovery skips its own when the
    /// crash falls on a barrier ("it was just aborted"); but that barrier's pre-commit,
    /// and the commits it released, came after it, and the open transaction is held again.
    /// **Verdict:** `protocol`, "not aborted" (08-R14).
    abort_open_at_barrier, AbortOpenAtBarrier, OpenAtBarrier, OpenAtBarrierSpy
}

flawed_job! {
    /// **Mistake:** the commit lag is kept as a `u32`: a lag of `2^32` reads as 0, and
    /// every checkpoint is committed at its own barrier.
    /// **Verdict:** `contract`, "visible before notification" (08-R23).
    lag_as_u32, LagAsU32, LagU32, LagU32Spy
}

flawed_job! {
    /// **Mistake:** `barrier_every` is kept as a `u32` (at least 1): `2^32` reads as 0,
    /// then 1, and a barrier follows every record.
    /// **Verdict:** `contract`, "pre-commit off a barrier" (08-R8).
    barrier_every_as_u32, BarrierEveryAsU32, BarrierU32, BarrierU32Spy
}

flawed_job! {
    /// **Mistake:** `crash_after` is compared with the input's length as a `u32`: `2^32`
    /// reads as 0 and passes the check.
    /// **Verdict:** `bad-input`, "accepted bad input" (08-R21).
    crash_checked_as_u32, CrashCheckedAsU32, CrashU32, CrashU32Spy
}

/// Refused for its arguments only after the job published records, ids from 2, counts
/// squeezed into a `u32` (no card: slips, not beliefs about the protocol).
#[rstest]
#[case::crash_checked_late(drive::<CheckedLate>, "bad-input", "08-R26")]
#[case::replay_ids_from_two(drive::<FromTwo>, "protocol", "08-R17")]
#[case::lag_as_u32(drive::<LagU32>, "contract", "08-R23")]
#[case::barrier_every_as_u32(drive::<BarrierU32>, "contract", "08-R8")]
#[case::crash_checked_as_u32(drive::<CrashU32>, "bad-input", "08-R21")]
fn is_rejected_without_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<TransactionalSinkStage>(drive, check, requirement);
}

/// Every mutant of this file, the check that must reject it, the anomaly and the
/// requirement of the brief its report must name, and its card (the mutant's doc comment
/// says why).
#[rstest]
#[case::replay_final_left_prepared(drive::<LeftPrepared>, "protocol", "not committed at the end", "08-R15", "08-replay-needs-no-commit")]
#[case::no_abort_on_crash(drive::<NoAbortCrash>, "protocol", "not aborted", "08-R14", "08-an-empty-transaction-needs-no-abort")]
#[case::abort_only_open(drive::<OnlyOpen>, "protocol", "not aborted", "08-R13", "08-prepared-is-committed")]
#[case::tail_never_committed_loses(drive::<NoTailCommit>, "exactly-once", "lost record", "08-R22", "08-replay-needs-no-commit")]
#[case::tail_never_committed(drive::<NoTailCommit>, "protocol", "not committed at the end", "08-R15", "08-replay-needs-no-commit")]
#[case::commit_pending_on_crash_duplicates(drive::<Flush>, "exactly-once", "duplicate", "08-R22", "08-flush-at-the-crash")]
#[case::commit_pending_on_crash_is_not_aborted(drive::<Flush>, "protocol", "not aborted", "08-R13", "08-flush-at-the-crash")]
#[case::replay_from_zero_duplicates(drive::<FromZero>, "exactly-once", "duplicate", "08-R22", "08-replay-from-the-start")]
#[case::replay_from_zero(drive::<FromZero>, "protocol", "replay from the wrong offset", "08-R15", "08-replay-from-the-start")]
#[case::replay_from_last_taken_loses(drive::<LastTaken>, "exactly-once", "lost record", "08-R22", "08-replay-from-the-last-taken")]
#[case::replay_from_last_taken(drive::<LastTaken>, "protocol", "replay from the wrong offset", "08-R15", "08-replay-from-the-last-taken")]
#[case::replay_into_old_sink(drive::<OldSink>, "protocol", "replay into the dead sink", "08-R15", "08-the-old-sink-lives-on")]
#[case::replay_restarts_ids(drive::<RestartIds>, "protocol", "reused checkpoint id", "08-R18", "08-fresh-sink-fresh-ids")]
#[case::replay_reuses_aborted_ids(drive::<ReuseAborted>, "protocol", "reused checkpoint id", "08-R18", "08-aborted-ids-are-free")]
#[case::no_fresh_sink_when_nothing_left(drive::<NoFresh>, "protocol", "no fresh sink", "08-R16", "08-no-replay-no-recovery")]
#[case::no_barrier_check(drive::<DivZero>, "bad-input", "accepted bad input", "08-R20", "08-barrier-every-is-trusted")]
#[case::clamp_crash(drive::<Clamp>, "bad-input", "accepted bad input", "08-R21", "08-crash-past-the-end-is-no-crash")]
#[case::fresh_sink_up_front(drive::<UpFront>, "protocol", "fresh sink made before the crash", "08-R25", "08-fresh-sink-up-front")]
#[case::abort_after_replay(drive::<AbortLate>, "protocol", "replay before the aborts", "08-R15", "08-aborts-can-wait")]
#[case::unnamed_error(drive::<Unnamed>, "bad-input", "error does not name the argument", "08-R20", "08-any-error-will-do")]
#[case::fresh_sink_before_aborts(drive::<SinkFirst>, "protocol", "replay before the aborts", "08-R15", "08-aborts-can-wait")]
#[case::output_from_the_records(drive::<FromRecords>, "contract", "result not from the sinks", "08-R19", "08-output-is-the-input")]
#[case::replay_from_what_the_sink_shows(drive::<FromShown>, "contract", "replay from the wrong offset", "08-R15", "08-resume-after-what-the-sink-shows")]
#[case::replay_from_what_the_job_added(drive::<FromAdded>, "contract", "replay from the wrong offset", "08-R15", "08-resume-after-what-the-sink-shows")]
#[case::abort_open_at_barrier(drive::<OpenAtBarrier>, "protocol", "not aborted", "08-R14", "08-an-empty-transaction-needs-no-abort")]
#[case::replay_inherits_pending(drive::<Inherits>, "protocol", "aborted checkpoint notified", "08-R13", "08-owed-notifications-survive-the-crash")]
#[case::aborts_the_next_id(drive::<NextAborted>, "protocol", "reused checkpoint id", "08-R18", "08-one-abort-too-many-is-harmless")]
#[case::aborts_from_the_last_notified(drive::<FromLastNotified>, "protocol", "abort of an id not prepared", "08-R18", "08-abort-more-to-be-safe")]
#[case::aborts_on_the_fresh_sink_too(drive::<FreshToo>, "protocol", "abort of an id not prepared", "08-R18", "08-abort-more-to-be-safe")]
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

/// Flushing at the crash reads "not aborted", at the crash, not an early notification.
#[test]
fn a_flush_at_the_crash_reads_not_aborted() {
    let report = rejects::<TransactionalSinkStage>(drive::<Flush>, "protocol");
    crate::wordings::reads(
        &report,
        "protocol",
        [
            "run_exactly_once_sink_with(&[2], 1, crash_after, commit_lag, spy) at every crash point and lag 0..=2",
            "at the crash after record 1: records[..0] visible, the rest aborted; the fresh sink gets records[0..]",
            "not aborted: output [2, 2]",
            "with barrier_every = 1, crash_after = 1, commit_lag = 1: first sink, after its last call: call 4 (Commit(1)) committed checkpoint 1 (barrier 1, after record 1) at the crash after record 1, though it was never notified (with commit_lag = 1 its notification would arrive at barrier 2), where recovery aborts it: at the crash it must be aborted, not committed\n      crash point x commit_lag (ok, or the anomaly):\n                lag 0     lag 1     lag 2\n      no crash  ok        ok        ok\n      after 0   ok        ok        ok\n      after 1   ok        NOABORT   NOABORT\n      reading it: only lag > 0 fails; at lag 0 a checkpoint is notified at its own barrier, so a mix-up of \"prepared\" and \"notified\" hides there (a commit before the notification, a commit instead of an abort at the crash, a replay from the last checkpoint taken, an off queue)\n      see it: cargo byo trace 08 --records 1 --barrier-every 1 --crash-after 1 --lag 1 --mine",
        ],
    );
}

/// A replay that numbers its checkpoints from 1 again names the reused id.
#[test]
fn a_reused_id_reads_as_such() {
    let report = rejects::<TransactionalSinkStage>(drive::<RestartIds>, "protocol");
    crate::wordings::reads(
        &report,
        "protocol",
        [
            "run_exactly_once_sink_with(&[2], 1, crash_after, commit_lag, spy) at every crash point and lag 0..=2",
            "at the crash after record 1: records[..1] visible, the rest aborted; the fresh sink gets records[1..]",
            "reused checkpoint id: output [2]",
            "with barrier_every = 1, crash_after = 1, commit_lag = 0: fresh sink, call 1 (PreCommit(1)): pre-committed checkpoint id 1, which the first sink was already given before the crash: ids keep counting across the restart and are never reused\n      crash point x commit_lag (ok, or the anomaly):\n                lag 0     lag 1     lag 2\n      no crash  ok        ok        ok\n      after 0   ok        ok        ok\n      after 1   REUSED    REUSED    REUSED\n      reading it: only crashes fail, at lag 0 too; look at the crash handling and the replay (what is aborted, the fresh sink, where the replay starts, its ids)\n      see it: cargo byo trace 08 --records 1 --barrier-every 1 --crash-after 1 --lag 0 --mine",
        ],
    );
}

/// Skipping `new_sink()` with nothing to replay says that a crash is a crash.
#[test]
fn no_fresh_sink_reads_a_crash_is_a_crash() {
    let report = rejects::<TransactionalSinkStage>(drive::<NoFresh>, "protocol");
    crate::wordings::reads(
        &report,
        "protocol",
        [
            "run_exactly_once_sink_with(&[], 1, crash_after, commit_lag, spy) at every crash point and lag 0..=2",
            "at the crash after record 0: records[..0] visible, the rest aborted; the fresh sink gets records[0..]",
            "no fresh sink: output []",
            "with barrier_every = 1, crash_after = 0, commit_lag = 0: after the crash after record 0, no fresh sink was created: a crash is a crash even when nothing is left to replay, and recovery still calls new_sink()\n      crash point x commit_lag (ok, or the anomaly):\n                lag 0     lag 1     lag 2\n      no crash  ok        ok        ok\n      after 0   NOFRESH   NOFRESH   NOFRESH\n      reading it: only crashes fail, at lag 0 too; look at the crash handling and the replay (what is aborted, the fresh sink, where the replay starts, its ids)\n      see it: cargo byo trace 08 --records 0 --barrier-every 1 --crash-after 0 --lag 0 --mine",
        ],
    );
}

/// An empty transaction left prepared reads as such, not as records "written".
#[test]
fn an_empty_leftover_reads_pre_committed_not_written() {
    let report = rejects::<TransactionalSinkStage>(drive::<LeftPrepared>, "protocol");
    crate::wordings::reads(
        &report,
        "protocol",
        [
            "run_exactly_once_sink_with(&[], 1, crash_after, commit_lag, spy) at every crash point and lag 0..=2",
            "at the crash after record 0: records[..0] visible, the rest aborted; the fresh sink gets records[0..]",
            "not committed at the end: output []",
            "with barrier_every = 1, crash_after = 0, commit_lag = 0: the fresh sink ended with checkpoint(s) [1] pre-committed but never committed; they hold no record, but every prepared transaction must end committed (or aborted)\n      crash point x commit_lag (ok, or the anomaly):\n                lag 0     lag 1     lag 2\n      no crash  ok        ok        ok\n      after 0   UNCOMM    UNCOMM    UNCOMM\n      reading it: only crashes fail, at lag 0 too; look at the crash handling and the replay (what is aborted, the fresh sink, where the replay starts, its ids)\n      see it: cargo byo trace 08 --records 0 --barrier-every 1 --crash-after 0 --lag 0 --mine",
        ],
    );
}
