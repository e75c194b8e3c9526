//! Stage 06 mutants only the `contract` check rejects: each passes every older check
//! (the table's test says so) and breaks one sentence of the brief in a call sequence
//! the laws' shapes never make: a barrier far out of turn, a barrier of an input that
//! does not exist, a restore of a fresh aligner's snapshot, a snapshot while elements are
//! held back, a call after a refused barrier, two inputs blocked again by one re-feed, an
//! alignment buffer bounded at eight elements.

use graders::stage06::{Barriers, Case, Observation, drive};
use rstest::rstest;

use super::flawed;

aligner_mutant! {
    /// **Mistake:** "a barrier out of turn: one ahead, and one behind" read as the whole
    /// list: only `Barrier(next + 1)` and `Barrier(next - 1)` are refused, any other
    /// barrier joins the alignment as if it were the awaited one.
    /// **Verdict:** `contract` fails: `BarrierAligner::new(1), then on_element(0, B18446744073709551615)`
    /// answers `Ok([Checkpoint(18446744073709551615)])` instead of an error (06-R12).
    one_off_turn_m, super::flawed::ONE_OFF_TURN_CHECK
}
graders::impl_stage06!(OneOffTurn, one_off_turn_m);

aligner_mutant! {
    /// **Mistake:** "an input that does not exist" read as "a record of an input that does
    /// not exist": a barrier of input `inputs` is counted towards the alignment.
    /// **Verdict:** `contract` fails: `BarrierAligner::new(1), then on_element(1, B1)`
    /// answers `Ok([Checkpoint(1)])` instead of an error (06-R11).
    unknown_input_barrier_m, super::flawed::UNKNOWN_INPUT_BARRIER
}
graders::impl_stage06!(UnknownInputBarrier, unknown_input_barrier_m);

aligner_mutant! {
    /// **Mistake:** "checkpoints are numbered 1, 2, 3, ..." taken to mean that a snapshot
    /// recording no completed checkpoint is no aligner snapshot: `restore` refuses the
    /// bytes of an aligner that completed none.
    /// **Verdict:** `contract` fails: `BarrierAligner::new(1), then restore(1,
    /// &snapshot()?)` is an error (06-R13).
    restore_refuses_fresh_m, super::flawed::RESTORE_REFUSES_FRESH
}
graders::impl_stage06!(RestoreRefusesFresh, restore_refuses_fresh_m);

aligner_mutant! {
    /// **Mistake:** a snapshot taken while elements are held back would lose them, so
    /// `snapshot` refuses then (but buffers are not part of a snapshot: recovery replays
    /// them).
    /// **Verdict:** `contract` fails: `BarrierAligner::new(2), then on_element(0, B1),
    /// on_element(0, a2), restore(2, &snapshot()?)` is an error (06-R13).
    snapshot_refuses_held_m, super::flawed::SNAPSHOT_REFUSES_HELD
}
graders::impl_stage06!(SnapshotRefusesHeld, snapshot_refuses_held_m);

aligner_mutant! {
    /// **Mistake:** "errors, never panics" read as "the call that is refused must not
    /// panic": the turn check returns its error with the alignment state half taken, and
    /// the next call panics on it.
    /// **Verdict:** `contract` fails: `BarrierAligner::new(1), then on_element(0, B2),
    /// on_element(0, a2)` panics (06-R12).
    broken_after_error_m, super::flawed::BROKEN_AFTER_ERROR
}
graders::impl_stage06!(BrokenAfterError, broken_after_error_m);

aligner_mutant! {
    /// **Mistake:** "a held-back barrier blocks its input again" kept for one input: the
    /// re-feed remembers the last input a re-fed barrier blocked again, so when two are
    /// blocked again, the first one's later records leak out before their checkpoint.
    /// **Verdict:** `contract` fails: 3 inputs, inputs 0 and 1 deliver `B1`, then `B2`,
    /// then `a5` and `b6`; input 2's `Barrier(1)` answers `[Checkpoint(1), a5]` where
    /// `[Checkpoint(1)]` is due (06-R7).
    refeed_reblocks_one_m, super::flawed::REFEED_REBLOCKS_ONE
}
graders::impl_stage06!(RefeedReblocksOne, refeed_reblocks_one_m);

aligner_mutant! {
    /// **Mistake:** the alignment buffer is bounded ("as a real job's network buffers
    /// are"): once eight elements are held back, the next element of a blocked input is
    /// refused with an error, though anything a blocked input delivers is buffered (a
    /// red team's w06-01 bounded it at four).
    /// **Verdict:** `contract` fails: 3 inputs, inputs 0 and 1 deliver `B1`, then hold
    /// back `a3 b4 a5 b6 B2 a8 b9 a10`; input 1's `b11`, the ninth, is refused where
    /// `Ok([])` is due (06-R9).
    alignment_buffer_of_eight_m, super::flawed::BOUNDED_BUFFER
}
graders::impl_stage06!(AlignmentBufferOfEight, alignment_buffer_of_eight_m);

/// Every mutant of this file, the check that must reject it and the requirement its
/// smallest failing case must name; every other check must accept it.
#[rstest]
#[case::one_off_turn_check(drive::<OneOffTurn>, "contract", "06-R12", Some("06-out-of-turn-is-one-off"))]
#[case::unknown_input_barrier(drive::<UnknownInputBarrier>, "contract", "06-R11", None)]
#[case::restore_refuses_fresh(drive::<RestoreRefusesFresh>, "contract", "06-R13", Some("06-no-checkpoint-no-snapshot"))]
#[case::broken_after_error(drive::<BrokenAfterError>, "contract", "06-R12", Some("06-unusable-after-an-error"))]
#[case::refeed_reblocks_one_input(drive::<RefeedReblocksOne>, "contract", "06-R7", None)]
#[case::alignment_buffer_of_eight(drive::<AlignmentBufferOfEight>, "contract", "06-R9", None)]
fn only_the_contract_rejects(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report = graders::harness::expect_rejected_for::<Barriers>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    for other in report.checks.iter().filter(|c| c.name != check) {
        if other.first_failure.is_some() {
            crate::fail(&format!(
                "`{}` rejects this mutant too: it is not one only `{check}` finds",
                other.name
            ));
        }
    }
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}

/// `snapshot` refusing while records are held back: the contract finds it first, and the
/// `crash` check's aligners that completed the same checkpoint (one of them half through
/// the next, holding a record back) find it too.
#[rstest]
#[case::snapshot_refuses_held(drive::<SnapshotRefusesHeld>, "contract", "06-R13", "06-snapshot-would-lose-held-back")]
fn the_contract_rejects_first(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = graders::harness::expect_rejected_for::<Barriers>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}
