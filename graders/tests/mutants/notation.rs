//! Expected and actual in one notation, pinned on the mutants whose reports once mixed
//! two: a call's result as `f(..) = value` on both sides (not `Ok(value)` against
//! `value`), readings as `Some(3)` (not `Ok(Some(3))`), windows as `[start, end)` (not
//! `(start, end)`), a late record as the stream writes it.

use graders::stage03::{self, Parallelism};
use graders::stage04::{self, EventTime};
use graders::stage05::{self, Windows};

use crate::rejects;
use crate::stage03::OperatorIndexRoundRobin;
use crate::stage04::CombinedByMax;
use crate::stage05::{CountsLateRecords, SlidingOneWindow};

#[test]
fn stage03_a_formula_reads_as_a_call_on_both_sides() {
    let report =
        rejects::<Parallelism>(stage03::drive::<OperatorIndexRoundRobin>, "operator-index");
    crate::wordings::reads(
        &report,
        "operator-index",
        [
            "parallelism 2, max_parallelism 8",
            "operator_index_for(1, 2, 8) = 0",
            "operator_index_for(1, 2, 8) = 1",
            "key group 1 belongs to the range 0..=3 of subtask 0 (1 * 2 / 8 = 0)",
        ],
    );
}

#[test]
fn stage04_combined_watermarks_read_as_readings_on_both_sides() {
    let report = rejects::<EventTime>(stage04::drive::<CombinedByMax>, "combiner");
    crate::wordings::reads(
        &report,
        "combiner",
        [
            "2 inputs, watermarks [input 0: 3, input 1: 7]",
            "[None, Some(3)]",
            "[None, Some(7)]",
            "step 2 on_watermark(1, 7) returned Some(7), expected Some(3): the inputs' watermarks are [3, 7], whose minimum is 3; the last combined watermark reported was None",
        ],
    );
}

#[test]
fn stage05_windows_read_half_open_on_both_sides() {
    let report = rejects::<Windows>(stage05::drive::<SlidingOneWindow>, "assign");
    crate::wordings::reads(
        &report,
        "assign",
        [
            "Sliding::new(3, 1).assign(ts) for ts in 0..=12",
            "Sliding::new(3, 1).assign(1) = [[0, 3), [1, 4)]",
            "Sliding::new(3, 1).assign(1) = [[1, 4)]",
            "timestamp 1 belongs to every window of Sliding::new(3, 1) that contains it: [[0, 3), [1, 4)]",
        ],
    );
}

#[test]
fn stage05_a_late_record_reads_as_the_stream_writes_it() {
    let report = rejects::<Windows>(stage05::drive::<CountsLateRecords>, "lateness");
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
