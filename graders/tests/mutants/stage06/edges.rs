//! Stage 06 mutants at the contract's edges, one requirement each: an input that does
//! not exist reported blocked, or panicking `is_blocked`; blocked read from what is held
//! back, every input's records held while one is blocked, a single input that never
//! checkpoints, `new(0)` accepted, an input that does not exist let through, a barrier
//! of a completed checkpoint ignored, garbage restored as a fresh aligner, snapshots
//! taken after the whole call, and a schedule past an input's end skipped.

use graders::stage06::{Barriers, Case, Observation, drive};
use rstest::rstest;

use super::flawed;

aligner_mutant! {
    /// **Mistake:** `is_blocked(i)` is "`i` is not among the inputs still to deliver the
    /// barrier", so an input that does not exist reads as blocked.
    /// **Verdict:** `alignment` fails: `is_blocked(1)` of a 1-input aligner is `true`
    /// (06-R3).
    nonexistent_blocked_m, super::flawed::NONEXISTENT_BLOCKED
}
graders::impl_stage06!(NonexistentBlocked, nonexistent_blocked_m);

aligner_mutant! {
    /// **Mistake:** `is_blocked(i)` reads a flag per input, `flags[i]`, as if only inputs
    /// that exist were ever asked about, so it panics for one that does not (a red team's
    /// w06-01). **Verdict:** `contract` fails: `is_blocked(1)` of a fresh 1-input
    /// aligner panics where `false` is due (06-R3); `alignment` and `crash` fail on the
    /// same panic.
    is_blocked_indexes_the_inputs_m, super::flawed::BLOCKED_BY_INDEX
}
graders::impl_stage06!(IsBlockedIndexesTheInputs, is_blocked_indexes_the_inputs_m);

aligner_mutant! {
    /// **Mistake:** `is_blocked(i)` answers whether input `i` has something held back, so
    /// right after its barrier (nothing held yet) it reads as unblocked.
    /// **Verdict:** `alignment` fails: after `B1` of input 0 of 2, `is_blocked(0)` is
    /// `false` (06-R5).
    blocked_means_buffered_m, super::flawed::BLOCKED_MEANS_BUFFERED
}
graders::impl_stage06!(BlockedMeansBuffered, blocked_means_buffered_m);

aligner_mutant! {
    /// **Mistake:** "stop the world": while any input is blocked, the records of every
    /// input are held back. **Verdict:** `alignment` fails: a record of an unblocked
    /// input does not come straight back (06-R4).
    block_all_m, super::flawed::BLOCK_ALL
}
graders::impl_stage06!(BlockAll, block_all_m);

aligner_mutant! {
    /// **Mistake:** "with one input there is nothing to align": a single input's barrier
    /// is consumed without a checkpoint. **Verdict:** `alignment` fails: `Barrier(1)` of
    /// a single input gives no `Checkpoint(1)` (06-R8).
    single_input_m, super::flawed::SINGLE_INPUT_NO_CHECKPOINT
}
graders::impl_stage06!(SingleInput, single_input_m);

aligner_mutant! {
    /// **Mistake:** `new(0)` builds an aligner (that can never complete a checkpoint).
    /// **Verdict:** `configuration` fails: `BarrierAligner::new(0)` is `Ok` (06-R10).
    new_zero_m, super::flawed::NEW_ZERO_OK
}
graders::impl_stage06!(NewZero, new_zero_m);

aligner_mutant! {
    /// **Mistake:** an element of an input that does not exist is let through as if its
    /// input were unblocked. **Verdict:** `configuration` fails: `on_element(2, a0)` on
    /// 2 inputs answers (06-R11).
    unknown_input_m, super::flawed::UNKNOWN_INPUT_PASSES
}
graders::impl_stage06!(UnknownInput, unknown_input_m);

aligner_mutant! {
    /// **Mistake:** a barrier of a checkpoint already completed is a harmless duplicate,
    /// and dropped. **Verdict:** `configuration` fails: `Barrier(1)` twice on input 0 is
    /// no error (06-R12).
    old_barrier_m, super::flawed::OLD_BARRIER_IGNORED
}
graders::impl_stage06!(OldBarrier, old_barrier_m);

aligner_mutant! {
    /// **Mistake:** `restore` of bytes it cannot read starts afresh, at checkpoint 1.
    /// **Verdict:** `configuration` fails: `restore(2, b"not a snapshot")` is `Ok`
    /// (06-R14).
    garbage_fresh_m, super::flawed::RESTORE_GARBAGE_FRESH
}
graders::impl_stage06!(GarbageFresh, garbage_fresh_m);

