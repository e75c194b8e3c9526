//! The wording of stage-07 reports, pinned on the mutants that produce them.

use graders::stage07::{ExactlyOnceState, drive};

use super::third_pass::{HashmapState, LagPlusOne, LatestByOffset, OffsetFromMemory};
use super::{
    ComputeRestart, ConvenienceDropsTheCrash, CrashBeforeBarrier, EmitOnce, FirstCompleted,
    LagIgnored, ReplayFromZero, SaveBeforeApply,
};
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
            "store call 1 (the recovery after the crash after 0 record(s)): recovery never asked the store for latest_completed() (crash_after = 0, the input's length, is a crash too); a real job has nothing but the store after a crash, so the restart point must be the one the store hands out",
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

/// A replay from offset 0 after the job died without its last checkpoint reads as the
/// missing save, from the job's own calls: its store handed out no checkpoint.
#[test]
fn a_replay_without_the_last_checkpoint_reads_as_the_missing_save() {
    let report = rejects::<ExactlyOnceState>(drive::<CrashBeforeBarrier>, "at-least-once-output");
    crate::wordings::reads(
        &report,
        "at-least-once-output",
        [
            "run_with_recovery_in(spy store) over words [b b], barrier_every 1, crash_after Some(1), commit_lag 0",
            "[(\"b\", 1), (\"b\", 2)]",
            "[(\"b\", 1), (\"b\", 1), (\"b\", 2)]",
            "after the crash after 1 record(s): recovery was handed no checkpoint (latest_completed() returned None), because the job never saved checkpoint 1 before the crash: the barrier after record 1 takes it before the job dies (crash_after = 1: after record 1 and its barrier)",
        ],
    );
}

/// A replay from a checkpoint completed too early reads as the early completion.
#[test]
fn a_replay_from_an_early_completion_reads_as_such() {
    let report = rejects::<ExactlyOnceState>(drive::<LagIgnored>, "at-least-once-output");
    crate::wordings::reads(
        &report,
        "at-least-once-output",
        [
            "run_with_recovery_in(spy store) over words [a], barrier_every 1, crash_after Some(1), commit_lag 1",
            "[(\"a\", 1), (\"a\", 1)]",
            "[(\"a\", 1)]",
            "after the crash after 1 record(s): recovery was handed checkpoint 1 (latest_completed() returned it), because the job completed checkpoint 1 before the crash: with commit_lag = 1 it completes only at the end of the input, after the crash after record 1, so no checkpoint may have completed by then",
        ],
    );
}

/// Wrong final counts restored from a wrong save read as the save, not as the count.
#[test]
fn wrong_counts_from_a_wrong_save_read_as_the_save() {
    let report = rejects::<ExactlyOnceState>(drive::<SaveBeforeApply>, "exactly-once-state");
    crate::wordings::reads(
        &report,
        "exactly-once-state",
        [
            "run_with_recovery_in(spy store) over words [a], barrier_every 1, crash_after Some(1), commit_lag 0",
            "{\"a\": 1}",
            "{}",
            "after the crash after 1 record(s): checkpoint 1, which recovery restores, was saved with counts {}, but records 0..1 count {\"a\": 1}: the replay starts from what was saved, so the save was wrong",
        ],
    );
}

/// A restart from the wrong checkpoint with the learner's own store reads as that store's
/// answer to the job's own calls, not as the checkpoint a correct run restores.
#[test]
fn a_wrong_restart_with_the_own_store_reads_as_the_store_s_answer() {
    let report = rejects::<ExactlyOnceState>(drive::<FirstCompleted>, "own-store");
    crate::wordings::reads(
        &report,
        "own-store",
        [
            "run_with_recovery over words [b b], barrier_every 1, crash_after Some(2), commit_lag 0",
            "Ok(outcome)",
            "Err(checkpoint 2 completed)",
            "your InMemoryCheckpointStore's latest_completed() returned checkpoint 1, after the job's calls [save(1, offset 1, ..), complete(1), save(2, offset 2, ..), complete(2)]: the latest checkpoint those calls completed is checkpoint 2, so the job restarted from the wrong checkpoint",
        ],
    );
}

/// A `run_with_recovery` that drops the crash reads as `run_with_recovery` itself, from
/// the learner's two entry points and its emissions, not as a wrong replay.
#[test]
fn a_convenience_entry_point_that_drops_the_crash_reads_as_such() {
    let report = rejects::<ExactlyOnceState>(drive::<ConvenienceDropsTheCrash>, "own-store");
    crate::wordings::reads(
        &report,
        "own-store",
        [
            "run_with_recovery over words [a], barrier_every 1, crash_after Some(1), commit_lag 1",
            "[(\"a\", 1), (\"a\", 1)]",
            "[(\"a\", 1)]",
            "run_with_recovery_in with the grader's store returns the right outcome here, and your InMemoryCheckpointStore answers every call of that job as the brief's store does (the job's calls were made again on it), so run_with_recovery itself runs another job; its emissions are those of a run without a crash: nothing was replayed after the crash after 1 record(s): run_with_recovery is run_with_recovery_in with a fresh InMemoryCheckpointStore, every argument passed on unchanged",
        ],
    );
}

