//! Stage 08 mutants of the rules the other files leave without a mutant of their own: an
//! empty open transaction left unaborted, a crash after the last record finished as if
//! clean, replay ids that skip one, a result that forgets the first sink, a checkpoint
//! off the barriers, writes held back, visible output in id order, and lag arithmetic
//! that overflows. No learner belief explains these better than the requirement's own
//! sentence, so they show no card.

use graders::stage08::{Case, Observation, drive};
use rstest::rstest;

use super::expect_anomaly;

flawed_job! {
    /// **Mistake:** recovery calls `abort_open()` only when records were written since
    /// the last barrier: an empty open transaction looks like nothing to abort, but a
    /// real system still holds a connection for it.
    /// **Verdict:** `protocol`, "not aborted": "abort_open() was never called on the dead
    /// sink".
    abort_open_only_when_non_empty, AbortOpenOnlyWhenNonEmpty, AbortWhenNonEmpty,
    AbortWhenNonEmptySpy
}

flawed_job! {
    /// **Mistake:** a crash after the last record finishes cleanly (trailing pre-commit,
    /// final commits) before it dies, where `Some(records.len())` is a crash, not a clean
    /// finish.
    /// **Verdict:** `protocol`, "sink used past the crash", on the empty input with
    /// `crash_after = Some(0)`.
    crash_at_the_end_finishes, CrashAtTheEndFinishes, FinishAtTheEnd, FinishAtTheEndSpy
}

flawed_job! {
    /// **Mistake:** the replay skips one id, keeping the one the aborted open transaction
    /// would have sealed, where the replay's first checkpoint takes the id after the last
    /// one pre-committed.
    /// **Verdict:** `protocol`, "replay ids do not count on".
    replay_ids_skip_one, ReplayIdsSkipOne, SkipOne, SkipOneSpy
}

flawed_job! {
    /// **Mistake:** after a crash the job returns only what the fresh sink made visible,
    /// forgetting what the first sink had published before the crash.
    /// **Verdict:** `protocol`, "result not from the sinks".
    result_from_the_fresh_sink_only, ResultFromTheFreshSinkOnly, FreshOnly, FreshOnlySpy
}

flawed_job! {
    /// **Mistake:** a checkpoint is taken before the first record, as if offset 0 had a
    /// barrier.
    /// **Verdict:** `protocol`, "pre-commit off a barrier".
    checkpoint_before_the_first_record, CheckpointBeforeTheFirstRecord, AtZero, AtZeroSpy
}

flawed_job! {
    /// **Mistake:** records are held back and written at their barrier or at the end of
    /// the input (newest first, off a stack), where the job writes each record in order
    /// as it comes: those after the last barrier before a crash are never written.
    /// **Verdict:** `protocol`, "records never written", on one record, no barrier, a
    /// crash after it.
    writes_at_the_barrier, WritesAtTheBarrier, AtTheBarrier, AtTheBarrierSpy
}

flawed_job! {
    /// **Mistake:** a notification is due once `commit_lag + 1` checkpoints are pending,
    /// computed with a plain `+`: right for every lag but `usize::MAX`, where it
    /// overflows.
    /// **Verdict:** only `contract` fails: "panicked" at lag `usize::MAX`.
    lag_arithmetic, LagArithmetic, LagPlusOne, LagPlusOneSpy
}

flawed_sink! {
    /// **Mistake:** `committed()` lists the committed transactions by checkpoint id, where
    /// the brief's visible output is in commit order.
    /// **Verdict:** `sink-model`, "sink breaks the contract": after `commit(2)` then
    /// `commit(1)` the records of 1 come first.
    committed_in_id_order, CommittedInIdOrder, IdOrder, IdOrderSpy
}

/// Every mutant of this file, the check that must reject it, the anomaly its report must
/// name, the requirement of the brief its smallest failure names and the misconception
/// card its report shows. No card where the first failure is another mistake's (a crash
/// at the end finished cleanly, as a sink used past the crash) nor for a slip (a replay
/// id off by one, `commit_lag + 1` overflowing).
#[rstest]
#[case::abort_open_skipped_when_empty(drive::<AbortWhenNonEmpty>, "protocol", "not aborted", "08-R14", Some("08-an-empty-transaction-needs-no-abort"))]
#[case::crash_at_the_end_finished_cleanly(drive::<FinishAtTheEnd>, "protocol", "sink used past the crash", "08-R12", None)]
#[case::replay_ids_skip_one(drive::<SkipOne>, "protocol", "replay ids do not count on", "08-R17", None)]
#[case::result_from_the_fresh_sink_only(drive::<FreshOnly>, "protocol", "result not from the sinks", "08-R19", Some("08-result-is-the-replay"))]
#[case::checkpoint_before_the_first_record(drive::<AtZero>, "protocol", "pre-commit off a barrier", "08-R8", Some("08-checkpoint-at-the-start"))]
#[case::records_held_until_the_barrier(drive::<AtTheBarrier>, "protocol", "records never written", "08-R7", Some("08-write-at-the-barrier"))]
#[case::no_final_pre_commit_in_the_protocol(drive::<crate::stage08::notifications::NoFinal>, "protocol", "not committed at the end", "08-R10", Some("08-finish-commits-the-pending"))]
#[case::lag_arithmetic_overflows(drive::<LagPlusOne>, "contract", "panicked", "08-R22", None)]
#[case::committed_in_id_order(drive::<IdOrder>, "sink-model", "sink breaks the contract", "08-R6", Some("08-output-in-id-order"))]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] anomaly: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report = super::rejects_for(drive, check, requirement);
    expect_anomaly(&report, check, anomaly);
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}

/// Mutants whose smallest cases look like another mistake's card: replay ids one past
/// the right ones, as `08-fresh-sink-fresh-ids`'s ids are off; a lag whose arithmetic
/// overflows fails where `08-notification-a-step-late` counts the lag wrong; a crash at
/// the end finished cleanly uses the dead sink past the crash, as
/// `08-the-old-sink-lives-on` does. No card may be shown for them.
#[rstest]
#[case::replay_ids_skip_one(drive::<SkipOne>, "protocol", "08-R17")]
#[case::lag_arithmetic_overflows(drive::<LagPlusOne>, "contract", "08-R22")]
#[case::crash_at_the_end_finished_cleanly(drive::<FinishAtTheEnd>, "protocol", "08-R12")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    let report = super::rejects_for(drive, check, requirement);
    crate::cards::none_shown(&report);
}
