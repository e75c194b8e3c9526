//! Stage-07 mistakes from a third red-team pass, written from the brief alone, that the
//! grader used to accept: a store that ranks completed checkpoints by offset, a restart
//! that takes its offset from the dead job's memory, and a state kept in a `HashMap`.

use graders::stage07::{Case, ExactlyOnceState, Observation, drive};
use rstest::rstest;

store_slip! {
    /// **Mistake:** `latest_completed` returns the completed checkpoint with the highest
    /// *offset*, "the one furthest into the input", where the brief asks for the highest
    /// id. In this job the offsets grow with the ids, so only a store case whose offsets
    /// fall as the ids rise tells them apart.
    /// **Verdict:** `store`: on `[Save(1), Save(2), Complete(1), Complete(2)]` with
    /// `save(1)` at offset 20 and `save(2)` at offset 10, `latest_completed()` answers
    /// checkpoint 1 (07-R1).
    latest_by_offset, LATEST_BY_OFFSET, LatestByOffset, LatestByOffsetSpy
}
slip! {
    /// **Mistake:** the restart takes the state from `latest_completed()` but seeks the
    /// source to the offset of the checkpoint the dead job remembers completing last:
    /// the same offset whenever the store hands out that checkpoint, another one when
    /// the store hands out an older checkpoint (its later ones lost).
    /// **Verdict:** `contract`: when the spy store hands out checkpoint 0 (none) or an
    /// older one at the recovery, the replay starts at the remembered offset (07-R12).
    offset_from_memory, OFFSET_FROM_MEMORY, OffsetFromMemory, OffsetFromMemorySpy
}
slip! {
    /// **Mistake:** the counts are kept in a `HashMap`, so the saved state is JSON whose
    /// keys come in hash order: it decodes to the right counts, but it is not the JSON
    /// of the `BTreeMap<String, u64>`, and the same state does not always give the same
    /// bytes.
    /// **Verdict:** `contract`: on the nine distinct words, a checkpoint's JSON lists its
    /// keys out of order (07-R7).
    hashmap_state, HASHMAP_STATE, HashmapState, HashmapStateSpy
}

slip! {
    /// **Mistake:** a barrier completes checkpoints while at least `commit_lag + 1` are
    /// in flight, written `lag + 1`: at `commit_lag = usize::MAX` the addition overflows
    /// and the job panics, where the brief asks for errors instead of panics (and a
    /// valid run returns its outcome).
    /// **Verdict:** `contract`: the first run with `commit_lag = usize::MAX` and a
    /// barrier panics (07-R19: its counts never come).
    lag_plus_one, LAG_PLUS_ONE, LagPlusOne, LagPlusOneSpy
}

/// The mutants above, the check that rejects each, the requirement its failure names and
/// the misconception card its report shows. No card for the overflow: a slip of
/// arithmetic, not a belief.
#[rstest]
#[case::latest_by_offset(drive::<LatestByOffset>, "store", "07-R1", Some("07-latest-is-the-furthest-offset"))]
#[case::offset_from_memory(drive::<OffsetFromMemory>, "contract", "07-R12", Some("07-restart-without-the-store"))]
#[case::hashmap_state(drive::<HashmapState>, "contract", "07-R7", Some("07-any-map-will-do"))]
#[case::lag_plus_one(drive::<LagPlusOne>, "contract", "07-R19", None)]
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
