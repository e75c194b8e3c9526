//! Stage 06 · barriers: checkpoint barriers and their alignment.
//!
//! Records are tagged with their input and position (`a0 a1` on input 0, `b0` on input
//! 1, `c0` on input 2), so a report names exactly which record went wrong. Checks,
//! smallest case first:
//! - `inject-barriers`: `Barrier(c)` right after record `c * barrier_every`, for every
//!   length up to [`plan::MAX_INJECT_LEN`] and every cadence up to len + 1;
//! - `configuration`: `barrier_every = 0` and `BarrierAligner::new(0)` are errors naming
//!   the argument, and the hand-picked [`BadCall`]s (an input that does not exist, a
//!   barrier out of turn, schedules `aligned_snapshots` cannot follow) are errors;
//! - `alignment`: for every shape of 2 then 3 inputs (each with its own cadence, all
//!   carrying the same barriers) and every interleaving, every `on_element` call returns
//!   exactly what the model does (records of unblocked inputs straight out, blocked
//!   inputs held back, `Checkpoint(c)` in the call of the last `Barrier(c)` followed by
//!   the held-back elements in arrival order) and `is_blocked` agrees after every call;
//! - `aligned-snapshots`: over every interleaving and every prefix of it (a job that
//!   stopped there), the grader's spy fold shows that each snapshot holds exactly the
//!   records before its barriers, and only completed checkpoints appear;
//! - `crash`: crash after every step, restore the last completed snapshot (the
//!   operator's state and `aligner.snapshot()`), replay each input from its cut; every
//!   record is folded exactly once and the replay aligns as the model does.
//!
//! ## Traceability
//!
//! Each requirement of the brief, the check that judges it and the mutants (in
//! `graders/tests/mutants/`) it rejects; `tests/traceability.rs` keeps it complete.
//!
//! | requirement of the brief | check | mutants |
//! |---|---|---|
//! | `Barrier(c)` right after record number `c * barrier_every` | `inject-barriers` | `barrier_before_its_record` |
//! | `barrier_every = 0` and `BarrierAligner::new(0)` are errors naming the argument | `configuration` | `accepting_barrier_every_zero` |
//! | an input that does not exist and a barrier out of turn are errors (also in `aligned_snapshots`) | `configuration` | `accepting_a_barrier_out_of_turn` |
//! | a barrier blocks its input; a blocked input is held back | `alignment` | `not_blocking_the_input`, `never_unblocking` |
//! | `Checkpoint(c)` comes out in the call that delivers the last `Barrier(c)` | `alignment` | `snapshot_at_first_barrier`, `releasing_before_the_checkpoint` |
//! | the held-back elements follow, re-fed in arrival order, barriers included | `alignment` | `re_feeding_newest_first`, `losing_a_buffered_barrier`, `releasing_without_re_feeding` |
//! | each snapshot is the fold of exactly the records before its barriers; a cut-short schedule holds only completed checkpoints | `aligned-snapshots` | `snapshots_from_the_whole_input` |
//! | restore the last completed snapshot and replay each input from its cut: every record folded exactly once | `crash` | `restoring_from_scratch` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 06, this grader as the only suite
//! (`just mutants 06`): the figures and every missed mutant are in `graders/MUTANTS.md`.

mod bad_calls;
mod binding;
pub mod case;
mod driver;
mod judge;
pub mod oracle;
pub mod plan;
mod snapshots;

pub use bad_calls::BadCall;
pub use binding::{Implementation, spy_fold};
pub use case::{Case, Elem, Out, list};
pub use driver::{Observation, Step, drive};

crate::grader! {
    /// The stage-06 grader.
    stage06::Barriers = 6, bound by bind_stage06 => impl_stage06!(Binding)
}
