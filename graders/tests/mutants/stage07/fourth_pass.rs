//! Stage-07 mistakes from a fourth red-team pass that the grader used to accept: a run
//! without a crash that logs a failed store call and goes on, a store that keeps only
//! its two newest completed checkpoints, and a job that keeps its checkpoints in flight
//! in a ring of 64 slots.

use graders::stage07::{Case, ExactlyOnceState, Observation, drive};
use rstest::rstest;

runner_mutant! {
    /// **Mistake:** in a run without a crash, a failed `complete` at the end of the input
    /// is only logged ("the input is done, nothing will restore it"), the rest complete
    /// all the same and the run returns `Ok` (the red team's w07-06); with a crash point
    /// the error ends the run, so the failing-store runs with a crash pass.
    /// **Verdict:** `contract`: with no crash at lag 1, the end's `complete(3)` fails and
    /// the run returns `Ok` (07-R23).
    clean_run_logs_failed_complete, crate::stage07::flawed::CLEAN_RUN_LOGS_FAILED_COMPLETE
}
graders::impl_stage07!(
    CleanRunLogsFailedComplete,
    CleanRunLogsFailedCompleteSpy,
    clean_run_logs_failed_complete
);

runner_mutant! {
    /// **Mistake:** in a run without a crash, a failed `save` is only logged ("no crash is
    /// coming, nothing will restore it") and the job goes on without that checkpoint (the
    /// red team's w07-07).
    /// **Verdict:** `contract`: with no crash, `save(1, ..)` fails and the run goes on
    /// (07-R23).
    clean_run_skips_failed_save, crate::stage07::flawed::CLEAN_RUN_SKIPS_FAILED_SAVE
}
graders::impl_stage07!(
    CleanRunSkipsFailedSave,
    CleanRunSkipsFailedSaveSpy,
    clean_run_skips_failed_save
);

flawed_store! {
    /// **Mistake:** the store keeps only its two newest completed checkpoints ("only the
    /// latest is ever restored: keep it and a spare"), dropping the older ones, so an old
    /// completed id can be saved again and its second completion fails (the red team's
    /// w07-08). The store's short sequences never complete three ids.
    /// **Verdict:** `store`: after `save(1)` to `save(3)` and `complete(1)` to
    /// `complete(3)`, `save(1)` is `Ok` (07-R3).
    store_keeps_two_completed, KEEP_TWO_COMPLETED
}
graders::impl_stage07!(
    StoreKeepsTwoCompleted,
    StoreKeepsTwoCompletedSpy,
    store_keeps_two_completed
);

runner_mutant! {
    /// **Mistake:** the job keeps its checkpoints in flight in a ring of 64 slots, so at
    /// most 63 wait: past that the oldest completes early, though checkpoint c completes
    /// `commit_lag` barriers later, however many that leaves waiting (the red team's
    /// w07-05; the deep runs keep only 34 in flight).
    /// **Verdict:** `contract`, on one word 1,100 times at lag 1,050: `complete(1)` comes
    /// right after the save of checkpoint 64, where the save of checkpoint 65 is due
    /// (07-R8).
    ring_of_64_in_flight, crate::stage07::flawed::RING_OF_64
}
graders::impl_stage07!(RingOf64InFlight, RingOf64InFlightSpy, ring_of_64_in_flight);

/// The mutants above, the check that rejects each, the requirement its smallest failing
/// case names and the misconception card its report shows: the store's is the card of a
/// store that keeps only the latest completed checkpoint, the same belief one spare
/// later; the runners' mistakes are new, with no card.
#[rstest]
#[case::clean_run_logs_failed_complete(drive::<CleanRunLogsFailedComplete>, "contract", "07-R23", None)]
#[case::clean_run_skips_failed_save(drive::<CleanRunSkipsFailedSave>, "contract", "07-R23", None)]
#[case::store_keeps_two_completed(drive::<StoreKeepsTwoCompleted>, "store", "07-R3", Some("07-only-the-latest-is-kept"))]
#[case::ring_of_64_in_flight(drive::<RingOf64InFlight>, "contract", "07-R8", None)]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report =
        graders::harness::expect_rejected_for::<ExactlyOnceState>(drive, check, requirement)
            .unwrap_or_else(|why| crate::fail(&why));
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}
