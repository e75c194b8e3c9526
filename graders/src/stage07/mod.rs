//! Stage 07 · exactly-once state: checkpoint, crash, restore, replay.
//!
//! Checks, smallest case first:
//! - `arguments`: `barrier_every = 0` and `crash_after = len + 1` are errors naming the
//!   argument, through both entry points, before any store call;
//! - `store`: `InMemoryCheckpointStore` against the model, for every sequence of up to
//!   [`plan::MAX_STORE_OPS`] operations among `save(1)`, `save(2)`, `complete(1)`,
//!   `complete(2)`: which calls fail and what `latest_completed()` returns after each;
//! - for every input of length 0..=[`plan::MAX_LEN`] (two per length, with duplicate
//!   words), every `barrier_every` in 1..=len+1, every crash point `None, 0..=len` and
//!   every `commit_lag` in 0..=[`plan::MAX_LAG`], through the grader's spying store:
//!   - `checkpoints`: the `save`/`complete` calls are exactly the protocol's (offset
//!     `c * barrier_every`, the counts of that prefix as JSON, completion `commit_lag`
//!     barriers later, every checkpoint in flight completed at the end, ids continuing
//!     after the restore);
//!   - `exactly-once-state`: the counts equal a batch count;
//!   - `at-least-once-output`: `emitted` is the emissions of records `0..k` followed by
//!     those of `offset..len` from the restored counts; a wrong replay is explained
//!     (which checkpoint or offset it started from, with which state);
//! - `own-store`: `run_with_recovery` (the implementation's own store) gives the same.

mod binding;
mod calls;
mod driver;
mod judge;
pub mod oracle;
pub mod plan;

pub use binding::{Implementation, Outcome, SpyStore};
pub use driver::{Observation, drive};
pub use plan::{Case, Run, StoreOp};

crate::grader! {
    /// The stage-07 grader.
    stage07::ExactlyOnceState = 7, bound by bind_stage07 => impl_stage07!(Binding, SpyStore)
}
