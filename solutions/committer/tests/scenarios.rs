//! Each fault scenario once, by name: what the crash or the fault leaves behind and
//! which step of the choreography repairs it. The exhaustive tests cover the same
//! ground blindly; these say what happens.

mod sim;

use committer::CommitOutcome::{AlreadyCommitted, Committed};
use committer::{Step, SubtaskId};
use sim::{Fault, Schedule, ShapeA, ShapeB, run};

fn solo() -> SubtaskId {
    SubtaskId::new(0, 1).unwrap()
}

#[test]
fn crash_after_a_write_replays_the_record_into_a_fresh_transaction() {
    let s = Schedule::new(3, 2, 0).crash_on(&[Some(Step::Written(solo()))]);
    let outcome = run::<ShapeB>(&s).unwrap();
    assert_eq!(outcome.crashes, [Step::Written(solo())]);
    assert!(outcome.recovered.is_empty(), "nothing was prepared yet");
}

#[test]
fn crash_after_prepare_before_persist_rolls_back_the_orphaned_transaction_at_open() {
    // The prepared transaction is in the database but in no checkpoint: the next open
    // rolls it back (the verdict would see it otherwise) and the source replays it.
    let s = Schedule::new(4, 2, 0).crash_on(&[Some(Step::Prepared(solo(), 1))]);
    let outcome = run::<ShapeB>(&s).unwrap();
    assert!(outcome.recovered.is_empty());
}

#[test]
fn crash_after_persist_before_completion_discards_the_staged_orphan_and_replays() {
    let s = Schedule::new(4, 2, 1).crash_on(&[Some(Step::Persisted(solo(), 1))]);
    let outcome = run::<ShapeA>(&s).unwrap();
    assert!(outcome.recovered.is_empty(), "checkpoint 1 never completed");
}

#[test]
fn crash_after_completion_before_notification_recovers_and_commits_the_handle() {
    let s = Schedule::new(4, 2, 0).crash_on(&[Some(Step::CheckpointCompleted(1))]);
    assert_eq!(run::<ShapeB>(&s).unwrap().recovered, [(1, Committed)]);
    assert_eq!(run::<ShapeA>(&s).unwrap().recovered, [(1, Committed)]);
}

#[test]
fn crash_after_external_commit_before_erase_recommits_as_already_committed() {
    let s = Schedule::new(4, 2, 0).crash_on(&[Some(Step::Committed(solo(), 1))]);
    assert_eq!(
        run::<ShapeB>(&s).unwrap().recovered,
        [(1, AlreadyCommitted)]
    );
    assert_eq!(
        run::<ShapeA>(&s).unwrap().recovered,
        [(1, AlreadyCommitted)]
    );
}

#[test]
fn crash_midway_through_committing_several_handles_commits_the_rest_at_recovery() {
    // c1's notification is lost, so c2's commits c1 and c2; the crash comes between.
    let s = Schedule::new(4, 2, 0)
        .fault(1, Fault::Lost)
        .crash_on(&[Some(Step::Erased(solo(), 1))]);
    let outcome = run::<ShapeB>(&s).unwrap();
    assert_eq!(outcome.recovered, [(1, AlreadyCommitted), (2, Committed)]);
}

#[test]
fn crash_during_recovery_recovers_again_at_the_next_open() {
    let s = Schedule::new(4, 2, 0).crash_on(&[
        Some(Step::CheckpointCompleted(1)),
        Some(Step::Recovered(solo(), 1)),
    ]);
    let outcome = run::<ShapeA>(&s).unwrap();
    assert_eq!(outcome.crashes.len(), 2);
    assert_eq!(outcome.recovered, [(1, AlreadyCommitted)]);
}

#[test]
fn lost_notification_is_repaired_by_the_next_checkpoints_notification() {
    let outcome = run::<ShapeB>(&Schedule::new(4, 2, 0).fault(1, Fault::Lost)).unwrap();
    assert_eq!(outcome.gate_restarts, 0);
    assert!(outcome.crashes.is_empty());
}

#[test]
fn lost_final_notification_holds_end_of_input_until_recovery_commits() {
    // Checkpoint 3 is the final one of 4 records at a barrier every 2.
    let outcome = run::<ShapeA>(&Schedule::new(5, 2, 0).fault(3, Fault::Lost)).unwrap();
    assert_eq!(outcome.gate_restarts, 1);
    assert_eq!(outcome.recovered, [(3, Committed)]);
}

#[test]
fn duplicated_late_and_reordered_notifications_change_nothing() {
    for fault in [Fault::Duplicated, Fault::Late, Fault::Reordered] {
        for lag in 0..=2 {
            let outcome = run::<ShapeB>(&Schedule::new(6, 2, lag).fault(1, fault)).unwrap();
            assert_eq!(outcome.gate_restarts, 0, "{fault:?}");
        }
    }
}

#[test]
fn aborted_checkpoint_is_carried_into_the_next_completed_one() {
    let outcome = run::<ShapeA>(&Schedule::new(4, 2, 0).fault(1, Fault::Aborted)).unwrap();
    assert_eq!(outcome.gate_restarts, 0);
}

#[test]
fn aborted_final_checkpoint_is_retried_and_the_retry_commits_its_data() {
    let outcome = run::<ShapeB>(&Schedule::new(3, 2, 0).fault(2, Fault::Aborted)).unwrap();
    assert_eq!(outcome.gate_restarts, 0);
}

#[test]
fn crash_after_an_aborted_checkpoint_restarts_from_the_last_completed_one() {
    // c1 aborted and carried; the crash comes before c2 completes, so the job restores
    // nothing, the orphaned c1 transaction is rolled back, and everything replays.
    let s = Schedule::new(4, 2, 1)
        .fault(1, Fault::Aborted)
        .crash_on(&[Some(Step::Persisted(solo(), 2))]);
    let outcome = run::<ShapeB>(&s).unwrap();
    assert!(outcome.recovered.is_empty());
}
