//! The framework's failure list, one row per scenario, each run against the simulator
//! for shape A (staged artifacts) and shape B (XA transactions): what the crash or the
//! fault leaves behind, which step of the choreography repairs it, and what the
//! external system holds at the end. The exhaustive and rescale tests cover the same
//! ground blindly (every crash point of every schedule); this table says what happens.
//!
//! | failure | rows |
//! |---|---|
//! | a crash at every step | `crash_after_*` (each [`Step`]), `crash_during_recovery_*` |
//! | lost, duplicate, late and out-of-order notifications | `*_notification_*` |
//! | an aborted checkpoint | `aborted_*` |
//! | a double crash | `double_crash_*` |
//! | restoring twice | `restoring_the_same_checkpoint_twice_*` |
//! | restoring an older checkpoint | `restoring_an_older_checkpoint_*` |
//! | scale-in, scale-out | `scale_in_*`, `scale_out_*` |
//! | end of input | `end_of_input_*`, `lost_final_notification_*` |
//! | empty epochs | `an_empty_epoch_*` |
//! | zombies | `a_zombie_*` |
//! | transient and permanent commit failures | `a_transient_*`, `transient_failures_*`, `a_permanent_*` |
//! | expiry | `an_expired_handle_*` |
//!
//! Where a scenario needs a real system, `real-sinks/tests` runs it too: kill -9 at
//! every place a kill can land, with rescales (`kill9.rs`); two runs of one job at once
//! and a fenced zombie on files and PostgreSQL (`fencing.rs`); a deleted, edited or
//! older checkpoint refused by its seal or each sink's committed mark (`integrity.rs`);
//! a run frozen between its fence check and its checkpoint write (`late_write.rs`); one
//! job from two folders, and a renamed one (`history.rs`); an expired prepared
//! transaction and the lock and statement timeouts (`pg_faults.rs`); a stopped server
//! (`pg_stopped.rs`).

mod sim;

use committer::CommitOutcome::{Abandoned, AlreadyCommitted, Committed};
use committer::{Step, SubtaskId};
use rstest::rstest;
use sim::expect::{Expect, Holds, expect, judged};
use sim::{CommitFault, Distribution, Fault, Schedule, ShapeA, ShapeB};

fn solo() -> SubtaskId {
    SubtaskId::new(0, 1).unwrap()
}

fn sub(index: u32, parallelism: u32) -> SubtaskId {
    SubtaskId::new(index, parallelism).unwrap()
}

/// The delivery shapes every scenario runs on.
#[derive(Debug, Clone, Copy)]
enum Shape {
    StagedArtifact,
    XaTransaction,
}

