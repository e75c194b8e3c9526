//! Stage 06 · barriers: checkpoint barriers and their alignment.
//!
//! Records are tagged with their input and position (`a0 a1` on input 0, `b0` on input
//! 1, `c0` on input 2), so a report names exactly which record went wrong. Every failure
//! names the requirement of the brief it broke (`06-R7`). Checks, smallest case first:
//! - `inject-barriers`: `Barrier(c)` right after record `c * barrier_every`, for every
//!   length up to [`plan::MAX_INJECT_LEN`] and every cadence up to len + 1, then the
//!   largest two ([`plan::FAR_CADENCES`]; a panic caught, judged as a wrong stream);
//! - `configuration`: `barrier_every = 0` and `BarrierAligner::new(0)` are errors naming
//!   the argument, and the hand-picked [`BadCall`]s (an input that does not exist, the
//!   largest index too, a barrier out of turn ahead or behind, twice on one input or
//!   after a restore, a restore of 0 inputs or of bytes that are no snapshot, empty ones
//!   and `{}` included, and, last in the plan, the implementation's own snapshot with its
//!   numbers written past `u64::MAX` (`harness::past_u64`),
//!   schedules `aligned_snapshots` cannot follow, also past one input's end while
//!   others have elements left) are errors; and, last of all, the state after
//!   checkpoint 1 written by the grader in other layouts than the implementation's own
//!   (`{"completed":1}`, `{"next":2}`, ...), each of which must be refused or read as a
//!   derived `Deserialize` of its own type reads it (`layouts.rs`);
//! - `alignment`: for every shape of 1, then 2, then 3 inputs (each with its own cadence, all
//!   carrying the same barriers) and every interleaving, every `on_element` call returns
//!   exactly what the model does (records of unblocked inputs straight out, blocked
//!   inputs held back, `Checkpoint(c)` in the call of the last `Barrier(c)` followed by
//!   the held-back elements in arrival order) and `is_blocked` agrees after every call,
//!   also `false` for inputs that do not exist (the first, and `driver::FAR_INPUTS`, past
//!   `u32::MAX`); and cases of 65, 129 and 257 inputs, more than a `u64` and a `u128`
//!   have bits and a `u8` counts, and (planned last) one of 65,537 inputs, two of which
//!   deliver anything;
//! - `aligned-snapshots`: over every interleaving and every prefix of it (a job that
//!   stopped there), the grader's spy fold shows that each snapshot holds exactly the
//!   records before its barriers, and only completed checkpoints appear;
//! - `crash`: crash after every step, restore the last completed snapshot (the
//!   operator's state and `aligner.snapshot()`), replay each input from its cut; every
//!   record is folded exactly once and the replay aligns as the model does; and a
//!   snapshot of 2 inputs restored with 3, then with 1 (`restore` takes the number of
//!   inputs from its argument); and the implementation's own snapshot with its
//!   checkpoint counter set to say `2^32 - 2`, then `2^32`, checkpoints completed
//!   (`far.rs`; moot where no counter can be told), then two more checkpoints; last,
//!   aligners that completed the same checkpoint with other numbers of inputs, half
//!   through the next or restored wider, which must write the same bytes
//!   (`same_bytes.rs`);
//! - `contract`: every sequence of up to three calls on an aligner of 1, 2 or 3 inputs
//!   (four on 2 inputs over a smaller alphabet), over barriers 0, 1, 2 and `u64::MAX`,
//!   barriers twice on one input, out of turn and of inputs that do not exist, records on
//!   blocked and unblocked inputs, and `restore(inputs, &snapshot()?)` anywhere (a fresh
//!   aligner, mid-alignment, after an error): each answer and `is_blocked` right after it
//!   (of inputs that do not exist too) against the model of `contract/model.rs`, which
//!   accepts each outcome the brief allows (a blocked input's barrier out of turn refused
//!   on arrival or when re-fed; after an error, anything but a panic); plus five longer
//!   sequences on 3 inputs picked by hand, where two inputs hold elements back at once,
//!   interleaved, or are both blocked again by the barriers a release re-feeds, or hold
//!   nine elements back between them (more than any shape above: a bounded buffer
//!   refuses one).
//!
//! ## Traceability
//!
//! Each requirement of the brief, the check that judges it and the mutants (in
//! `graders/tests/mutants/`) it rejects; `tests/traceability.rs` keeps it complete.
//!
//! | requirement | check | mutants |
//! |---|---|---|
//! | 06-R1 | `inject-barriers` | `barrier_before_its_record`, `partial_chunk_barrier`, `ceil_div_overflows` |
//! | 06-R2 | `configuration` | `accepting_barrier_every_zero` |
//! | 06-R3 | `alignment` | `never_unblocking`, `nonexistent_blocked`, `bitmask_inputs`, `blocked_inputs_as_u32` |
//! | 06-R3 | `contract` | `is_blocked_indexes_the_inputs` |
//! | 06-R4 | `alignment` | `block_all`, `at_most_1024_inputs` |
//! | 06-R5 | `alignment` | `blocked_means_buffered` |
//! | 06-R6 | `alignment` | `snapshot_at_first_barrier`, `releasing_before_the_checkpoint`, `count_as_u8` |
//! | 06-R7 | `alignment` | `losing_a_buffered_barrier`, `re_feeding_newest_first`, `releasing_without_re_feeding`, `lazy_release` |
//! | 06-R7 | `contract` | `per_input_buffers`, `refeed_reblocks_one_input` |
//! | 06-R8 | `alignment` | `single_input` |
//! | 06-R9 | `alignment` | `not_blocking_the_input`, `blocked_barrier_refused` |
//! | 06-R9 | `contract` | `alignment_buffer_of_eight` |
//! | 06-R10 | `configuration` | `new_zero`, `unnamed_zero` |
//! | 06-R11 | `configuration` | `unknown_input`, `unknown_input_unnamed` |
//! | 06-R11 | `contract` | `unknown_input_barrier` |
//! | 06-R12 | `configuration` | `accepting_a_barrier_out_of_turn`, `old_barrier`, `barrier_max_overflows`, `saturating_next` |
//! | 06-R12 | `contract` | `one_off_turn_check`, `broken_after_error`, `single_no_turn` |
//! | 06-R13 | `crash` | `restoring_from_scratch`, `restore_keeps_inputs`, `checkpoint_counter_u32`, `snapshot_writes_its_inputs`, `snapshot_writes_what_it_holds` |
//! | 06-R13 | `contract` | `restore_refuses_fresh`, `snapshot_refuses_held`, `snapshot_ahead`, `restore_blocked` |
//! | 06-R14 | `configuration` | `garbage_fresh`, `restore_empty_fresh`, `restore_ignores_trailing`, `restore_lenient_value`, `restore_next_overflows`, `restore_signed_completed`, `restore_null_is_fresh`, `restore_max_saturates`, `restore_next_saturates`, `restore_reads_the_last_value`, `restore_trims_text`, `restore_strips_byte_order_mark`, `completed_read_as_u128`, `restore_trims_the_end`, `legacy_completed_read` |
//! | 06-R15 | `aligned-snapshots` | `after_call`, `snapshots_need_equal_barriers` |
//! | 06-R16 | `aligned-snapshots` | `snapshots_from_the_whole_input`, `prefix_refused` |
//! | 06-R17 | `configuration` | `past_end`, `past_end_in_total` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 06, this grader as the only suite
//! (`just mutants 06`): the figures and every missed mutant are in `graders/MUTANTS.md`.

mod bad_calls;
mod binding;
pub mod case;
mod contract;
mod driver;
mod element;
mod explain;
mod far;
mod judge;
pub mod layouts;
pub mod oracle;
pub mod plan;
mod rescale;
mod same_bytes;
mod snapshots;

pub use bad_calls::BadCall;
pub use binding::{Implementation, RecordWithNoTraits, spy_fold};
pub use case::{Case, Elem, Out, list};
pub use contract::{Op, Reading};
pub use driver::{Observation, Step, drive};

crate::grader! {
    /// The stage-06 grader.
    stage06::Barriers = 6, bound by bind_stage06 => impl_stage06!(Binding)
}
