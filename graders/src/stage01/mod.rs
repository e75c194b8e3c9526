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

use crate::harness::{Failure, Stage};

/// The stage-01 grader.
#[derive(Debug, Clone, Copy)]
pub struct Dataflow;

impl Stage for Dataflow {
    const NUMBER: u8 = 1;
    type Case = Case;
    type Observation = Observation;

    fn plan(seed: u64) -> Vec<Case> {
        plan::plan(seed)
    }

    fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
        judge::judge(case, observation)
    }
}