aligner_mutant! {
    /// **Mistake:** `aligned_snapshots` folds the whole output of a call, then records the
    /// state for its checkpoint, so the re-fed records after `Checkpoint(c)` are in it.
    /// **Verdict:** `aligned-snapshots` fails: a snapshot holds a record after its
    /// barrier (06-R15).
    after_call_m, super::flawed::SNAPSHOT_AFTER_CALL
}
graders::impl_stage06!(AfterCall, after_call_m);

aligner_mutant! {
    /// **Mistake:** `aligned_snapshots` skips a schedule entry past its input's end.
    /// **Verdict:** `configuration` fails: taking two elements from an input of one is
    /// no error (06-R17).
    past_end_m, super::flawed::PAST_END_SKIPPED
}
graders::impl_stage06!(PastEnd, past_end_m);

/// Every mutant of this file, the check that must reject it, the requirement its
/// smallest failing case must name and the card its report must show, if one explains it.
#[rstest]
#[case::nonexistent_blocked(drive::<NonexistentBlocked>, "alignment", "06-R3", None)]
#[case::blocked_means_buffered(drive::<BlockedMeansBuffered>, "alignment", "06-R5", None)]
#[case::is_blocked_indexes_the_inputs(drive::<IsBlockedIndexesTheInputs>, "contract", "06-R3", None)]
#[case::block_all(drive::<BlockAll>, "alignment", "06-R4", Some("06-stop-the-world"))]
#[case::single_input(drive::<SingleInput>, "alignment", "06-R8", Some("06-one-input-needs-no-checkpoint"))]
#[case::new_zero(drive::<NewZero>, "configuration", "06-R10", Some("06-zero-inputs-are-harmless"))]
#[case::unknown_input(drive::<UnknownInput>, "configuration", "06-R11", None)]
#[case::old_barrier(drive::<OldBarrier>, "configuration", "06-R12", None)]
#[case::garbage_fresh(drive::<GarbageFresh>, "configuration", "06-R14", Some("06-unreadable-snapshot-is-fresh"))]
#[case::after_call(drive::<AfterCall>, "aligned-snapshots", "06-R15", Some("06-snapshot-after-the-call"))]
#[case::past_end(drive::<PastEnd>, "configuration", "06-R17", Some("06-schedule-past-the-end-is-the-end"))]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report = graders::harness::expect_rejected_for::<Barriers>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}

/// Mutants whose smallest cases resemble another mistake's card, guarded so that no card
/// is shown for them: an input that does not exist reported blocked reads as
/// `06-blocked-for-good`'s wrong `is_blocked`; a barrier of a completed checkpoint
/// ignored, and a single input taking `Barrier(2)` first, read as
/// `06-barriers-come-in-order`'s barrier out of turn accepted; `{}` restored through
/// defaulted fields reads as `06-unreadable-snapshot-is-fresh`'s garbage restored fresh;
/// `is_blocked` read as "holds data" is false after a first barrier, as a held-back barrier
/// passed on leaves it (`06-held-back-barriers-are-data`, after a later barrier); a bitmask
/// of 64 inputs reports input 64 blocked before it sent anything, as
/// `06-blocked-for-good`'s input left blocked after its checkpoint; a snapshot ahead of
/// its checkpoint refuses the replay's next barrier, as a restore from scratch does
/// (`06-restore-from-scratch`, which also takes Barrier(1) again); a release deferred to
/// the next call misses the held-back elements, as re-feeding newest first does
/// (`06-buffer-order-does-not-matter`, whose contract failure reorders them).
#[rstest]
#[case::nonexistent_blocked(drive::<NonexistentBlocked>, "alignment", "06-R3")]
#[case::old_barrier(drive::<OldBarrier>, "configuration", "06-R12")]
#[case::single_no_turn(drive::<crate::stage06::red_team_held::SingleNoTurn>, "contract", "06-R12")]
#[case::restore_defaulted_snapshot(drive::<crate::stage06::red_team_bounds::RestoreDefaultedSnapshot>, "configuration", "06-R14")]
#[case::blocked_means_buffered(drive::<BlockedMeansBuffered>, "alignment", "06-R5")]
#[case::bitmask_inputs(drive::<crate::stage06::red_team::BitmaskInputs>, "alignment", "06-R3")]
#[case::snapshot_ahead(drive::<crate::stage06::red_team_held::SnapshotAhead>, "contract", "06-R13")]
#[case::lazy_release(drive::<crate::stage06::red_team_held::LazyRelease>, "alignment", "06-R7")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Barriers>(drive, check, requirement);
}
