//! The wording of stage-05 reports, pinned on the mutants that produce them.

use graders::stage05::{Windows, drive};

use super::LateByTimestamp;
use super::edges::{FiredOnlyWithState, LateAtWatermark, StartsAtRecord};
use super::red_team::LateIfAnyFired;
use crate::rejects;

/// A result for a window the assigner does not have reads as such, from the operator's
/// own result, not as a window fired at the wrong time.
#[test]
fn a_window_off_the_assigner_s_grid_reads_as_such() {
    let report = rejects::<Windows>(drive::<StartsAtRecord>, "firing");
    crate::wordings::reads(
        &report,
        "firing",
        [
            "Sliding::new(4, 2), elements (key@ts=value) [a@2=8, W(1), b@3=6, W(2), W(MAX)]",
            "[a [0, 4) sum 8 count 1, b [0, 4) sum 6 count 1, a [2, 6) sum 8 count 1, b [2, 6) sum 6 count 1]",
            "[a [0, 4) sum 8 count 1, b [1, 5) sum 6 count 1, a [2, 6) sum 8 count 1, b [3, 7) sum 6 count 1]",
            "at element 5 (W(MAX)), after [a@2=8, W(1), b@3=6, W(2)]: window [1, 5) of key \"b\" came out with sum 6 count 1, but it is no window of the assigner, whose windows are [k * 2, k * 2 + 4): the operator put records of key \"b\" in a window that does not exist",
        ],
    );
}

/// A record taken as on time into windows that fired empty reads from the operator's own
/// watermark when it took the record.
#[test]
fn a_record_taken_after_its_windows_fired_empty_reads_at_the_operator_s_watermark() {
    let report = rejects::<Windows>(drive::<FiredOnlyWithState>, "lateness");
    crate::wordings::reads(
        &report,
        "lateness",
        [
            "Tumbling::new(3), elements (key@ts=value) [b@3=6, W(2), a@2=8, W(MAX)]",
            "Some(a@2=8)",
            "None",
            "at element 3 (a@2=8), after [b@3=6, W(2)]: the operator took it as on time with its watermark at W(2), but every window of timestamp 2, [[0, 3)], fired already (W(2) reached its end - 1), though none held a record: a window fires whether or not it held records, so nothing can be added to it, and the record is late",
        ],
    );
}

/// A record returned late while one of its windows is still open reads at the watermark
/// the operator held when it called the record late.
#[test]
fn a_record_called_late_too_early_reads_at_the_operator_s_watermark() {
    let report = rejects::<Windows>(drive::<LateByTimestamp>, "lateness");
    crate::wordings::reads(
        &report,
        "lateness",
        [
            "Tumbling::new(2), elements (key@ts=value) [b@3=6, W(2), a@2=8, W(MAX)]",
            "None",
            "Some(a@2=8)",
            "at element 3 (a@2=8), after [b@3=6, W(2)]: the operator returned Late of a@2=8 with its watermark at W(2), but its windows [[2, 4)] have not fired yet (end - 1 > 2): the record counts there and is not late",
        ],
    );
}

/// A record called late because one of its windows fired reads with the window the
/// operator itself fired.
#[test]
fn a_record_called_late_after_one_window_fired_reads_with_the_operator_s_firing() {
    let report = rejects::<Windows>(drive::<LateIfAnyFired>, "lateness");
    crate::wordings::reads(
        &report,
        "lateness",
        [
            "Sliding::new(3, 1), elements (key@ts=value) [b@3=6, W(2), a@2=8, W(MAX)]",
            "None",
            "Some(a@2=8)",
            "at element 3 (a@2=8), after [b@3=6, W(2)]: the operator returned Late of a@2=8 with its watermark at W(2), but only [[0, 3)] fired already; its windows [[1, 4), [2, 5)] have not fired yet (end - 1 > 2): the record counts there and is not late",
        ],
    );
}

/// A late record returned otherwise than it was given reads with what the operator
/// returned.
#[test]
fn a_late_record_returned_changed_reads_with_the_operator_s_answer() {
    let report = rejects::<Windows>(drive::<LateAtWatermark>, "lateness");
    crate::wordings::reads(
        &report,
        "lateness",
        [
            "Tumbling::new(2), elements (key@ts=value) [b@1=0, W(0), a@3=9, W(2), a@0=-3, W(MAX)]",
            "Some(a@0=-3)",
            "Some(a@2=-3)",
            "at element 5 (a@0=-3), after [b@1=0, W(0), a@3=9, W(2)]: the operator returned Late of a@2=-3, but the late record is returned as it was given: Late of a@0=-3",
        ],
    );
}
