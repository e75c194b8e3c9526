//! Stage 08 · transactional sink: two-phase commit, end-to-end exactly-once.
//!
//! Checks, smallest case first:
//! - `sink-model`: the sink alone against a model, for every well-formed sequence of up
//!   to [`EVERY_SEQUENCE_UP_TO`] operations over ids 1 and 2, and the [`MAX_OPS`]-call
//!   ones with at most one idle call (see [`sequences_from`]): `committed()` after every
//!   operation; and after every such sequence of up to 3 operations, the given
//!   `restore(&snapshot()?)`, then a write, a pre-commit under a new id and a commit of
//!   every id on the restored sink: what it shows is what the original would; every
//!   one transaction under each of [`HIGH_IDS`], then every way to end the three (see
//!   [`high_ids`]); and every prefix of [`MANY_CHECKPOINTS`] checkpoints of one record each, committed
//!   [`MANY_LAGS`] pre-commits after their own (see [`many_checkpoints`]); and after
//!   every sequence of up to 3 operations, `commit(0)` and `abort(0)`, which change
//!   nothing, each alone and then with the round trip's finishing calls (see
//!   [`id_zero_sequences`]); last, two commits out of id order, then repeated, and each
//!   prefix through the round trip (see `commit_order.rs`);
//! - `exactly-once`: `run_exactly_once_sink` for every input length `0..=MAX_LEN`
//!   (duplicate values), `barrier_every` in `1..=len + 1`, crash point in
//!   `None, 0..=len` and `commit_lag` in `0..=2`: the sorted output is the sorted input,
//!   and the output is the input in order (what empty sinks show);
//! - `protocol`: the same grid through `run_exactly_once_sink_with` and a spying sink,
//!   judged on invariants (see [`judge`](self::judge_protocol)), not on the reference's calls;
//! - `bad-input`: a `barrier_every` of 0 and a crash point past the end (up to
//!   `usize::MAX`) are errors that name the argument;
//! - `contract`: the `protocol` judge on the arguments the grid never reaches: the
//!   inputs of [`CONTRACT_INPUTS`] (`0` and `u32::MAX` among duplicates), a
//!   `barrier_every` of 1, 2, `len` and `usize::MAX`, every crash point and the lags of
//!   [`CONTRACT_LAGS`] (up to `usize::MAX`); and the `protocol` grid of the inputs of
//!   length `1..=`[`SHOWN_BEFORE_UP_TO`] with sinks that already show rows from before the
//!   job ([`SHOWN_BEFORE`]) and gain one from another writer right after the job's first
//!   commit on them ([`OTHER_WRITER`]): the output carries them, the replay's offset does
//!   not count them; then the same runs with one more row ([`AT_CRASH`]) committed to the
//!   first sink right after the job's write of the crash point's record, after the job's
//!   last commit there may be: the output is the first sink's `committed()` at the crash.
//!
//! A grid case (one input and one `barrier_every`) covers every crash point x commit lag, so a
//! failure can show the whole matrix of its smallest failing input, each failing cell
//! marked with its anomaly.
//!
//! ## Traceability
//!
//! Each requirement of the brief (by its id; the text is the brief's), the check whose
//! failure names it and the mutants (in `graders/tests/mutants/stage08/`) that prove the
//! check can fail on it; `tests/traceability.rs` keeps it complete. A run's anomaly names
//! its requirement ([`Anomaly::requirement`]); the sink alone names the one its
//! operation breaks; `bad-input` names the argument's.
//!
//! | requirement | check | mutants |
//! |---|---|---|
//! | `08-R1` | `sink-model` | `write_visible_at_once` |
//! | `08-R2` | `sink-model` | `pre_commit_keeps_open`, `ended_ids_in_a_bitmask`, `prepared_in_a_vec_by_id`, `ids_kept_in_u32` |
//! | `08-R3` | `sink-model` | `unknown_commit`, `panics_on_unknown_commit`, `evicts_beyond_eight_prepared`, `id_zero_is_the_open_transaction`, `at_most_100_prepared` |
//! | `08-R4` | `sink-model` | `abort_ignored`, `abort_unknown_clears_open`, `sorted_vec_swap_remove` |
//! | `08-R5` | `sink-model` | `abort_open_ignored`, `abort_open_drops_prepared` |
//! | `08-R6` | `sink-model` | `committed_in_id_order` |
//! | `08-R7` | `protocol` | `records_held_until_the_barrier` |
//! | `08-R8` | `protocol` | `checkpoint_before_the_first_record` |
//! | `08-R8` | `contract` | `barrier_every_as_u32` |
//! | `08-R9` | `protocol` | `late_by_one`, `newest_first`, `commits_next_id`, `crashing_between_the_two_phases`, `commits_before_pre_commit`, `replay_commits_at_the_end` |
//! | `08-R10` | `protocol` | `no_final_pre_commit_in_the_protocol`, `committing_newest_first_at_the_finish` |
//! | `08-R11` | `protocol` | `crash_before_barrier` |
//! | `08-R12` | `protocol` | `crash_at_the_end_finished_cleanly`, `refusing_a_crash_after_the_last_record`, `no_sink_before_the_first_record` |
//! | `08-R13` | `protocol` | `abort_only_open`, `commit_pending_on_crash_is_not_aborted`, `aborting_only_the_newest_unnotified`, `aborting_only_the_oldest_unnotified`, `aborting_through_the_fresh_sink`, `replay_inherits_pending` |
//! | `08-R14` | `protocol` | `abort_open_skipped_when_empty`, `no_abort_on_crash`, `aborting_the_fresh_sink_s_open_transaction`, `abort_open_at_barrier` |
//! | `08-R15` | `protocol` | `replay_from_zero`, `replay_from_last_taken`, `tail_never_committed`, `replay_final_left_prepared`, `replaying_from_the_notifying_barrier`, `abort_after_replay`, `replay_into_old_sink`, `fresh_sink_before_aborts` |
//! | `08-R15` | `contract` | `replay_from_what_the_sink_shows`, `replay_from_what_the_job_added` |
//! | `08-R16` | `protocol` | `no_fresh_sink_when_nothing_left` |
//! | `08-R17` | `protocol` | `replay_ids_skip_one`, `numbering_the_replay_by_the_lag`, `replay_ids_from_two`, `replay_ids_by_two` |
//! | `08-R18` | `protocol` | `replay_restarts_ids`, `replay_reuses_aborted_ids`, `final_reuses_id`, `aborts_the_next_id`, `aborting_every_id_at_the_crash`, `aborts_from_the_last_notified`, `aborts_on_the_fresh_sink_too`, `abort_twice` |
//! | `08-R19` | `protocol` | `result_from_the_fresh_sink_only`, `the_fresh_sink_s_output_first` |
//! | `08-R19` | `contract` | `output_from_the_records`, `dead_output_copied_at_commits` |
//! | `08-R19` | `exactly-once` | `the_fresh_sink_s_output_first_in_plain_runs` |
//! | `08-R20` | `bad-input` | `no_barrier_check`, `unnamed_error` |
//! | `08-R21` | `bad-input` | `clamp_crash`, `crash_checked_as_u32` |
//! | `08-R22` | `exactly-once` | `replay_from_zero_duplicates`, `replay_from_last_taken_loses`, `no_final_pre_commit`, `tail_never_committed_loses`, `commit_pending_on_crash_duplicates`, `write_visible_at_once_duplicates`, `pre_commit_keeps_open_duplicates` |
//! | `08-R22` | `contract` | `lag_arithmetic_overflows` |
//! | `08-R23` | `protocol` | `ignore_lag` |
//! | `08-R23` | `contract` | `lag_as_u32`, `at_most_four_pending`, `at_most_32_pending` |
//! | `08-R24` | `sink-model` | `commit_not_idempotent`, `moves_on_repeat` |
//! | `08-R25` | `protocol` | `shortcut`, `probe_sink`, `fresh_sink_up_front` |
//! | `08-R26` | `bad-input` | `crash_checked_late` |
//! | `08-R27` | `sink-model` | `snapshot_skips_prepared`, `snapshot_of_tuple_keys`, `rebuilds_by_id` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 08, this grader as the only suite
//! (`just mutants 08`): the figures and every missed mutant are in `graders/MUTANTS.md`.

