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
//!
//! ## Traceability
//!
//! Each requirement of the brief, the check that judges it and the mutants (in
//! `graders/tests/mutants/`) it rejects; `tests/traceability.rs` keeps it complete.
//!
//! | requirement of the brief | check | mutants |
//! |---|---|---|
//! | draining after `seek(o)` yields `records[o..]` | `seek` | `seek_one_late`, `position_since_seek` |
//! | `position()` reads `o, o+1, ..., len` along the way | `seek` | `position_since_seek` |
//! | a source is replayable: `seek` goes back as well as forward | `seek` | `iterator_source_fails_seek` |
//! | `seek` past the end is an error value, never a panic and never a silent clamp, and leaves the position unchanged | `seek-past-end` | `seek_clamps` |
//! | `Map`, `Filter`, `FlatMap` and `then` produce what the same functions produce over an iterator, in the same order | `chain` | `filter_inverted`, `flat_map_first_only`, `chain_first_only` |
//! | stopping after any record and resuming a fresh source at `position()` loses and repeats nothing | `crash` | `iterator_source_fails_crash` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 01, this grader as the only suite
//! (`just mutants 01`): the figures and every missed mutant are in `graders/MUTANTS.md`.

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
