//! Stage 08 · transactional sink: two-phase commit, end-to-end exactly-once.
//!
//! Checks, smallest case first:
//! - `sink-model`: the sink alone against a model, for every well-formed sequence of up
//!   to [`MAX_OPS`] operations over ids 1 and 2: `committed()` after every operation;
//! - `exactly-once`: `run_exactly_once_sink` for every input length `0..=MAX_LEN`
//!   (duplicate values), `barrier_every` in `1..=len + 1`, crash point in
//!   `None, 0..=len` and `commit_lag` in `0..=2`: the sorted output is the sorted input;
//! - `protocol`: the same grid through `run_exactly_once_sink_with` and a spying sink,
//!   judged on invariants (see [`judge`](self::judge_protocol)), not on the reference's calls;
//! - `bad-input`: a `barrier_every` of 0 and a crash point past the end are errors that
//!   name the argument.
//!
//! A grid case (one input and one `barrier_every`) covers every crash point x commit lag, so a
//! failure can show the whole matrix of its smallest failing input, each failing cell
//! marked with its anomaly.

mod anomaly;
mod binding;
mod call;
mod cell;
mod driver;
mod first_sink;
mod fresh_sink;
mod grid;
mod judge;
mod oracle;
mod plan;
mod sink_model;
pub mod trace;

pub use anomaly::Anomaly;
pub use binding::{Implementation, MAX_CALLS_PER_SINK, Spy, SpyCall, SpyLog};
pub use cell::{CellFailure, multiset_anomaly};
pub use driver::{Observation, RunResult, SpiedRun, drive, spied};
pub use grid::matrix;
pub use judge::{judge_exactly_once, judge_protocol};
pub use oracle::{ModelSink, Schedule, reference_calls};
pub use plan::{Case, MAX_LAG, MAX_LEN, MAX_OPS, SINK_IDS, SinkOp, input, sequences_from};

crate::grader! {
    /// The stage-08 grader.
    stage08::TransactionalSinkStage = 8, bound by bind_stage08 => impl_stage08!(Binding, Spy)
}
