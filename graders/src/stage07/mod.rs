//! Stage 07 · exactly-once state: checkpoint, crash, restore, replay.
//!
//! Checks, smallest case first:
//! - `arguments`: `barrier_every = 0` (with and without a crash point) and `crash_after`
//!   of `len + 1`, `len + 7`, `2^32` and `usize::MAX` are errors naming the argument, through both
//!   entry points, before any store call;
//! - `store`: `InMemoryCheckpointStore` against the model, for every sequence of up to
//!   [`plan::MAX_STORE_OPS`] operations among `save(1)`, `save(2)`, `complete(1)`,
//!   `complete(2)`: which calls fail and what `latest_completed()` returns after each;
//!   the sequences that save both ids once more with offsets that fall as the ids rise
//!   (the latest is the highest id, whatever the offsets); one longer sequence, ten
//!   checkpoints in flight at once ([`plan::IN_FLIGHT_AT_ONCE`]), then completed; and
//!   saves under [`plan::HIGH_IDS`] (`u64::MAX`, and `2^32 + 1`, whose low 32 bits are
//!   1's), then completed in every order; and, after them in the plan, ids 1 to 3 (then
//!   1 to 10, [`plan::OLD_COMPLETED`]) saved and completed, followed by `save(1)` (an
//!   error) or `complete(1)` (fine): a completed checkpoint stays, however many complete
//!   after it; last, two stores at once, each keeping its own checkpoints
//!   (`two_stores.rs`);
//! - for every input of length 0..=[`plan::MAX_LEN`] (two per length, with duplicate
//!   words), every `barrier_every` in 1..=len+1 (and `2^32` over one and two words, past
//!   a `u32`), every crash point `None, 0..=len` and
//!   every `commit_lag` in 0..=[`plan::MAX_LAG`], through the grader's spying store:
//!   - `checkpoints`: the `save`/`complete` calls are exactly the protocol's (offset
//!     `c * barrier_every`, the counts of that prefix as JSON, completion `commit_lag`
//!     barriers later, every checkpoint in flight completed at the end, ids continuing
//!     after the restore);
//!   - `exactly-once-state`: the counts equal a batch count;
//!   - `at-least-once-output`: `emitted` is the emissions of records `0..k` followed by
//!     those of `offset..len` from the restored counts; a wrong replay is explained
//!     (which checkpoint or offset it started from, with which state);
//! - `own-store`: `run_with_recovery` (the implementation's own store) gives the same;
//! - `contract`: all of the above once more on one run per case, over the words of
//!   [`plan::CONTRACT_WORDS`] (case, empty, quote, space, digits, non-ASCII, backslash,
//!   nine distinct words whose states' JSON must list its keys sorted),
//!   `barrier_every` among 1, 2, `len`, `len + 1` and `usize::MAX`, every crash point and
//!   the lags of [`plan::CONTRACT_LAGS`] (up to `usize::MAX`): the values the `a b c`
//!   inputs above never show; one word [`plan::DEEP_RUN`] times with a checkpoint per
//!   record at the lag [`plan::DEEP_LAG`] (34 checkpoints in flight, some completing at
//!   barriers), then [`plan::LONG_RUN`] times at the lags of [`plan::LONG_LAGS`] (counts
//!   and ids past a `u8`, ten checkpoints in flight); a crash after a completed checkpoint
//!   whose state the spy hands back as bytes that are no JSON of counts (`null`, a
//!   fraction and a key that is not UTF-8 among them), or at an offset past the end of
//!   the input (4 of three words, and `2^32`): the run must be an error; the same
//!   crash, its state handed back as counts no run reaches ([`plan::FORGED_COUNTS`]:
//!   `2^32 - 1`, `2^32`, `u64::MAX`), which the job must restore and replay on
//!   (`forged.rs`); after them in the plan, states holding a count past `u64::MAX`
//!   (`2^64`, `2^64 + 1`, which a `u128` cast to `u64` reads as 0 and 1: an error), and
//!   counts of 0 ([`plan::ZERO_COUNTS`]), restored as they are: a count of 0 the
//!   replay leaves shows in the next checkpoint's state and the final counts; and
//!   crashes after which the spy has lost its later checkpoints and hands out an older
//!   one (or none): the restarted job resumes from exactly that one, offset and state,
//!   whatever the dead job remembered; and runs through a spy whose `save` or `complete`
//!   fails, each call in turn: an error, and no store call after it (`failing.rs`); after
//!   them in the plan, the same runs without a crash and with a crash after the last
//!   record; then one word [`plan::WIDE_RUN`] times, a checkpoint per record, at the lag
//!   [`plan::WIDE_LAG`] (1,051 checkpoints in flight), with no crash and a crash after
//!   the last record; last, the grid of the first runs over [`plan::SPACED_WORDS`]
//!   (spaces around a word, a tab, a NUL, a line break).
//!
//! Every failure names the requirement of the brief it found broken (`07-R7`): a wrong
//! save, a completion out of place, a restart point not asked of the store, a replay
//! from the wrong cut are each told apart from the job's own store calls. A run that
//! panics is caught in the driver and judged as a valid run that did not return (the
//! check's own requirement), or as an invalid one not refused.
//!
//! ## Traceability
//!
//! Each requirement of the brief (by its id; the text is the brief's), the check whose
//! failure names it and the mutants (in `graders/tests/mutants/stage07/`) that prove the
//! check can fail on it; `tests/traceability.rs` keeps it complete.
//!
//! | requirement | check | mutants |
//! |---|---|---|
//! | `07-R1` | `store` | `restoring_the_first_completed_checkpoint`, `latest_by_offset`, `eight_in_flight`, `store_in_a_thread_local` |
//! | `07-R2` | `store` | `keeping_the_first_save_of_an_id` |
//! | `07-R3` | `store` | `saving_over_a_completed_checkpoint`, `forgetting_older_completed_checkpoints`, `writing_before_refusing_a_save`, `store_keeps_two_completed` |
//! | `07-R4` | `store` | `refusing_a_second_completion` |
//! | `07-R5` | `store` | `completing_an_id_never_saved`, `completing_an_unknown_id_on_a_used_store` |
//! | `07-R6` | `at-least-once-output` | `emitting_the_count_before_the_record` |
//! | `07-R7` | `checkpoints` | `saving_before_applying`, `skipping_the_serialisation_round_trip`, `a_checkpoint_at_the_end_of_the_input` |
//! | `07-R7` | `contract` | `json_written_by_hand`, `hashmap_state`, `json_without_control_escapes`, `trimming_words` |
//! | `07-R8` | `checkpoints` | `ignoring_the_commit_lag` |
//! | `07-R8` | `contract` | `thirty_two_in_flight`, `ring_of_64_in_flight` |
//! | `07-R9` | `checkpoints` | `leaving_checkpoints_in_flight_at_the_end`, `completing_newest_first_at_the_end`, `completing_only_the_newest_at_the_end` |
//! | `07-R10` | `checkpoints` | `checking_the_crash_before_the_barrier` |
//! | `07-R11` | `contract` | `completing_at_the_end_before_the_last_crash` |
//! | `07-R11` | `checkpoints` | `refusing_a_crash_after_the_last_record` |
//! | `07-R12` | `checkpoints` | `computing_the_restart_point_without_the_store`, `the_no_checkpoint_shortcut`, `a_crash_at_the_end_run_as_no_crash` |
//! | `07-R12` | `contract` | `offset_from_memory`, `unreadable_state_as_empty`, `unreadable_state_panics`, `trailing_state_ignored`, `seek_clamped`, `null_state_as_empty`, `fractional_count_truncated`, `lossy_utf8_state`, `unrestorable_as_none`, `counts_read_as_u32`, `counts_read_as_u128`, `count_of_0_refused`, `counts_of_0_dropped`, `state_trimmed_at_the_end`, `state_after_a_byte_order_mark`, `legacy_pairs_state` |
//! | `07-R13` | `checkpoints` | `completing_by_arithmetic_after_a_restore`, `completing_the_restored_checkpoint_again`, `not_retaking_the_in_flight_checkpoints`, `keeping_the_in_flight_queue_across_the_crash` |
//! | `07-R14` | `checkpoints` | `numbering_the_replay_from_one` |
//! | `07-R15` | `arguments` | `an_error_naming_the_value_not_the_argument` |
//! | `07-R16` | `arguments` | `accepting_a_crash_point_past_the_end`, `a_crash_error_naming_no_argument`, `crash_checked_as_u32` |
//! | `07-R17` | `arguments` | `validating_the_crash_point_late`, `restoring_before_validating` |
//! | `07-R18` | `own-store` | `convenience_drops_the_crash` |
//! | `07-R18` | `contract` | `eight_in_flight_own_store` |
//! | `07-R19` | `exactly-once-state` | `replaying_from_zero_with_restored_state` |
//! | `07-R19` | `contract` | `lag_plus_one`, `counts_in_u8` |
//! | `07-R20` | `at-least-once-output` | `restoring_an_in_flight_checkpoint` |
//! | `07-R21` | `at-least-once-output` | `emitting_each_record_once`, `losing_the_emissions_at_the_crash` |
//! | `07-R22` | `at-least-once-output` | `keeping_memory_across_the_crash` |
//! | `07-R23` | `contract` | `complete_errors_ignored`, `save_errors_ignored`, `failed_call_retried`, `store_errors_unwrapped`, `final_completes_past_an_error`, `clean_run_logs_failed_complete`, `clean_run_skips_failed_save` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 07, this grader as the only suite
//! (`just mutants 07`): the figures and every missed mutant are in `graders/MUTANTS.md`.

mod binding;
mod calls;
mod driver;
mod failing;
mod forged;
mod judge;
mod lost;
mod made;
pub mod oracle;
mod output;
mod own_store;
pub mod plan;
mod recovered;
mod restart;
mod saved_state;
mod store;
mod two_stores;

pub use binding::{Implementation, Loss, Outcome, SpyStore};
pub use driver::{Observation, drive};
pub use plan::{Case, Run, StoreOp};

crate::grader! {
    /// The stage-07 grader.
    stage07::ExactlyOnceState = 7, bound by bind_stage07 => impl_stage07!(Binding, SpyStore)
}
