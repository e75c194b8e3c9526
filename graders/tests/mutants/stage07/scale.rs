//! Stage-07 mistakes that only show past a size (from a red-team round): a count kept in
//! a `u8`, and a store that holds at most eight checkpoints in flight.

use graders::stage07::{Case, ExactlyOnceState, Observation, drive};
use rstest::rstest;

runner_mutant! {
    /// **Mistake:** a word's count is kept in a `u8` ("nobody says a word 256 times"):
    /// the 256th occurrence overflows.
    /// **Verdict:** `contract`, on one word 260 times: the run panics at record 256, so
    /// its counts are not the batch count of the input (07-R19).
    counts_in_u8, crate::stage07::flawed::COUNTS_IN_U8
}
graders::impl_stage07!(CountsInU8, CountsInU8Spy, counts_in_u8);

flawed_store! {
    /// **Mistake:** the store keeps at most eight checkpoints in flight, dropping the
    /// oldest to make room ("a bounded buffer"), though nothing bounds how many wait for
    /// their completion: a commit lag of 9 keeps ten in flight.
    /// **Verdict:** `store`, on `save(1)` to `save(10)` then `complete(1)`: the completion
    /// of a checkpoint that was saved fails as if it never was (07-R1). Also `contract`, on
    /// one word 260 times at lag 9: through the grader's store the run is right, but
    /// `run_with_recovery`, on the flawed store, ends in an error at `complete(1)` (07-R18:
    /// the same run with the implementation's own store must give the same).
    eight_in_flight, EIGHT_IN_FLIGHT
}
graders::impl_stage07!(EightInFlight, EightInFlightSpy, eight_in_flight);

/// The mutants above, the check that rejects each and the requirement its failure names.
#[rstest]
#[case::counts_in_u8(drive::<CountsInU8>, "contract", "07-R19")]
#[case::eight_in_flight(drive::<EightInFlight>, "store", "07-R1")]
#[case::eight_in_flight_own_store(drive::<EightInFlight>, "contract", "07-R18")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    graders::harness::expect_rejected_for::<ExactlyOnceState>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