#[rstest]
// --- a crash at every step ---
#[case::crash_after_a_write_replays_the_record_into_a_fresh_transaction(
    Schedule::new(3, 2, 0).crash_on(&[Some(Step::Written(solo()))]),
    expect(&[Step::Written(solo())], &[]),
)]
// The orphan sweep itself is idempotent: a crash right after it sweeps again.
#[case::crash_after_the_orphan_sweep_sweeps_again_at_the_next_open(
    Schedule::new(4, 2, 0).crash_on(&[Some(Step::Prepared(solo(), 1)), Some(Step::Opened(solo()))]),
    expect(&[Step::Prepared(solo(), 1), Step::Opened(solo())], &[]),
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
#[case::crash_after_recovery_erased_its_handle_restores_it_and_finds_it_committed(
    Schedule::new(4, 2, 0).crash_on(&[
        Some(Step::CheckpointCompleted(1)),
        Some(Step::RecoveryErased(solo(), 1)),
    ]),
    expect(
        &[Step::CheckpointCompleted(1), Step::RecoveryErased(solo(), 1)],
        &[(1, AlreadyCommitted)],
    ),
)]
// --- notifications ---
#[case::lost_notification_is_repaired_by_the_next_checkpoints_notification(
    Schedule::new(4, 2, 0).fault(1, Fault::Lost),
    expect(&[], &[]),
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
// --- aborted checkpoints ---
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
#[case::aborted_checkpoint_then_a_crash_restarts_from_the_last_completed_one(
    Schedule::new(4, 2, 1).fault(1, Fault::Aborted).crash_on(&[Some(Step::Persisted(solo(), 2))]),
    expect(&[Step::Persisted(solo(), 2)], &[]),
)]
// --- double crash, restoring twice, an older checkpoint ---
// The first crash leaves c1 completed, uncommitted; the second run commits it and dies
// with c2 persisted, uncompleted, and c3 prepared: the third restores c1 again and
// sweeps both orphans.
#[case::double_crash_before_and_after_the_first_restore(
    Schedule::new(6, 2, 1).crash_on(&[
        Some(Step::CheckpointCompleted(1)),
        Some(Step::Prepared(solo(), 3)),
    ]),
    expect(
        &[Step::CheckpointCompleted(1), Step::Prepared(solo(), 3)],
        &[(1, Committed), (1, AlreadyCommitted)],
    ),
)]
// The second attempt recovers c1 and dies before a new checkpoint: the third restores
// the same c1 and finds its handle committed.
#[case::restoring_the_same_checkpoint_twice_recommits_nothing(
    Schedule::new(6, 2, 0).crash_on(&[
        Some(Step::CheckpointCompleted(1)),
        Some(Step::Written(solo())),
    ]),
    expect(
        &[Step::CheckpointCompleted(1), Step::Written(solo())],
        &[(1, Committed), (1, AlreadyCommitted)],
    ),
)]
// c2 completed but never committed; its checkpoint is lost and c1 restored: c2's
// prepared output is an orphan, swept, and replayed.
#[case::restoring_an_older_checkpoint_before_its_successor_committed_is_safe(
    Schedule::new(6, 2, 0).crash_on(&[Some(Step::CheckpointCompleted(2))]).restoring_previous_at(1),
    expect(&[Step::CheckpointCompleted(2)], &[(1, AlreadyCommitted)]),
)]
// c2 was committed; restoring c1 replays c2's records into the output a second time.
// The framework cannot see it (c2 is in no state it is given): each real sink keeps a
// committed mark and refuses such a restore (real-sinks tests/integrity.rs).
#[case::restoring_an_older_checkpoint_after_its_successor_committed_duplicates(
    Schedule::new(6, 2, 0).crash_on(&[Some(Step::Erased(solo(), 2))]).restoring_previous_at(1),
    Expect { holds: Holds::More, ..expect(&[Step::Erased(solo(), 2)], &[(1, AlreadyCommitted)]) },
)]
// --- rescale ---
// Both old subtasks' c1 handles go to the one new subtask, which commits each once.
#[case::scale_in_hands_every_pending_handle_to_one_successor(
    Schedule::new(8, 4, 0).at(&[2, 1]).crash_on(&[Some(Step::CheckpointCompleted(1))]),
    expect(&[Step::CheckpointCompleted(1)], &[(1, Committed), (1, Committed)]),
)]
// Each child inherits its parent's state, so each is handed the handle and finalises
// it: the first commits, the others find it committed.
#[case::scale_out_hands_the_handle_to_every_child_and_each_finalises_it(
    Schedule::new(8, 2, 0).at(&[1, 3]).crash_on(&[Some(Step::CheckpointCompleted(1))]),
    expect(&[Step::CheckpointCompleted(1)], &[(1, Committed), (1, AlreadyCommitted), (1, AlreadyCommitted)]),
)]
// Flink's testStateRestore: all state to the last subtask, which is not the author's
// successor; it commits the handle, and the successor, handed nothing, leaves it alone.
#[case::scale_out_with_all_state_to_the_last_subtask_commits_it_there(
    Schedule::new(8, 2, 0).at(&[1, 3]).distributed(Distribution::AllToLast)
        .crash_on(&[Some(Step::CheckpointCompleted(1))]),
    expect(&[Step::CheckpointCompleted(1)], &[(1, Committed)]),
)]
// Round-robin, 2 -> 3: old 0 to new 0, old 1 to new 1, new 2 gets nothing.
#[case::scale_out_round_robin_commits_each_handle_where_it_is_dealt(
    Schedule::new(8, 4, 0).at(&[2, 3]).distributed(Distribution::RoundRobin)
        .crash_on(&[Some(Step::CheckpointCompleted(1))]),
    expect(&[Step::CheckpointCompleted(1)], &[(1, Committed), (1, Committed)]),
)]
// --- end of input ---
// Checkpoint 3 is the final one of 5 records at a barrier every 2.
#[case::lost_final_notification_holds_end_of_input_until_recovery_commits(
    Schedule::new(5, 2, 0).fault(3, Fault::Lost),
    Expect { gate_restarts: 1, ..expect(&[], &[(3, Committed)]) },
)]
#[case::end_of_input_crash_before_the_final_commit_recovers_it(
    Schedule::new(5, 2, 0).crash_on(&[Some(Step::CheckpointCompleted(3))]),
    expect(&[Step::CheckpointCompleted(3)], &[(3, Committed)]),
)]
// --- empty epochs ---
// The final checkpoint (3) of 4 records at a barrier every 2 is empty: nothing is
// persisted, so the planned crash right after persisting never comes.
#[case::an_empty_epoch_persists_nothing_and_leaves_nothing_to_commit(
    Schedule::new(4, 2, 0).crash_on(&[Some(Step::Persisted(solo(), 3))]),
    expect(&[], &[]),
)]
// --- zombies ---
// The first run stalls holding c1 and c2; the second restores nothing and sweeps them;
// the first wakes up and its barrier and its commit are both rejected.
#[case::a_zombie_is_fenced_at_its_late_barrier_and_its_late_commit(
    Schedule::new(6, 2, 1).zombie().crash_on(&[Some(Step::Persisted(solo(), 2))]),
    Expect { fenced: 2, ..expect(&[Step::Persisted(solo(), 2)], &[]) },
)]
// --- commit failures ---
#[case::a_transient_commit_failure_is_retried_and_passes(
    Schedule::new(4, 2, 0).commit_fault(CommitFault::Transient(2)),
    expect(&[], &[]),
)]
// Three failures outlast two retries: the run fails with c1 pending; the next restores
// and commits it.
#[case::transient_failures_past_the_retries_fail_the_run_and_recovery_commits(
    Schedule::new(4, 2, 0).commit_fault(CommitFault::Transient(3)),
    Expect { failures: 1, ..expect(&[], &[(1, Committed)]) },
)]
#[case::a_permanent_commit_failure_is_not_retried_and_recovery_commits(
    Schedule::new(4, 2, 0).commit_fault(CommitFault::Permanent),
    Expect { failures: 1, ..expect(&[], &[(1, Committed)]) },
)]
// --- expiry ---
// c1 expires before its commit: that run and the next fail on it, until the operator
// abandons it (attempt 3); its records are lost, as the operator accepted.
#[case::an_expired_handle_fails_every_run_until_the_operator_abandons_it(
    Schedule::new(4, 2, 0).commit_fault(CommitFault::Expired).abandoning_lost_handles_from(2),
    Expect { failures: 2, holds: Holds::Fewer, ..expect(&[], &[(1, Abandoned)]) },
)]
fn scenario(
    #[case] schedule: Schedule,
    #[case] expected: Expect,
    #[values(Shape::StagedArtifact, Shape::XaTransaction)] shape: Shape,
) {
    let (outcome, holds) = match shape {
        Shape::StagedArtifact => judged::<ShapeA>(&schedule),
        Shape::XaTransaction => judged::<ShapeB>(&schedule),
    };
    assert_eq!(outcome.crashes, expected.crashes, "{shape:?}");
    assert_eq!(outcome.recovered, expected.recovered, "{shape:?}");
    assert_eq!(outcome.gate_restarts, expected.gate_restarts, "{shape:?}");
    assert_eq!(outcome.failures, expected.failures, "{shape:?}");
    assert_eq!(outcome.fenced, expected.fenced, "{shape:?}");
    assert_eq!(holds, expected.holds, "{shape:?}");
}

#[test]
fn scale_in_and_out_name_the_subtasks_they_hand_off_between() {
    // The rows above rescale 2 -> 1 and 1 -> 3; succession's rule, which decides who
    // discards an old subtask's orphans, stated once.
    use committer::Succession;
    let one = Succession::new(sub(0, 1), sim::MAX_PARALLELISM).unwrap();
    assert!(one.succeeds(sub(0, 2)).unwrap() && one.succeeds(sub(1, 2)).unwrap());
    let owners: Vec<bool> = (0..3)
        .map(|n| {
            let me = Succession::new(sub(n, 3), sim::MAX_PARALLELISM).unwrap();
            me.succeeds(solo()).unwrap()
        })
        .collect();
    assert_eq!(owners, [true, false, false]);
}
