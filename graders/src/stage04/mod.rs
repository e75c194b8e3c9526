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
