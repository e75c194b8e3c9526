//! Stage 05 · windows: event-time windows fired by watermarks.
//!
//! Checks, shortest stream first, for tumbling windows of 2 and 3 and sliding windows of
//! 3 every 1 and 4 every 2, over every arrival order of small keyed event sets with the
//! watermarks of stage 04 (`max_delay` 0 and 2) and a final `Watermark(u64::MAX)`:
//! - `assign`: `assign(ts)` is every window of the assigner that contains `ts`;
//! - `firing`: each `(key, window)` fires exactly once, in the `on_watermark` call where
//!   `wm >= end - 1` first holds, with the sum and count of the records that reached it,
//!   results ordered by window then key;
//! - `lateness`: `on_record` returns `Late` exactly when every window of the record has
//!   fired, and such a record counts nowhere;
//! - `state`: `state_size()` after every element is the number of open `(window, key)`
//!   aggregates, 0 at the end;
//! - `crash`: the operator goes to bytes after every element, a new one is restored and
//!   continues: every call returns what the uninterrupted run returns;
//! - `window-sums`: `window_sums` fires and side-outputs what the oracle does;
//! - `errors`: a size of 0 or a slide outside `1..=size` is an error naming the argument.
//!
//! ## Traceability
//!
//! Each requirement of the brief, the check that judges it and the mutants (in
//! `graders/tests/mutants/`) it rejects; `tests/traceability.rs` keeps it complete.
//!
//! | requirement of the brief | check | mutants |
//! |---|---|---|
//! | `assign(ts)` is every window of the assigner that contains `ts`, in increasing order of start | `assign` | `sliding_one_window` |
//! | each `(key, window)` fires once, in the `on_watermark` call where `wm >= end - 1` first holds | `firing` | `fires_at_end`, `fires_twice` |
//! | `WindowOperator::current_watermark` is the largest watermark seen | `firing` | `watermark_at_firing` |
//! | a record is late exactly when all its windows fired, and then counts nowhere | `lateness` | `counts_late_records`, `late_by_timestamp` |
//! | `state_size()` is the number of aggregates held, 0 after the final watermark | `state` | `never_purges` |
//! | restoring from bytes after any element answers what the uninterrupted run answers | `crash` | `watermark_not_in_snapshot` |
//! | `window_sums` returns the results in firing order and the late records in stream order | `window-sums` | `batch_window_sums` |
//! | a size of 0 or a slide outside `1..=size` is an error naming the argument; the nearest valid arguments work | `errors` | `slide_beyond_size_accepted` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 05, this grader as the only suite
//! (`just mutants 05`): the figures and every missed mutant are in `graders/MUTANTS.md`.

mod binding;
mod driver;
mod judge;
pub mod oracle;
mod plan;
mod readings;

pub use binding::{AssignerSpec, Element, Fired, Implementation, LateRecord};
pub use driver::{Observation, Output, Run, drive};
pub use plan::{Case, ErrorCall};

crate::grader! {
    /// The stage-05 grader.
    stage05::Windows = 5, bound by bind_stage05 => impl_stage05!(Binding, BoundOperator)
}
