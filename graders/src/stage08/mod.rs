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
//!
//! ## Traceability
//!
//! Each requirement of the brief, the check that judges it and the mutants (in
//! `graders/tests/mutants/`) it rejects; `tests/traceability.rs` keeps it complete.
//!
//! | requirement of the brief | check | mutants |
//! |---|---|---|
//! | every record exactly once, for every crash point and every commit lag | `exactly-once` | `replay_from_zero_duplicates`, `replay_from_last_taken_loses`, `no_final_pre_commit` |
//! | a pre-commit at every barrier up to the crash point and nowhere else, once more at a clean finish | `protocol` | `crash_before_barrier`, `shortcut` |
//! | no checkpoint committed before its notification is due, none left uncommitted once due | `protocol` | `ignore_lag`, `late_by_one` |
//! | a notification commits the oldest pending checkpoint | `protocol` | `newest_first` |
//! | a commit names a checkpoint the sink has prepared (blamed at that commit) | `protocol` | `commits_next_id` |
//! | at the crash: the notified checkpoints visible, the open and every unnotified prepared transaction aborted | `protocol` | `no_abort_on_crash`, `abort_only_open`, `commit_pending_on_crash_is_not_aborted` |
//! | recovery replays `records[offset..]` from the last notified checkpoint into a fresh sink | `protocol` | `replay_from_zero`, `replay_from_last_taken`, `replay_into_old_sink` |
//! | a crash always calls `new_sink()` a second time, even with nothing left to replay | `protocol` | `no_fresh_sink_when_nothing_left` |
//! | checkpoint ids keep counting across the restart and are never reused, not even aborted ones | `protocol` | `replay_restarts_ids`, `replay_reuses_aborted_ids`, `final_reuses_id` |
//! | the replay ends with all of it committed, empty prepared transactions too | `protocol` | `tail_never_committed`, `replay_final_left_prepared` |
//! | the sink alone: open and prepared data invisible, a commit publishes once, aborted data never appears | `sink-model` | `write_visible_at_once`, `commit_not_idempotent`, `abort_ignored`, `abort_open_ignored`, `pre_commit_keeps_open`, `unknown_commit`, `panics_on_unknown_commit` |
//! | `barrier_every = 0` and `crash_after > len` are errors naming the argument, through both entry points | `bad-input` | `no_barrier_check`, `clamp_crash`, `unnamed_error` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 08, this grader as the only suite
//! (`just mutants 08`): the figures and every missed mutant are in `graders/MUTANTS.md`.

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
mod own_sink;
mod plan;
mod run_result;
mod sink_model;
pub mod trace;

pub use anomaly::Anomaly;
pub use binding::{Implementation, MAX_CALLS_PER_SINK, SeenLog, Spy, SpyCall, SpyLog};
pub use cell::{CellFailure, multiset_anomaly};
pub use driver::{Observation, SinkPanic, SpiedRun, drive, run_label, spied};
pub use grid::matrix;
pub use judge::{judge_exactly_once, judge_protocol};
pub use oracle::{ModelSink, Schedule, reference_calls};
pub use own_sink::{Departure, OwnSinkRun};
pub use plan::{Case, MAX_LAG, MAX_LEN, MAX_OPS, SINK_IDS, SinkOp, input, sequences_from};
pub use run_result::RunResult;

crate::grader! {
    /// The stage-08 grader.
    stage08::TransactionalSinkStage = 8, bound by bind_stage08 => impl_stage08!(Binding, Spy)
}
