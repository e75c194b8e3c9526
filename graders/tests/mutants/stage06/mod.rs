//! Stage 06 mutants: aligners that snapshot at the wrong moment, leak or lose held-back
//! elements, and shortcuts that never align at all.
//!
//! Most mutants share one flawed aligner, [`flawed::Aligner`], switched by a `MISTAKE`
//! constant, so each differs from the protocol in exactly one place.

use graders::stage06::{Barriers, Case, Observation, drive};
use rstest::rstest;

use crate::accepted;

mod flawed;

/// A mutant crate: stage 06's API with the flawed aligner of mistake `$m`.
macro_rules! aligner_mutant {
    ($(#[$doc:meta])* $name:ident, $m:path) => {
        $(#[$doc])*
        mod $name {
            pub use solution06::{Aligned, CheckpointId, Element, inject_barriers};
            pub type BarrierAligner<T> = super::flawed::Aligner<T, { $m }>;
            pub fn aligned_snapshots<T, S: Clone>(
                inputs: Vec<Vec<Element<T>>>,
                schedule: &[usize],
                init: S,
                fold: impl FnMut(&mut S, &T),
            ) -> anyhow::Result<Vec<(CheckpointId, S)>> {
                super::flawed::aligned_snapshots::<T, S, { $m }>(inputs, schedule, init, fold)
            }
        }
    };
}

// The flawed aligner with no mistake switched on must pass: the mutants below differ
// from a passing implementation in exactly their one mistake.
aligner_mutant!(faithful, super::flawed::NONE);
graders::impl_stage06!(Faithful, faithful);
accepted!(the_mutant_scaffolding_without_a_mistake_passes: Barriers, drive::<Faithful>);

aligner_mutant! {
    /// **Mistake:** "barriers always come in order, so any barrier is the one being
    /// aligned": the aligner never checks a barrier's id, and a barrier out of turn
    /// silently joins the current alignment.
    /// **Verdict:** `configuration` fails: `on_element(0, B2)` on a fresh aligner
    /// answers instead of refusing.
    no_turn_check_m, super::flawed::NO_TURN_CHECK
}
graders::impl_stage06!(NoTurnCheck, no_turn_check_m);

aligner_mutant! {
    /// **Mistake:** the snapshot is taken when the *first* input delivers `Barrier(c)`, not
    /// the last (inputs are still blocked as they deliver it).
    /// **Verdict:** `alignment` fails on the first 2-input case with a barrier, at the step
    /// where input 0 delivers B1: "a checkpoint came out although input(s) 1 have not
    /// delivered Barrier(1) yet: the snapshot waits for the last barrier, not the first".
    first_barrier_m, super::flawed::FIRST_BARRIER
}
graders::impl_stage06!(FirstBarrier, first_barrier_m);

aligner_mutant! {
    /// **Mistake:** the input that delivered the barrier is not blocked: its later records
    /// flow straight through and end up in the snapshot of the checkpoint they follow.
    /// **Verdict:** `alignment` fails on `input 0 = [a0 B1], input 1 = [b0 b1 B1 b2]`,
    /// arrivals `0 1 1 1 1 0`, at step 5: "b2 arrived on input 1 while it is blocked (it
    /// delivered Barrier(1), checkpoint 1 is not complete): it must be held back".
    no_blocking_m, super::flawed::NO_BLOCKING
}
graders::impl_stage06!(NoBlocking, no_blocking_m);

aligner_mutant! {
    /// **Mistake:** the held-back records are released *before* `Checkpoint(c)`, so they
    /// reach the state that is snapshotted for `c`.
    /// **Verdict:** `alignment` fails at step 6 of arrivals `0 1 1 1 1 0` over
    /// `[a0 B1]`, `[b0 b1 B1 b2]`: expected `[Checkpoint(1), b2]`, got `[b2, Checkpoint(1)]`,
    /// "b2 came out before Checkpoint(1), but it is after Barrier(1) on its input".
    release_before_m, super::flawed::RELEASE_BEFORE_CHECKPOINT
}
graders::impl_stage06!(ReleaseBefore, release_before_m);

aligner_mutant! {
    /// **Mistake:** only held-back *records* are re-fed; a held-back `Barrier(c + 1)` is
    /// lost, so that input never blocks for `c + 1` and checkpoint `c + 1` never completes.
    /// **Verdict:** `alignment` fails on `[a0 B1 a1 B2]`, `[b0 B1 b1 B2]` with input 0 running
    /// two barriers ahead (arrivals `0 0 0 0 1 1 1 1`): after step 6, "is_blocked(0) = false,
    /// expected true: input 0 delivered Barrier(2)" (its buffered B2 was dropped).
    drop_barriers_m, super::flawed::DROP_BUFFERED_BARRIERS
}
graders::impl_stage06!(DropBarriers, drop_barriers_m);

aligner_mutant! {
    /// **Mistake:** the buffer is re-fed newest first (popped from the back, like a stack),
    /// which reverses the order of a blocked input's elements.
    /// **Verdict:** `alignment` fails on `[a0 B1 a1 B2]`, `[b0 B1 b1 B2]` (arrivals
    /// `0 0 0 0 1 1 1 1`) at step 6: expected `[Checkpoint(1), a1]`, got `[Checkpoint(1)]`:
    /// the buffered B2 was re-fed before a1 and blocked it again.
    lifo_m, super::flawed::LIFO_BUFFER
}
graders::impl_stage06!(Lifo, lifo_m);

aligner_mutant! {
    /// **Mistake:** the blocked inputs are never unblocked after the checkpoint (the set of
    /// inputs that delivered the barrier is not reset): everything after the first
    /// checkpoint is held back forever, a deadlock.
    /// **Verdict:** `alignment` fails on the smallest 2-input case with a barrier,
    /// `[a0 B1]`, `[b0 B1]`, arrivals `0 0 1 1`: after step 4 (which emits `Checkpoint(1)`),
    /// "is_blocked(0) = true, expected false: no checkpoint is waiting for a barrier from it".
    never_unblock_m, super::flawed::NEVER_UNBLOCK
}
graders::impl_stage06!(NeverUnblock, never_unblock_m);

aligner_mutant! {
    /// **Mistake:** the held-back elements are appended to the output as plain records,
    /// without being re-fed: a held-back barrier is skipped and the records behind it are
    /// not held back again.
    /// **Verdict:** `alignment` fails on `[a0 B1 a1 B2]`, `[b0 B1 b1 B2]` (arrivals
    /// `0 0 0 0 1 1 1 1`) after step 6: input 0 is not blocked again although its held-back
    /// B2 arrived.
    no_refeed_m, super::flawed::RELEASE_WITHOUT_REFEED
}
graders::impl_stage06!(NoRefeed, no_refeed_m);

aligner_mutant! {
    /// **Mistake:** `restore` ignores the bytes and builds an aligner expecting checkpoint
    /// 1, so the replay's `Barrier(c + 1)` is refused as out of turn.
    /// **Verdict:** only `crash` fails: "after the crash, restored from checkpoint 1 ...,
    /// step 2 (input 0 delivers B2): on_element failed" with the mutant's own out-of-turn
    /// error.
    scratch_m, super::flawed::RESTORE_FROM_SCRATCH
}
graders::impl_stage06!(Scratch, scratch_m);

/// **Mistake:** `inject_barriers` treats `barrier_every = 0` as "no barriers" and
/// returns the records unchanged.
/// **Verdict:** `configuration` fails: "inject_barriers accepted an invalid
/// `barrier_every`".
mod zero_cadence_accepted {
    pub use solution06::*;
    pub fn inject_barriers<T: Clone>(
        records: &[T],
        barrier_every: usize,
    ) -> anyhow::Result<Vec<Element<T>>> {
        if barrier_every == 0 {
            return Ok(records.iter().cloned().map(Element::Record).collect());
        }
        solution06::inject_barriers(records, barrier_every)
    }
}
graders::impl_stage06!(ZeroCadence, zero_cadence_accepted);

/// **Mistake:** `inject_barriers` puts the barrier *before* record `c * barrier_every`
/// (it tests the index before pushing the record), and so never after the last record.
/// **Verdict:** `inject-barriers` fails on the one-record input with `barrier_every = 1`:
/// "stream stops after 1 item; item 1 should be Barrier(1)".
mod barrier_before_record {
    pub use solution06::*;
    pub fn inject_barriers<T: Clone>(
        records: &[T],
        barrier_every: usize,
    ) -> anyhow::Result<Vec<Element<T>>> {
        anyhow::ensure!(barrier_every > 0, "barrier_every must be at least 1, got 0");
        let mut out = Vec::new();
        for (i, r) in records.iter().enumerate() {
            if i > 0 && i % barrier_every == 0 {
                out.push(Element::Barrier((i / barrier_every) as u64));
            }
            out.push(Element::Record(r.clone()));
        }
        Ok(out)
    }
}
graders::impl_stage06!(BarrierBefore, barrier_before_record);

/// **Mistake (the shortcut):** `aligned_snapshots` never aligns anything: it folds, for
/// each barrier `c`, the records before `Barrier(c)` on every input straight from the
/// whole inputs, ignoring the schedule. Right on complete runs, it reports checkpoints
/// that a job stopped early never completed.
/// **Verdict:** `aligned-snapshots` fails on the first prefix where one input has
/// delivered `B1` and another has not (already the empty prefix of `[a0 B1]`, `[b0 B1]`):
/// "checkpoint 1 is not complete yet ..., but the result holds it".
mod snapshots_from_whole_input {
    pub use solution06::*;
    pub fn aligned_snapshots<T, S: Clone>(
        inputs: Vec<Vec<Element<T>>>,
        _schedule: &[usize],
        init: S,
        mut fold: impl FnMut(&mut S, &T),
    ) -> anyhow::Result<Vec<(CheckpointId, S)>> {
        let barriers = inputs
            .iter()
            .map(|i| {
                i.iter()
                    .filter(|e| matches!(e, Element::Barrier(_)))
                    .count()
            })
            .min()
            .unwrap_or(0) as u64;
        let mut snapshots = Vec::new();
        for c in 1..=barriers {
            let mut state = init.clone();
            for input in &inputs {
                for e in input {
                    match e {
                        Element::Barrier(b) if *b == c => break,
                        Element::Record(r) => fold(&mut state, r),
                        Element::Barrier(_) => {}
                    }
                }
            }
            snapshots.push((c, state));
        }
        Ok(snapshots)
    }
}
graders::impl_stage06!(WholeInput, snapshots_from_whole_input);

/// **Mistake:** `aligned_snapshots` refuses a schedule that leaves elements undelivered
/// ("the schedule must deliver every element"), where the brief lets it stop early, as a
/// job that crashed there.
/// **Verdict:** `aligned-snapshots` fails: the first prefix returns an error (06-R16).
mod prefix_refused {
    pub use solution06::*;
    pub fn aligned_snapshots<T, S: Clone>(
        inputs: Vec<Vec<Element<T>>>,
        schedule: &[usize],
        init: S,
        fold: impl FnMut(&mut S, &T),
    ) -> anyhow::Result<Vec<(CheckpointId, S)>> {
        let elements: usize = inputs.iter().map(Vec::len).sum();
        anyhow::ensure!(
            schedule.len() >= elements,
            "the schedule delivers {} of {elements} elements",
            schedule.len()
        );
        solution06::aligned_snapshots(inputs, schedule, init, fold)
    }
}
graders::impl_stage06!(PrefixRefused, prefix_refused);

/// Every mutant of this file and the check that must reject it (the mutant's doc
/// comment says why).
#[rstest]
#[case::snapshot_at_first_barrier(drive::<FirstBarrier>, "alignment", "06-R6", "06-first-barrier-snapshots")]
#[case::accepting_a_barrier_out_of_turn(drive::<NoTurnCheck>, "configuration", "06-R12", "06-barriers-come-in-order")]
#[case::not_blocking_the_input(drive::<NoBlocking>, "alignment", "06-R9", "06-no-blocking")]
#[case::releasing_before_the_checkpoint(drive::<ReleaseBefore>, "alignment", "06-R6", "06-release-then-checkpoint")]
#[case::losing_a_buffered_barrier(drive::<DropBarriers>, "alignment", "06-R7", "06-held-back-barriers-are-data")]
#[case::re_feeding_newest_first(drive::<Lifo>, "alignment", "06-R7", "06-buffer-order-does-not-matter")]
#[case::never_unblocking(drive::<NeverUnblock>, "alignment", "06-R3", "06-blocked-for-good")]
#[case::releasing_without_re_feeding(drive::<NoRefeed>, "alignment", "06-R7", "06-held-back-barriers-are-data")]
#[case::restoring_from_scratch(drive::<Scratch>, "crash", "06-R13", "06-restore-from-scratch")]
#[case::accepting_barrier_every_zero(drive::<ZeroCadence>, "configuration", "06-R2", "06-zero-means-no-barriers")]
#[case::barrier_before_its_record(drive::<BarrierBefore>, "inject-barriers", "06-R1", "06-barrier-before-its-record")]
#[case::snapshots_from_the_whole_input(drive::<WholeInput>, "aligned-snapshots", "06-R16", "06-snapshots-from-the-whole-input")]
#[case::prefix_refused(drive::<PrefixRefused>, "aligned-snapshots", "06-R16", "06-schedule-delivers-everything")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = graders::harness::expect_rejected_for::<Barriers>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}

// After the macro, which the contract-edge mutants use too.
mod contract;
mod edges;
mod per_input;
mod red_team;
mod red_team_bounds;
mod red_team_held;
mod red_team_layouts;
mod red_team_sizes;
mod red_team_wide;
mod variants;
