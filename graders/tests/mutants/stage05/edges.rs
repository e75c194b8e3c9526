//! Stage 05 mutants at the contract's edges, one requirement each: windows that hold
//! their end, windows off the grid or missing when the slide does not divide the size,
//! a size of 0 accepted, aggregates replaced, "fired" read from the state, late records
//! counted, windows counted as state, `Late` carrying the watermark, a first watermark of
//! 0 ignored, results by key, a watermark that goes back, garbage restored as empty, and
//! `window_sums` flushing at the end; and two correct but unusual variants.

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

use super::flawed::Flaw;
use crate::accepted;

flawed!(
    /// The operator of the mutants without a flaw: a second, independent operator (its
    /// snapshot also lists the windows that emitted) that must pass.
    flawless, Flawless, FlawlessOperator, Flaw::None
);
accepted!(the_flawed_operator_without_a_flaw_passes: Windows, drive::<Flawless>);

flawed!(
    /// **Mistake:** `open.insert(key, (value, 1))`: a record replaces its key's aggregate
    /// instead of adding to it. **Verdict:** `firing` fails: a window with two records of
    /// one key fires the last one's value, count 1 (05-R3).
    replaces_aggregate, ReplacesAggregate, ReplacesAggregateOperator, Flaw::ReplacesAggregate
);
flawed!(
    /// **Mistake:** "fired" read from the state: a window that never held a record is not
    /// marked as fired, so a record reaching it after the watermark passed is counted.
    /// **Verdict:** `lateness` fails: such a record is not returned as late (05-R4).
    fired_only_with_state, FiredOnlyWithState, FiredOnlyWithStateOperator, Flaw::FiredOnlyWithState
);
flawed!(
    /// **Mistake:** a late record is returned as `Late`, and added to its windows all the
    /// same. **Verdict:** `firing` fails: the next watermark fires it in a result (05-R6).
    late_and_counted, LateAndCounted, LateAndCountedOperator, Flaw::LateAndCounted
);
flawed!(
    /// **Mistake:** `state_size()` is `open.len()`, the open windows, not the aggregates.
    /// **Verdict:** `state` fails when two keys share a window (05-R5).
    counts_windows, CountsWindows, CountsWindowsOperator, Flaw::CountsWindows
);
flawed!(
    /// **Mistake:** the side output stamps a late record with the watermark that made it
    /// late. **Verdict:** `lateness` fails: `Late` is not the record as given (05-R10).
    late_at_watermark, LateAtWatermark, LateAtWatermarkOperator, Flaw::LateAtWatermark
);
flawed!(
    /// **Mistake:** `wm > current.unwrap_or(0)`: a first watermark of 0 is taken for one
    /// that does not advance. **Verdict:** `contract` fails: after `W(0)`,
    /// `current_watermark()` is `None` (05-R11).
    first_zero_ignored, FirstZeroIgnored, FirstZeroIgnoredOperator, Flaw::FirstZeroIgnored
);
flawed!(
    /// **Mistake:** the results of one call sorted by key, then window. **Verdict:**
    /// `firing` fails when two windows fire in one call (05-R12).
    by_key_then_window, ByKeyThenWindow, ByKeyThenWindowOperator, Flaw::ByKeyThenWindow
);
flawed!(
    /// **Mistake:** a watermark that does not advance fires nothing but still becomes the
    /// current one. **Verdict:** `contract` fails: after `W(2), W(0)`,
    /// `current_watermark()` is `Some(0)` (05-R13).
    stale_regresses, StaleRegresses, StaleRegressesOperator, Flaw::StaleRegresses
);
flawed!(
    /// **Mistake:** `restore` falls back to an empty operator on bytes it cannot read.
    /// **Verdict:** `contract` fails: a snapshot cut short is restored (05-R16).
    garbage_is_empty, GarbageIsEmpty, GarbageIsEmptyOperator, Flaw::GarbageIsEmpty
);
flawed!(
    /// **Mistake:** `window_sums` fires what is left when the elements are done.
    /// **Verdict:** `window-sums` fails on a stream that does not end with
    /// `Watermark(u64::MAX)` (05-R18).
    flushes_at_end, FlushesAtEnd, FlushesAtEndOperator, Flaw::FlushesAtEnd
);
flawed!(
    /// **Mistake:** `window_sums` drops a late record equal to the one reported before it
    /// ("a duplicate delivery"). **Verdict:** `window-sums` fails on two identical late
    /// records: one is returned (05-R17: the late records in stream order).
    late_deduplicated, LateDeduplicated, LateDeduplicatedOperator, Flaw::LateDeduplicated
);

