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
//!
//! ## Traceability
//!
//! Each requirement of the brief, the check that judges it and the mutants (in
//! `graders/tests/mutants/`) it rejects; `tests/traceability.rs` keeps it complete.
//!
//! | requirement of the brief | check | mutants |
//! |---|---|---|
//! | `get` and `snapshot` agree with a sorted map after every `put`, `update`, `remove` | `keyed-state` | `update_cannot_delete` |
//! | the function is handed its own key and exactly the state the earlier records of that key left | `isolation` | `one_slot_for_all_keys`, `state_never_stored` |
//! | the state at the end is the batch group-by; cleared keys are gone | `final-state` | `cleared_state_kept` |
//! | snapshot to bytes, restore a new operator and continue: the same as the uninterrupted run | `crash` | `restore_forgets_state` |
//! | `word_count` emits `(word, count so far)` once per occurrence, in order | `word-count` | `word_count_final_counts` |
//! | words are separated by any whitespace; an empty string is never a word | `word-count` | `word_count_splits_on_space` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 02, this grader as the only suite
//! (`just mutants 02`): the figures and every missed mutant are in `graders/MUTANTS.md`.

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
