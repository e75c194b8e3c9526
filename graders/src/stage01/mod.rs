//! Stage 01 · dataflow: replayable sources and operator chains.
//!
//! Checks, smallest input first:
//! - `seek`: after `seek(o)`, draining yields exactly `records[o..]`, and `position()`
//!   is `o, o+1, ..., len` along the way;
//! - `seek-past-end`: seeking beyond the end is an error and moves nothing;
//! - `chain`: every chain of the catalogue equals its iterator oracle;
//! - `crash`: stop after `k` records, remember `position()`, drop the source, seek a
//!   fresh one there and run to the end: the two parts together equal the uninterrupted
//!   run (a source's snapshot is its position).

mod binding;
pub mod catalogue;
mod driver;
mod judge;
mod plan;

pub use binding::Implementation;
pub use catalogue::ChainId;
pub use driver::{Observation, drive};
pub use plan::Case;

crate::grader! {
    /// The stage-01 grader.
    stage01::Dataflow = 1, bound by bind_stage01 => impl_stage01!(Binding)
}
