//! Stage-07 mistakes that only show past a size (from red-team rounds): a count kept in
//! a `u8`, a store that holds at most eight checkpoints in flight, a job that keeps at
//! most 32 in flight, and stores that bound the ids: a `Vec` indexed by id, an id kept in
//! a `u32`.

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

runner_mutant! {
    /// **Mistake:** the job keeps at most 32 checkpoints in flight ("as Flink's
    /// max-concurrent-checkpoints bounds them"): past that, the oldest completes early to
    /// make room, though checkpoint c completes `commit_lag` barriers later, however many
    /// that leaves waiting (a red team's w07-01 bounded them at ten).
    /// **Verdict:** `contract`, on one word 40 times at lag 33: `complete(1)` comes right
    /// after the save of checkpoint 33, where the save of checkpoint 34 is due (07-R8).
    thirty_two_in_flight, crate::stage07::flawed::IN_FLIGHT_CAPPED
}
graders::impl_stage07!(
    ThirtyTwoInFlight,
    ThirtyTwoInFlightSpy,
    thirty_two_in_flight
);

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

flawed_store! {
    /// **Mistake:** the store keeps checkpoint `id` in slot `id` of a `Vec`, grown to
    /// `id + 1` on save ("ids are 1, 2, 3, ..., one per barrier"), so a high id asks for
    /// a vector past the machine's memory: nothing in the contract says how high the ids
    /// go.
    /// **Verdict:** `store`, on the high ids: `save(u64::MAX)` panics (an overflow of
    /// `id + 1`), a valid call (07-R1).
    slot_per_id, SLOT_PER_ID
}
graders::impl_stage07!(SlotPerId, SlotPerIdSpy, slot_per_id);

flawed_store! {
    /// **Mistake:** the store files its checkpoints under the id's low 32 bits ("a `u32`
    /// is plenty of checkpoints"), so `2^32 + 1` is taken for 1: its save replaces 1's,
    /// as a replay's save would.
    /// **Verdict:** `store`, on the high ids: after `complete(1)`, `latest_completed()`
    /// hands out checkpoint `2^32 + 1`, still in flight, where checkpoint 1 is expected
    /// (07-R1).
    id_in_u32, ID_IN_U32
}
graders::impl_stage07!(IdInU32, IdInU32Spy, id_in_u32);

/// The mutants above, the check that rejects each and the requirement its failure names.
#[rstest]
#[case::counts_in_u8(drive::<CountsInU8>, "contract", "07-R19")]
#[case::thirty_two_in_flight(drive::<ThirtyTwoInFlight>, "contract", "07-R8")]
#[case::eight_in_flight(drive::<EightInFlight>, "store", "07-R1")]
#[case::eight_in_flight_own_store(drive::<EightInFlight>, "contract", "07-R18")]
#[case::slot_per_id(drive::<SlotPerId>, "store", "07-R1")]
#[case::id_in_u32(drive::<IdInU32>, "store", "07-R1")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    graders::harness::expect_rejected_for::<ExactlyOnceState>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