mod anomaly;
mod binding;
mod call;
mod cell;
mod commit_order;
mod driver;
mod first_sink;
mod fresh_sink;
mod grid;
mod id_zero;
mod judge;
mod many_checkpoints;
mod oracle;
mod own_sink;
mod plan;
mod recovery_order;
mod run_result;
mod sequences;
mod sink_model;
mod sink_rules;
mod sink_snapshot;
mod stray_aborts;
pub mod trace;

pub use anomaly::Anomaly;
pub use binding::{Implementation, MAX_CALLS_PER_SINK, SeenLog, Spy, SpyBook, SpyCall, SpyLog};
pub use cell::{CellFailure, multiset_anomaly};
pub use driver::{Observation, SinkPanic, SpiedRun, drive, run_label, spied};
pub use grid::matrix;
pub use id_zero::{NEVER_PRE_COMMITTED, id_zero_sequences};
pub use judge::{judge_exactly_once, judge_protocol};
pub use many_checkpoints::{HIGH_IDS, MANY_CHECKPOINTS, MANY_LAGS, high_ids, many_checkpoints};
pub use oracle::{ModelSink, Schedule, reference_calls};
pub use own_sink::{Departure, OwnSinkRun};
pub use plan::{
    AT_CRASH, CONTRACT_INPUTS, CONTRACT_LAGS, Case, MAX_LAG, MAX_LEN, OTHER_WRITER, SHOWN_BEFORE,
    SHOWN_BEFORE_UP_TO, SINK_IDS, SinkOp, input,
};
pub use run_result::RunResult;
pub use sequences::{EVERY_SEQUENCE_UP_TO, IDLE_CALLS_AT_MAX, MAX_OPS, sequences_from};

crate::grader! {
    /// The stage-08 grader.
    stage08::TransactionalSinkStage = 8, bound by bind_stage08 => impl_stage08!(Binding, Spy)
}
