//! Stage 04 mutants, each rejected by the check its doc names for the one requirement of
//! the brief it breaks: the generator and streams ([`watermarks`]), the combiner ([`combiners`])
//! and the contract's edges ([`edges`]); correct but unusual solutions ([`controls`]).

#[macro_use]
mod watermarks;
mod combiners;
mod controls;
mod edges;

use graders::harness::expect_rejected_for;
use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

pub use combiners::CombinedByMax;
use combiners::*;
use edges::*;
use watermarks::*;

/// Every mutant with a misconception card, the check that must reject it, the
/// requirement its failure must name, and the card its report must show.
#[rstest]
#[case::watermark_without_minus_one(drive::<WithoutMinusOne>, "generator", "04-R1", "04-watermark-from-max-minus-delay")]
#[case::saturating_watermark(drive::<SaturatingWatermark>, "generator", "04-R2", "04-watermark-from-max-minus-delay")]
#[case::with_watermarks_sorted(drive::<WithWatermarksSorted>, "with-watermarks", "04-R3", "04-records-sorted-by-event-time")]
#[case::repeats_watermarks(drive::<RepeatsWatermarks>, "with-watermarks", "04-R4", "04-watermark-after-every-record")]
#[case::final_watermark_only(drive::<FinalWatermarkOnly>, "with-watermarks", "04-R4", "04-watermarks-from-the-whole-input")]
#[case::late_strictly_below(drive::<LateStrictlyBelow>, "lateness", "04-R6", "04-late-means-strictly-behind")]
#[case::combined_by_max(drive::<CombinedByMax>, "combiner", "04-R7", "04-fastest-input-wins")]
#[case::zero_is_no_watermark(drive::<ZeroIsNoWatermark>, "contract", "04-R7", "04-zero-is-no-watermark")]
#[case::min_over_reported(drive::<MinOverReported>, "combiner", "04-R8", "04-silent-inputs-do-not-count")]
#[case::latest_input_watermark(drive::<LatestInputWatermark>, "combiner", "04-R9", "04-an-input-is-where-it-last-said")]
#[case::combined_not_stored(drive::<CombinedNotStored>, "combiner", "04-R10", "04-current-kept-apart")]
#[case::zero_inputs_accepted(drive::<ZeroInputsAccepted>, "errors", "04-R11", "04-zero-inputs-are-harmless")]
#[case::unknown_input_panics(drive::<UnknownInputPanics>, "errors", "04-R12", "04-inputs-are-trusted")]
#[case::max_ts_not_in_snapshot(drive::<MaxTsNotInSnapshot>, "crash", "04-R13", "04-snapshot-without-progress")]
#[case::combined_not_in_snapshot(drive::<CombinedNotInSnapshot>, "crash", "04-R14", "04-combined-is-derived")]
#[case::garbage_restores_fresh(drive::<GarbageRestoresFresh>, "errors", "04-R15", "04-unreadable-snapshot-is-fresh")]
#[case::delay_plus_one_overflows(drive::<DelayPlusOneOverflows>, "generator", "04-R16", "04-delay-arithmetic-cannot-overflow")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = expect_rejected_for::<EventTime>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}

/// The mutants no learner belief explains (no card): rejected for their requirement.
mod without_card {
    use super::*;

    #[rstest]
    #[case::late_records_sorted(drive::<LateRecordsSorted>, "lateness", "04-R5")]
    #[case::latest_watermark_decides(drive::<LatestWatermarkDecides>, "lateness", "04-R6")]
    fn is_rejected(
        #[case] drive: fn(&Case) -> Observation,
        #[case] check: &str,
        #[case] requirement: &str,
    ) {
        expect_rejected_for::<EventTime>(drive, check, requirement)
            .unwrap_or_else(|why| crate::fail(&why));
    }
}
mod cached_slowest;
mod derived_fields;
mod hex_formats;
mod rebuilt_max_ts;
mod red_team;
mod red_team_fifth;
mod red_team_gaps;
mod red_team_sizes;
mod serde_defaults;
mod text_formats;
mod trailing;
