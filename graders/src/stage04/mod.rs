//! Stage 04 · event time: timestamps and watermarks.
//!
//! Checks, shortest arrival order first:
//! - `generator`: for every arrival order of small event sets and `max_delay` in `0..=3`,
//!   `current_watermark()` after each record is `max_ts - max_delay - 1`, or `None` while
//!   `max_ts <= max_delay`; then fixed cases at the edges of `u64` (a panic there fails,
//!   naming the rule), and one long stream of 300 records whose first is the largest
//!   timestamp until the last (`plan::long_arrivals`);
//! - `with-watermarks`: `with_watermarks` keeps the records in arrival order and puts a
//!   watermark after a record exactly when the watermark advanced: never a repeat, never
//!   a regression; the same edges of `u64` after the enumeration;
//! - `lateness`: `split_late` of the generated stream calls late exactly the records `<=`
//!   an earlier watermark (none when the disorder stays within `max_delay`), each list in
//!   stream order; then streams built here (a watermark that goes back, `u64::MAX`,
//!   several late records out of timestamp order);
//! - `combiner`: for every interleaving of the watermarks of 2 and 3 inputs, the
//!   combined watermark is `None` until every input has reported, then the minimum of the
//!   inputs' (largest) watermarks, reported exactly when it advances; then one run each of
//!   65, 129 and 257 inputs (past the bits of a `u64` and a `u128` mask, and past what a
//!   `u8` counts), every input reporting once, where the last report must advance it
//!   (none there is 04-R8's); planned last, a combiner of 65,537 inputs, two of which
//!   report (and the same through a crash: `crash`);
//! - `crash`: the generator or the combiner goes to bytes after every element, a new one
//!   is restored and continues: the same watermarks as the uninterrupted run;
//! - `errors`: 0 inputs and an unknown input (the first past the end, `1 << 32` and
//!   `usize::MAX`) are errors naming the argument, never a panic; bytes that are not a
//!   snapshot are an error for both `restore`s: garbage, `{}`, `[]`, `null` (each unless
//!   it is the implementation's own snapshot, of a fresh instance or of the one it
//!   restores), the own snapshot of a fresh instance with bytes after it, and the own
//!   snapshot of a used one cut to half its length (unless the half is itself a snapshot
//!   it writes); and the own snapshots with one number changed at a time (one run of
//!   digits, in a format that is not JSON), each refused or restoring an instance some
//!   run makes (see `forged.rs`); last, the own generator snapshots with every number
//!   set to `u64::MAX`, refused or a generator some run makes, never a panic, and the own
//!   snapshot of a combiner of one input with its combined watermark set off its input's;
//! - `contract`: every sequence of up to three calls on a generator (`max_delay` 0, 2,
//!   `u64::MAX`) or a combiner (1, 2, 3 inputs), with timestamps 0, 1 and `u64::MAX`,
//!   watermarks that go back, an input that does not exist and a restore anywhere,
//!   against the model of `contract.rs` (a wrong reading after a refused call is blamed on
//!   the refused call, 04-R12: the same calls without it, shorter, passed before).
//!
//! ## Traceability
//!
//! Each requirement of the brief, the check that judges it and the mutants (in
//! `graders/tests/mutants/`) it rejects; `tests/traceability.rs` keeps it complete.
//!
//! | requirement | check | mutants |
//! |---|---|---|
//! | 04-R1 | `generator` | `watermark_without_minus_one`, `generator_max_of_last_16` |
//! | 04-R2 | `generator` | `saturating_watermark` |
//! | 04-R3 | `with-watermarks` | `with_watermarks_sorted` |
//! | 04-R4 | `with-watermarks` | `repeats_watermarks`, `final_watermark_only`, `first_zero_not_emitted` |
//! | 04-R5 | `lateness` | `late_records_sorted` |
//! | 04-R6 | `lateness` | `late_strictly_below`, `latest_watermark_decides`, `late_before_any_watermark` |
//! | 04-R7 | `combiner` | `combined_by_max`, `reports_every_call` |
//! | 04-R7 | `contract` | `zero_is_no_watermark` |
//! | 04-R8 | `combiner` | `min_over_reported`, `reports_counted`, `combined_bitmask`, `reported_count_u8` |
//! | 04-R9 | `combiner` | `latest_input_watermark`, `regression_refused` |
//! | 04-R10 | `combiner` | `combined_not_stored` |
//! | 04-R11 | `errors` | `zero_inputs_accepted` |
//! | 04-R11 | `combiner` | `at_most_1024_inputs` |
//! | 04-R12 | `errors` | `unknown_input_panics`, `far_input_overflows`, `stream_not_input`, `input_as_u32` |
//! | 04-R12 | `contract` | `error_changes_silent_count` |
//! | 04-R13 | `crash` | `max_ts_not_in_snapshot` |
//! | 04-R13 | `contract` | `generator_text_through_f64` |
//! | 04-R14 | `crash` | `combined_not_in_snapshot` |
//! | 04-R15 | `errors` | `garbage_restores_fresh`, `generator_ignores_trailing`, `restore_lenient_array`, `combiner_lenient_array`, `combiner_restore_unchecked`, `combiner_restore_out_of_step`, `combiner_restore_behind`, `combiner_restore_min_of_reported`, `generator_trims_text`, `generator_cached_watermark_trusted`, `generator_watermark_trusted`, `combiner_reported_count_trusted`, `combiner_null_combined_trusted`, `combiner_combined_is_some_input`, `combiner_text_trusts_combined`, `combiner_versioned_json_unchecked`, `generator_text_trusts_cached_watermark`, `combiner_trusts_cached_slowest`, `combiner_hex_trusts_combined`, `generator_trims_the_end`, `rebuilds_unchecked`, `combiner_single_input_trusted`, `generator_quoted_max_ts` |
//! | 04-R16 | `generator` | `delay_plus_one_overflows` |
//! | 04-R16 | `lateness` | `late_below_watermark_plus_one` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 04, this grader as the only suite
//! (`just mutants 04`): the figures and every missed mutant are in `graders/MUTANTS.md`.

mod binding;
mod case;
mod contract;
mod driver;
mod forged;
mod judge;
pub mod oracle;
mod plan;
mod watermarks;

pub use binding::{Element, Implementation, Split, TimedRecord};
pub use case::{Case, ErrorCall};
pub use contract::{Op, Reading, Subject};
pub use driver::{Observation, drive};

crate::grader! {
    /// The stage-04 grader.
    stage04::EventTime = 4, bound by bind_stage04 => impl_stage04!(Binding)
}
