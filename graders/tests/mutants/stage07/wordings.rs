//! The wording of stage-07 reports, pinned on the mutants that produce them.

use graders::stage07::{ExactlyOnceState, drive};

use super::{ComputeRestart, CrashBeforeBarrier, ReplayFromZero};
use crate::rejects;

/// A recovery that never asks the store reads as such.
#[test]
fn computing_the_restart_point_reads_never_asked_the_store() {
    let report = rejects::<ExactlyOnceState>(drive::<ComputeRestart>, "checkpoints");
    crate::wordings::reads(
        &report,
        "checkpoints",
        [
            "run_with_recovery_in(spy store) over words [], barrier_every 1, crash_after Some(0), commit_lag 0",
            "latest_completed()",
            "no more calls",
            "store call 1 (the recovery after the crash after 0 record(s)): recovery never asked the store for latest_completed(); a real job has nothing but the store after a crash, so the restart point must be the one the store hands out",
        ],
    );
}

/// A re-save refused by the grader's spy store reads as the spy's refusal, caused by the
/// job, not as the learner's store failing.
#[test]
fn a_refused_re_save_reads_as_the_spy_s_refusal() {
    let report = rejects::<ExactlyOnceState>(drive::<ReplayFromZero>, "exactly-once-state");
    crate::wordings::reads(
        &report,
        "exactly-once-state",
        [
            "run_with_recovery_in(spy store) over words [a], barrier_every 1, crash_after Some(1), commit_lag 0",
            "Ok(outcome)",
            "Err(the grader's spy store refused save(1, offset 1, ..): checkpoint 1 is already completed (a completed checkpoint may have been restored, so the job must never save it again))",
            "a valid run (barrier_every 1, crash_after Some(1)) returned an error",
        ],
    );
}

/// A store call is labelled by when the job made it, not by where the protocol expects
/// a call of that number.
#[test]
fn a_call_made_after_the_crash_is_labelled_so() {
    let report = rejects::<ExactlyOnceState>(drive::<CrashBeforeBarrier>, "checkpoints");
    crate::wordings::reads(
        &report,
        "checkpoints",
        [
            "run_with_recovery_in(spy store) over words [b b], barrier_every 1, crash_after Some(1), commit_lag 0",
            "save(1, offset 1, state {\"b\":1}) before the crash after 1 record(s)",
            "save(1, offset 1, state {\"b\":1}) after the crash after 1 record(s), recovered with no completed checkpoint (latest_completed() returned None)",
            "store call 1 (after the crash after 1 record(s), recovered with no completed checkpoint (latest_completed() returned None)): the protocol makes this save before the crash: the barrier after record 1 takes its checkpoint before the job dies (crash_after = 1: after record 1 and its barrier)",
        ],
    );
}
