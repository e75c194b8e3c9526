//! Stage 05 mutants from a second red-team pass, one rule each: a record with one window
//! still open counted in its fired windows too, a window's keys in arrival order, lateness
//! read one timestamp after the firing, and late records dropped without a word.

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

use super::flawed::Flaw;

flawed!(
    /// **Mistake:** lateness is decided for the record as a whole: once one of its sliding
    /// windows is still open, it goes into all of them, the fired ones too ("it is not
    /// late, so count it"). **Verdict:** a fired window is reborn and fires again
    /// (05-R7: such a record counts in the windows that have not fired only).
    partly_late_counts_all, PartlyLateCountsAll, PartlyLateCountsAllOperator,
    Flaw::PartlyLateCountsAll
);
flawed!(
    /// **Mistake:** each window keeps its keys in a list, in the order they arrived, and
    /// fires them in that order. **Verdict:** `firing` fails when `b` reaches a window
    /// before `a` (05-R12: by window, then by key).
    keys_in_arrival_order, KeysInArrivalOrder, KeysInArrivalOrderOperator,
    Flaw::KeysInArrivalOrder
);
flawed!(
    /// **Mistake:** the window fires at `end - 1`, but `on_record` calls it fired only when
    /// `end <= wm`: a record arriving right after the firing recreates the window.
    /// **Verdict:** `lateness` fails: that record is not returned as late (05-R4).
    late_from_the_end, LateFromTheEnd, LateFromTheEndOperator, Flaw::LateFromTheEnd
);
flawed!(
    /// **Mistake:** a late record is dropped, "it is too late to count": `on_record`
    /// returns `None` for it. **Verdict:** `lateness` fails: the record whose windows all
    /// fired is not returned as `Late` (05-R4: its windows have all fired).
    drops_late, DropsLate, DropsLateOperator, Flaw::DropsLate
);

/// Every mutant of this file, the check that must reject it, the requirement its
/// smallest failing case must name, and the misconception card its report shows. No
/// card (yet) for lateness read one timestamp after the firing, nor for late records
/// dropped: their smallest case is the one of a record counted in a window that fired
/// empty, and of a late record counted, and one failure does not tell them apart.
#[rstest]
#[case::partly_late_counts_all(drive::<PartlyLateCountsAll>, "firing", "05-R7", Some("05-on-time-counts-everywhere"))]
#[case::keys_in_arrival_order(drive::<KeysInArrivalOrder>, "firing", "05-R12", Some("05-keys-in-arrival-order"))]
#[case::keys_in_arrival_order_restored(drive::<KeysInArrivalOrder>, "crash", "05-R12", Some("05-keys-in-arrival-order"))]
#[case::late_from_the_end(drive::<LateFromTheEnd>, "lateness", "05-R4", None)]
#[case::drops_late(drive::<DropsLate>, "lateness", "05-R4", None)]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report = graders::harness::expect_rejected_for::<Windows>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}

/// Mutants whose smallest case is another mistake's symptom: a record arriving right after
/// its window fired, a late record dropped, a late record counted (never returned as late)
/// and a window that "fires" only when it held records all come out as `None` where `Late`
/// was expected, and the smallest such case always has a window that held no record, so
/// the report cannot tell "late records still count" from "an empty window has not
/// fired". No card may be shown for them (`05-late-records-still-count` is shown where the
/// record is returned as late and counted all the same).
#[rstest]
#[case::counts_late_records(drive::<crate::stage05::CountsLateRecords>, "lateness", "05-R4")]
#[case::fired_only_with_state(drive::<crate::stage05::edges::FiredOnlyWithState>, "lateness", "05-R4")]
#[case::late_from_the_end(drive::<LateFromTheEnd>, "lateness", "05-R4")]
#[case::drops_late(drive::<DropsLate>, "lateness", "05-R4")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Windows>(drive, check, requirement);
}
