//! Stage 05 · windows: event-time windows fired by watermarks.
//!
//! Checks, shortest stream first, for tumbling windows of 2 and 3 and sliding windows of
//! 3 every 1 and 4 every 2, over every arrival order of small keyed event sets (their
//! keys and timestamps fixed, their values drawn, a negative, a zero and a positive one
//! under every seed) with the watermarks of stage 04 (`max_delay` 0 and 2) and a final
//! `Watermark(u64::MAX)`:
//! - `assign`: `assign(ts)` is every window of the assigner that contains `ts`, by start
//!   (also for a size of 1, slides that do not divide the size, the largest size), at
//!   the top of `u64` the windows' ends are saturated at `u64::MAX`, never wrapped, and
//!   near 0 a window of `2^63` slides or more is no reason to panic;
//! - `firing`: each `(key, window)` fires exactly once, in the `on_watermark` call where
//!   `wm >= end - 1` first holds, with the sum and count of the records that reached it,
//!   results ordered by window then key; then one long stream (`plan::long_stream`:
//!   260 aggregates fired in one call, one of 300 records), where a panic is caught and
//!   named by the rule of the call that panicked; then one aggregate past an `f64`'s
//!   integers and a `u16`'s count (`heavy.rs`);
//! - `lateness`: `on_record` returns `Late` (the record as given) exactly when every
//!   window of the record has fired, and such a record counts nowhere; last, a record at
//!   `u64::MAX` under each top assigner, late exactly when the assigner's own
//!   `assign(u64::MAX)` is empty (`top_record.rs`);
//! - `state`: `state_size()` after every element is the number of open `(window, key)`
//!   aggregates, 0 at the end;
//! - `crash`: the operator goes to bytes after every element, a new one is restored and
//!   continues: every call, and the state after it, is what the uninterrupted run has;
//!   and an operator keyed by pairs, not strings, restores from its snapshot; last, an
//!   operator of 256 keys of random symbols, whose snapshot must be long enough to hold
//!   them (`dense.rs`); and the same state under two assigners, which must be the same
//!   bytes (`assigner_free.rs`);
//! - `window-sums`: `window_sums` fires and side-outputs what the model does, also for a
//!   stream without the final watermark (nothing flushes at the end);
//! - `errors`: a size of 0 or a slide outside `1..=size` is an error naming the argument
//!   (`Sliding::new(0, _)`, both, naming either), and the nearest valid assigner of each
//!   assigns as the brief says;
//! - `contract`: every sequence of up to 3 calls (records, watermarks including a first
//!   `W(0)` and one that goes back, a restore, a restore of a snapshot cut short or with
//!   bytes after it, of empty bytes or of `{}`) over `Tumbling::new(3)`,
//!   `Sliding::new(5, 2)` and `Tumbling::new(1)` (a window of one timestamp: no watermark
//!   is not watermark 0), each step's answer,
//!   `state_size()` and `current_watermark()` against the model of the brief
//!   ([`oracle::Model`]); and one restore of the implementation's own snapshots forged
//!   to say what none says (an aggregate of count 0, with its sum or with a sum of 0
//!   too, or of a count outside a `u64`, one listed twice, alone or with the group that
//!   holds it where the format groups them by window or key, in lists or in an object
//!   whose key is then written twice, one listed again with another sum, an open window
//!   its watermark fired), in its own format where that format tells where to
//!   write it, and the snapshot with bytes around it or in it that no snapshot holds, in
//!   any format; and one restore of its snapshot with each number changed in turn, which
//!   may be refused or taken but must give an operator whose `state_size()` counts what
//!   it then fires (`renumbered.rs`); last of all, one state written by the grader in
//!   other layouts than the implementation's own (the reference's flat list, named
//!   aggregates, grouped by window, grouped by key), each of which must be refused or
//!   read as a derived `Deserialize` of its own type reads it (`layouts.rs`).
//!
//! ## Traceability
//!
//! Each requirement of the brief, the check that judges it and the mutants (in
//! `graders/tests/mutants/`) it rejects; `tests/traceability.rs` keeps it complete.
//!
//! | requirement | check | mutants |
//! |---|---|---|
//! | 05-R1 | `assign` | `closed_windows` |
//! | 05-R2 | `firing` | `fires_at_end`, `fires_twice`, `count_in_u16`, `sum_in_f64` |
//! | 05-R2 | `contract` | `zero_sum_dropped` |
//! | 05-R3 | `firing` | `replaces_aggregate`, `keyed_by_end` |
//! | 05-R4 | `lateness` | `fired_only_with_state`, `counts_late_records` |
//! | 05-R5 | `state` | `never_purges`, `counts_windows`, `counts_keys` |
//! | 05-R6 | `firing` | `late_and_counted` |
//! | 05-R7 | `lateness` | `late_by_timestamp`, `late_if_any_fired` |
//! | 05-R7 | `contract` | `no_watermark_is_zero` |
//! | 05-R8 | `assign` | `sliding_one_window`, `slide_divides_size`, `sliding_newest_first` |
//! | 05-R9 | `assign` | `starts_at_record` |
//! | 05-R10 | `lateness` | `late_at_watermark`, `no_window_is_not_late` |
//! | 05-R10 | `firing` | `count_in_u8` |
//! | 05-R11 | `contract` | `first_zero_ignored` |
//! | 05-R12 | `firing` | `by_key_then_window`, `sorted_unstable_by_window` |
//! | 05-R12 | `crash` | `keys_in_arrival_order_restored` |
//! | 05-R13 | `contract` | `stale_regresses` |
//! | 05-R14 | `firing` | `watermark_at_firing` |
//! | 05-R15 | `crash` | `watermark_not_in_snapshot`, `keyed_by_k`, `watermark_saved_plus_one`, `snapshot_is_a_registry_entry`, `snapshot_writes_the_assigner` |
//! | 05-R15 | `contract` | `zero_watermark_is_none`, `count_in_u32`, `count_in_i64`, `lines_split_on_spaces` |
//! | 05-R15 | `lateness` | `empty_window_refused` |
//! | 05-R16 | `contract` | `garbage_is_empty`, `restore_empty_fresh`, `restore_ignores_trailing`, `restore_lenient_watermark`, `restore_skips_count_zero`, `restore_overwrites_a_repeat`, `restore_drops_fired_windows`, `restore_compares_neighbours`, `restore_checks_the_first_window`, `grouped_window_replaced`, `window_object_keeps_last`, `restore_compares_whole_entries`, `restore_trims_text`, `restore_decodes_lossily`, `quoted_numbers_skip_count_zero`, `count_read_signed`, `count_read_wide`, `size_counter_trusted`, `count_zero_refused_only_with_a_sum`, `fired_by_end_unchecked`, `restore_trims_the_end`, `legacy_flat_read` |
//! | 05-R17 | `window-sums` | `batch_window_sums`, `late_sorted_by_time`, `window_sums_stops_at_max`, `late_deduplicated` |
//! | 05-R18 | `window-sums` | `flushes_at_end` |
//! | 05-R19 | `errors` | `tumbling_zero_accepted` |
//! | 05-R20 | `errors` | `slide_beyond_size_accepted` |
//! | 05-R21 | `assign` | `tumbling_end_wraps`, `sliding_end_overflows`, `reserves_size_over_slide`, `sliding_count_overflows` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 05, this grader as the only suite
//! (`just mutants 05`): the figures and every missed mutant are in `graders/MUTANTS.md`.

mod assigner_free;
mod binding;
mod checks;
pub mod contract;
mod contract_judge;
mod crash_judge;
mod dense;
mod driver;
mod error_calls;
mod explain;
pub mod forged;
pub mod heavy;
mod judge;
mod late_fault;
pub mod layouts;
pub mod oracle;
mod pair_keys;
mod plan;
mod readings;
pub mod renumbered;
mod top_record;
mod values;
pub mod wide_counts;

pub use binding::Implementation;
pub use driver::{Observation, Output, Run, drive};
pub use error_calls::ErrorCall;
pub use plan::Case;
pub use values::{AssignerSpec, Element, Fired, LateRecord, Time};

crate::grader! {
    /// The stage-05 grader.
    stage05::Windows = 5, bound by bind_stage05 => impl_stage05!(Binding, BoundOperator)
}
