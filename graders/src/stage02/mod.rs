//! Stage 02 · keyed state: per-key state behind `key_by`.
//!
//! Checks, shortest input first:
//! - `keyed-state`: `KeyedState`'s `get`/`put`/`update`/`remove`/`snapshot` behave like a
//!   sorted map, for every short sequence of operations over two keys;
//! - `isolation`: a spy function handed to `KeyedProcessOperator` sees, for every record,
//!   exactly the state the earlier records of the same key left, and never another
//!   key's; clearing a key's state (the spy does it on a 0) removes it;
//! - `final-state`: after the stream, the operator's state equals the batch group-by;
//! - `crash`: snapshot to bytes after any record, drop the operator, restore a new one
//!   and continue: the spy sees and emits exactly what the uninterrupted run does;
//! - `word-count`: `word_count` emits the running count of every word occurrence.

mod binding;
mod driver;
mod judge;
mod oracle;
mod plan;

pub use binding::{Implementation, SpyEvent, SpyState, key_of, spy_step};
pub use driver::{Observation, drive};
pub use plan::{Case, StateOp};

crate::grader! {
    /// The stage-02 grader.
    stage02::KeyedStateStage = 2, bound by bind_stage02 => impl_stage02!(Binding, Spy)
}
