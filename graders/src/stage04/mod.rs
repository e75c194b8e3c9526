//! Stage 04 · event time: timestamps and watermarks.
//!
//! Checks, shortest arrival order first:
//! - `generator`: for every arrival order of small event sets and `max_delay` in `0..=3`,
//!   `current_watermark()` after each record is `max_ts - max_delay - 1`, or `None` while
//!   `max_ts <= max_delay`;
//! - `with-watermarks`: `with_watermarks` puts a watermark after a record exactly when
//!   the watermark advanced: never a repeat, never a regression;
//! - `lateness`: `split_late` of the generated stream calls late exactly the records `<=`
//!   an earlier watermark (none when the disorder stays within `max_delay`);
//! - `combiner`: for every interleaving of the watermarks of 2 and 3 inputs, the
//!   combined watermark is `None` until every input has reported, then the minimum of the
//!   inputs' (largest) watermarks, reported exactly when it advances;
//! - `crash`: the generator or the combiner goes to bytes after every element, a new one
//!   is restored and continues: the same watermarks as the uninterrupted run;
//! - `errors`: 0 inputs and an unknown input are errors naming the argument.
//!
//! ## Traceability
//!
//! Each requirement of the brief, the check that judges it and the mutants (in
//! `graders/tests/mutants/`) it rejects; `tests/traceability.rs` keeps it complete.
//!
//! | requirement of the brief | check | mutants |
//! |---|---|---|
//! | a fresh generator has no watermark; then exactly `max_ts - max_delay - 1`, or `None` while `max_ts <= max_delay` | `generator` | `watermark_without_minus_one` |
//! | the formula never underflows near 0 | `generator` | `saturating_watermark` |
//! | nor overflows at the top: fixed cases with `max_delay = u64::MAX` and timestamps up to `u64::MAX`, after the enumerated ones | `generator` | `delay_plus_one_overflows` |
//! | `with_watermarks` emits a watermark exactly when it advanced: no repeat, no regression, nothing missing | `with-watermarks` | `repeats_watermarks`, `final_watermark_only` |
//! | `split_late`: exactly the records `<=` an earlier watermark are late | `lateness` | `late_strictly_below` |
//! | `on_watermark` returns `None` until every input has reported, then the minimum of the inputs' largest watermarks, when it advances | `combiner` | `combined_by_max`, `min_over_reported` |
//! | an input's watermark is the largest it reported: a smaller one later changes nothing (a fixed run, after the drawn ones, has one under every seed) | `combiner` | `latest_input_watermark` |
//! | `CombinedWatermark::current` is the combined watermark returned last | `combiner` | `combined_not_stored` |
//! | state to bytes and back after every record or step: every reading equals the uninterrupted run's | `crash` | `max_ts_not_in_snapshot` |
//! | `CombinedWatermark::new(0)` and an unknown input are errors naming the argument | `errors` | `zero_inputs_accepted` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 04, this grader as the only suite
//! (`just mutants 04`): the figures and every missed mutant are in `graders/MUTANTS.md`.

mod binding;
mod case;
mod driver;
mod judge;
pub mod oracle;
mod plan;
mod watermarks;

pub use binding::{Element, Implementation, Split, TimedRecord};
pub use case::{Case, ErrorCall};
pub use driver::{Observation, drive};

crate::grader! {
    /// The stage-04 grader.
    stage04::EventTime = 4, bound by bind_stage04 => impl_stage04!(Binding)
}
