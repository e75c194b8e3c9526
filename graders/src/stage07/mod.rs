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
//!
//! ## Traceability
//!
//! Each requirement of the brief, the check that judges it and the mutants (in
//! `graders/tests/mutants/`) it rejects; `tests/traceability.rs` keeps it complete.
//!
//! | requirement of the brief | check | mutants |
//! |---|---|---|
//! | `barrier_every = 0` and `crash_after > len` are errors naming the argument, before any store call | `arguments` | `accepting_a_crash_point_past_the_end` |
//! | the store: which calls fail, and `latest_completed()` is the completed checkpoint with the highest id | `store` | `restoring_the_first_completed_checkpoint`, `saving_over_a_completed_checkpoint` |
//! | every `save(c, ..)` carries offset `c * barrier_every` and, as JSON, the counts of the first `c * barrier_every` records | `checkpoints` | `saving_before_applying`, `skipping_the_serialisation_round_trip` |
//! | `complete(c)` comes `commit_lag` barriers after `save(c)`; what is in flight completes at the end | `checkpoints` | `ignoring_the_commit_lag`, `leaving_checkpoints_in_flight_at_the_end` |
//! | the job checkpoints at all (no batch shortcut) | `checkpoints` | `the_no_checkpoint_shortcut` |
//! | the crash comes after the `k`-th record *and its barrier*: that checkpoint is saved before the job dies | `checkpoints` | `checking_the_crash_before_the_barrier` |
//! | recovery asks the store, and only the store, where to restart (`latest_completed`) | `checkpoints` | `computing_the_restart_point_without_the_store` |
//! | only completed checkpoints are restored; nothing but the store survives the crash | `exactly-once-state` | `keeping_memory_across_the_crash`, `replaying_from_zero_with_restored_state` |
//! | `emitted` is the emissions of `0..k`, then of `offset..len` from the restored state | `at-least-once-output` | `restoring_an_in_flight_checkpoint` |
//! | `run_with_recovery` with your own store gives the same outcome | `own-store` | `convenience_drops_the_crash` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 07, this grader as the only suite
//! (`just mutants 07`): the figures and every missed mutant are in `graders/MUTANTS.md`.

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