/// A store that ranks checkpoints by offset reads as such, on offsets that fall as the ids
/// rise.
#[test]
fn a_store_ranking_by_offset_reads_as_such() {
    let report = rejects::<ExactlyOnceState>(drive::<LatestByOffset>, "store");
    crate::wordings::reads(
        &report,
        "store",
        [
            "on a fresh InMemoryCheckpointStore, offsets falling as the ids rise (save(1) at offset 20, save(2) at offset 10): [Save(1), Save(2), Complete(1), Complete(2)]",
            "Some(checkpoint 2, offset 10, state \"s2.0\")",
            "Some(checkpoint 1, offset 20, state \"s1.0\")",
            "operation 4 (Complete(2)) after [Save(1), Save(2), Complete(1)], then latest_completed(): the completed checkpoint with the highest id, never one in flight (checkpoint 1 has the higher offset, 20, but the lower id: checkpoints are ranked by id, whatever their offsets)",
        ],
    );
}

/// A restart at an offset the dead job remembered reads as such, when the store hands
/// out another checkpoint than the one the job completed last.
#[test]
fn a_restart_from_memory_reads_as_such() {
    let report = rejects::<ExactlyOnceState>(drive::<OffsetFromMemory>, "contract");
    crate::wordings::reads(
        &report,
        "contract",
        [
            "run_with_recovery_in(spy store that, asked after the crash, has lost every checkpoint, so that latest_completed() returns None) over words [a b], barrier_every 1, crash_after Some(1), commit_lag 0",
            "[(\"a\", 1), (\"a\", 1), (\"b\", 1)]",
            "[(\"a\", 1), (\"b\", 1)]",
            "after the crash after 1 record(s): asked after the crash, the store had lost its later checkpoints and handed out no checkpoint (latest_completed() returned None: offset 0, empty counts), older than the checkpoint the job completed last; the emissions after the crash are those of a replay from empty counts, but from offset 1, not 0: the restart point is the one the store hands out, its offset and its state, whatever the dead job remembered",
        ],
    );
}

/// A state whose JSON lists its keys out of order reads as such, with both orders.
#[test]
fn a_state_in_hash_order_reads_as_such() {
    let report = rejects::<ExactlyOnceState>(drive::<HashmapState>, "contract");
    let failure = report
        .checks
        .iter()
        .find(|c| c.name == "contract")
        .and_then(|c| c.first_failure.as_ref())
        .unwrap_or_else(|| crate::fail("`contract` has no failure"));
    // The order of a HashMap's keys changes from run to run: the step is read in parts.
    let step = match &failure.fault {
        graders::harness::Fault::Wrong {
            first_wrong_step, ..
        } => first_wrong_step.clone().unwrap_or_default(),
        other => crate::fail(&format!("expected a wrong answer, got {other:#?}")),
    };
    let wanted = [
        "store call 15 (no crash): checkpoint 8's state holds the right counts, but its JSON object lists its keys out of order ([",
        "]): the JSON of a BTreeMap<String, u64> lists them sorted ([\"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\"]), so that the same counts always give the same bytes (a HashMap's order is arbitrary)",
    ];
    for part in wanted {
        assert!(step.contains(part), "`{part}` is not in `{step}`");
    }
    assert!(
        failure.case.contains(
            "over words [i h g f e d c b a], barrier_every 1, crash_after None, commit_lag 0"
        ),
        "{}",
        failure.case
    );
}

/// A replay that went through records without emitting them again reads as such, from
/// its saves after the recovery, not as a replay from where its emissions resume.
#[test]
fn a_silent_replay_reads_as_such_in_the_contract() {
    let report = rejects::<ExactlyOnceState>(drive::<EmitOnce>, "contract");
    crate::wordings::reads(
        &report,
        "contract",
        [
            "run_with_recovery_in(spy store), then run_with_recovery, over words [A a], barrier_every 1, crash_after Some(1), commit_lag 1",
            "[(\"A\", 1), (\"A\", 1), (\"a\", 1)]",
            "[(\"A\", 1), (\"a\", 1)]",
            "after the crash after 1 record(s): the replay emitted only the records from offset 1 on, but after the recovery it saved checkpoint 1 at offset 1, which a replay from offset 1 never takes: it went through the records before offset 1 without emitting them again, where every replayed record is emitted again; no checkpoint had completed (replay from offset 0, empty counts)",
        ],
    );
}

/// A panic in a valid run reads as a panic, and names the requirement it breaks.
#[test]
fn a_panic_in_a_valid_run_names_the_requirement() {
    let report = rejects::<ExactlyOnceState>(drive::<LagPlusOne>, "contract");
    crate::wordings::reads(
        &report,
        "contract",
        [
            "run_with_recovery_in(spy store), then run_with_recovery, over words [A a], barrier_every 1, crash_after None, commit_lag 18446744073709551615",
            "Ok(outcome)",
            "panicked: attempt to add with overflow",
            "a valid run (barrier_every 1, crash_after None, commit_lag 18446744073709551615) panicked: the brief asks for errors instead of panics, and a valid run returns its outcome",
        ],
    );
}
