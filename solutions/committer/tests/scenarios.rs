//! Each fault scenario once, by name: what the crash or the fault leaves behind and
//! which step of the choreography repairs it, for shape A (staged artifacts) and
//! shape B (XA transactions) alike. The exhaustive tests cover the same ground blindly;
//! this table says what happens. Every run is also judged exactly-once by the simulator.

mod sim;

use committer::CommitOutcome::{self, AlreadyCommitted, Committed};
use committer::{CheckpointId, Step, SubtaskId};
use rstest::rstest;
use sim::{Fault, Outcome, Schedule, ShapeA, ShapeB, run};

fn solo() -> SubtaskId {
    SubtaskId::new(0, 1).unwrap()
}

/// What a scenario must go through, besides ending exactly-once.
#[derive(Debug)]
struct Expect {
    /// The crashes, in order.
    crashes: Vec<Step>,
    /// What recovery did at each open, in order.
    recovered: Vec<(CheckpointId, CommitOutcome)>,
    /// Restarts because end of input found a commit outstanding.
    gate_restarts: usize,
}

fn expect(crashes: &[Step], recovered: &[(CheckpointId, CommitOutcome)]) -> Expect {
    Expect {
        crashes: crashes.to_vec(),
        recovered: recovered.to_vec(),
        gate_restarts: 0,
    }
}

/// The delivery shapes every scenario runs on.
#[derive(Debug, Clone, Copy)]
enum Shape {
    StagedArtifact,
    XaTransaction,
}

#[rstest]
#[case::crash_after_a_write_replays_the_record_into_a_fresh_transaction(
    Schedule::new(3, 2, 0).crash_on(&[Some(Step::Written(solo()))]),
    expect(&[Step::Written(solo())], &[]),
)]
// The prepared transaction (staged artifact) is in the external system but in no
// checkpoint: the next open discards it as an orphan, and the source replays it.
#[case::crash_after_prepare_before_persist_discards_the_orphan_at_open(
    Schedule::new(4, 2, 0).crash_on(&[Some(Step::Prepared(solo(), 1))]),
    expect(&[Step::Prepared(solo(), 1)], &[]),
)]
#[case::crash_after_persist_before_completion_discards_the_orphan_and_replays(
    Schedule::new(4, 2, 1).crash_on(&[Some(Step::Persisted(solo(), 1))]),
    expect(&[Step::Persisted(solo(), 1)], &[]),
)]
#[case::crash_after_completion_before_notification_recovers_and_commits_the_handle(
    Schedule::new(4, 2, 0).crash_on(&[Some(Step::CheckpointCompleted(1))]),
    expect(&[Step::CheckpointCompleted(1)], &[(1, Committed)]),
)]
#[case::crash_after_external_commit_before_erase_recommits_as_already_committed(
    Schedule::new(4, 2, 0).crash_on(&[Some(Step::Committed(solo(), 1))]),
    expect(&[Step::Committed(solo(), 1)], &[(1, AlreadyCommitted)]),
)]
// c1's notification is lost, so c2's commits c1 and c2; the crash comes between.
#[case::crash_midway_through_committing_several_handles_commits_the_rest_at_recovery(
    Schedule::new(4, 2, 0).fault(1, Fault::Lost).crash_on(&[Some(Step::Erased(solo(), 1))]),
    expect(&[Step::Erased(solo(), 1)], &[(1, AlreadyCommitted), (2, Committed)]),
)]
#[case::crash_during_recovery_recovers_again_at_the_next_open(
    Schedule::new(4, 2, 0).crash_on(&[
        Some(Step::CheckpointCompleted(1)),
        Some(Step::Recovered(solo(), 1)),
    ]),
    expect(
        &[Step::CheckpointCompleted(1), Step::Recovered(solo(), 1)],
        &[(1, AlreadyCommitted)],
    ),
)]
#[case::lost_notification_is_repaired_by_the_next_checkpoints_notification(
    Schedule::new(4, 2, 0).fault(1, Fault::Lost),
    expect(&[], &[]),
)]
// Checkpoint 3 is the final one of 5 records at a barrier every 2.
#[case::lost_final_notification_holds_end_of_input_until_recovery_commits(
    Schedule::new(5, 2, 0).fault(3, Fault::Lost),
    Expect { gate_restarts: 1, ..expect(&[], &[(3, Committed)]) },
)]
#[case::duplicated_notification_changes_nothing(
    Schedule::new(6, 2, 1).fault(1, Fault::Duplicated),
    expect(&[], &[]),
)]
#[case::late_notification_changes_nothing(
    Schedule::new(6, 2, 1).fault(1, Fault::Late),
    expect(&[], &[]),
)]
#[case::reordered_notification_changes_nothing(
    Schedule::new(6, 2, 1).fault(1, Fault::Reordered),
    expect(&[], &[]),
)]
#[case::aborted_checkpoint_is_carried_into_the_next_completed_one(
    Schedule::new(4, 2, 0).fault(1, Fault::Aborted),
    expect(&[], &[]),
)]
#[case::aborted_final_checkpoint_is_retried_and_the_retry_commits_its_data(
    Schedule::new(3, 2, 0).fault(2, Fault::Aborted),
    expect(&[], &[]),
)]
// c1 aborted and carried; the crash comes before c2 completes, so the job restores
// nothing, the orphaned c1 output is discarded, and everything replays.
#[case::crash_after_an_aborted_checkpoint_restarts_from_the_last_completed_one(
    Schedule::new(4, 2, 1).fault(1, Fault::Aborted).crash_on(&[Some(Step::Persisted(solo(), 2))]),
    expect(&[Step::Persisted(solo(), 2)], &[]),
)]
fn scenario(
    #[case] schedule: Schedule,
    #[case] expected: Expect,
    #[values(Shape::StagedArtifact, Shape::XaTransaction)] shape: Shape,
) {
    let outcome: Outcome = match shape {
        Shape::StagedArtifact => run::<ShapeA>(&schedule),
        Shape::XaTransaction => run::<ShapeB>(&schedule),
    }
    .unwrap();
    assert_eq!(outcome.crashes, expected.crashes, "{shape:?}");
    assert_eq!(outcome.recovered, expected.recovered, "{shape:?}");
    assert_eq!(outcome.gate_restarts, expected.gate_restarts, "{shape:?}");
}