/// Assigners over the reference's operator: `$assign(size, slide, ts)` is every window.
macro_rules! assigners {
    ($(#[$doc:meta])* $module:ident, $binding:ident, $operator:ident, $tumbling_zero_ok:expr, $assign:expr) => {
        $(#[$doc])*
        mod $module {
            pub use solution05::*;

            fn windows(size: u64, slide: u64, ts: u64) -> Vec<Window> {
                let assign: fn(u64, u64, u64) -> Vec<(u64, u64)> = $assign;
                assign(size, slide, ts)
                    .into_iter()
                    .map(|(start, end)| Window { start, end })
                    .collect()
            }

            #[derive(Debug, Clone, Copy)]
            pub struct Tumbling(u64);
            impl Tumbling {
                pub fn new(size: u64) -> anyhow::Result<Self> {
                    anyhow::ensure!(size > 0 || $tumbling_zero_ok, "a window `size` of 0 holds nothing");
                    Ok(Self(size))
                }
            }
            impl WindowAssigner for Tumbling {
                fn assign(&self, ts: u64) -> Vec<Window> {
                    windows(self.0, self.0, ts)
                }
            }

            #[derive(Debug, Clone, Copy)]
            pub struct Sliding(u64, u64);
            impl Sliding {
                pub fn new(size: u64, slide: u64) -> anyhow::Result<Self> {
                    anyhow::ensure!(size > 0, "zero size");
                    anyhow::ensure!((1..=size).contains(&slide), "bad slide {slide} for size {size}");
                    Ok(Self(size, slide))
                }
            }
            impl WindowAssigner for Sliding {
                fn assign(&self, ts: u64) -> Vec<Window> {
                    windows(self.0, self.1, ts)
                }
            }
        }
        graders::impl_stage05!($binding, $operator, $module);
    };
}

assigners!(
    /// Right, computed another way: the first and last `k` of the windows that hold `ts`,
    /// with other error messages (each still naming its argument).
    by_range, ByRange, ByRangeOperator, false,
    |size, slide, ts| {
        let first = if ts >= size { (ts - size) / slide + 1 } else { 0 };
        (first..=ts / slide)
            .map(|k| (k * slide, (k * slide).saturating_add(size)))
            .collect()
    }
);
accepted!(assigners_by_range_with_other_messages_pass: Windows, drive::<ByRange>);

assigners!(
    /// **Mistake:** windows are closed, `[start, end]`: a record at a window's end is in
    /// it too. **Verdict:** `assign` fails: `Tumbling::new(2).assign(2)` holds `[0, 2)`
    /// (05-R1).
    closed_windows, ClosedWindows, ClosedWindowsOperator, false,
    |size, slide, ts| {
        (0..=ts / slide)
            .map(|k| (k * slide, k * slide + size))
            .filter(|&(start, end)| start <= ts && ts <= end)
            .collect()
    }
);
assigners!(
    /// **Mistake:** sliding windows start at the record, every `slide` back from it,
    /// not at multiples of the slide. **Verdict:** `assign` fails:
    /// `Sliding::new(4, 2).assign(1)` is `[[1, 5)]` (05-R9).
    starts_at_record, StartsAtRecord, StartsAtRecordOperator, false,
    |size, slide, ts| {
        let mut starts: Vec<u64> = std::iter::successors(Some(ts), |s| s.checked_sub(slide))
            .take_while(|s| s + size > ts)
            .collect();
        if slide == size {
            starts = vec![ts - ts % size];
        }
        starts.reverse();
        starts.into_iter().map(|s| (s, s + size)).collect()
    }
);
assigners!(
    /// **Mistake:** a record lies in `size / slide` windows, as when the slide divides the
    /// size. **Verdict:** `assign` fails: `Sliding::new(5, 2).assign(4)` misses `[0, 5)`
    /// (05-R8).
    slide_divides_size, SlideDividesSize, SlideDividesSizeOperator, false,
    |size, slide, ts| {
        let last = ts - ts % slide;
        let mut starts: Vec<u64> = (0..size / slide)
            .map_while(|j| last.checked_sub(j * slide))
            .collect();
        starts.reverse();
        starts.into_iter().map(|s| (s, s + size)).collect()
    }
);
assigners!(
    /// **Mistake:** `Tumbling::new` checks nothing: a size of 0 is accepted.
    /// **Verdict:** `errors` fails: `Tumbling::new(0)` returns `Ok` (05-R19). The windows
    /// are right (`by_range`'s), sliding ones too, so that this is its one mistake.
    tumbling_zero_accepted, TumblingZeroAccepted, TumblingZeroAcceptedOperator, true,
    |size, slide, ts| {
        let first = if ts >= size { (ts - size) / slide + 1 } else { 0 };
        (first..=ts / slide)
            .map(|k| (k * slide, (k * slide).saturating_add(size)))
            .collect()
    }
);

/// Every mutant of this file, the check that must reject it, the requirement that check's
/// smallest failing case must name, and the misconception card its report shows. No card
/// for a slip no one believes (`insert` for an add, the watermark stamped on a late
/// record, a first `W(0)` compared with `unwrap_or(0)`, a size of 0 accepted).
#[rstest]
#[case::closed_windows(drive::<ClosedWindows>, "assign", "05-R1", Some("05-windows-hold-their-end"))]
#[case::replaces_aggregate(drive::<ReplacesAggregate>, "firing", "05-R3", None)]
#[case::fired_only_with_state(drive::<FiredOnlyWithState>, "lateness", "05-R4", None)]
#[case::counts_windows(drive::<CountsWindows>, "state", "05-R5", Some("05-state-counts-windows"))]
#[case::late_and_counted(drive::<LateAndCounted>, "firing", "05-R6", Some("05-late-records-still-count"))]
#[case::slide_divides_size(drive::<SlideDividesSize>, "assign", "05-R8", Some("05-size-over-slide-windows"))]
#[case::starts_at_record(drive::<StartsAtRecord>, "assign", "05-R9", Some("05-windows-start-at-the-record"))]
#[case::late_at_watermark(drive::<LateAtWatermark>, "lateness", "05-R10", None)]
#[case::first_zero_ignored(drive::<FirstZeroIgnored>, "contract", "05-R11", None)]
#[case::first_zero_ignored_firing(drive::<FirstZeroIgnored>, "firing", "05-R11", None)]
#[case::by_key_then_window(drive::<ByKeyThenWindow>, "firing", "05-R12", Some("05-results-key-by-key"))]
#[case::stale_regresses(drive::<StaleRegresses>, "contract", "05-R13", Some("05-watermark-is-the-last-seen"))]
#[case::garbage_is_empty(drive::<GarbageIsEmpty>, "contract", "05-R16", Some("05-unreadable-snapshot-is-fresh"))]
#[case::flushes_at_end(drive::<FlushesAtEnd>, "window-sums", "05-R18", Some("05-end-of-input-fires"))]
#[case::late_deduplicated(drive::<LateDeduplicated>, "window-sums", "05-R17", None)]
#[case::tumbling_zero_accepted(drive::<TumblingZeroAccepted>, "errors", "05-R19", None)]
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

/// Mutants whose smallest cases look like another mistake's card: a window's aggregate
/// replaced by its last record gives a wrong sum, as `05-sums-are-a-group-by`'s; a late
/// record returned with the watermark for its timestamp is a wrong late answer, as
/// `05-late-records-still-count`'s; a size of 0 accepted is no belief about windows; a
/// first `W(0)` lost to `unwrap_or(0)` leaves `current_watermark()` at `None`, as a
/// watermark moved only by firing does (`05-watermark-only-when-firing`). No card may be
/// shown for them.
#[rstest]
#[case::replaces_aggregate(drive::<ReplacesAggregate>, "firing", "05-R3")]
#[case::late_at_watermark(drive::<LateAtWatermark>, "lateness", "05-R10")]
#[case::tumbling_zero_accepted(drive::<TumblingZeroAccepted>, "errors", "05-R19")]
#[case::first_zero_ignored(drive::<FirstZeroIgnored>, "contract", "05-R11")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Windows>(drive, check, requirement);
}
