//! Stage 02 · keyed state: per-key state behind `key_by`.
//!
//! Checks, shortest input first:
//! - `keyed-state`: every sequence of up to three `put`/`update`/`remove` calls on a
//!   `KeyedState` over two keys, with closures that delete, bump a missing value and
//!   insert one: each call's return value, what `update` handed its closure, `get` and
//!   `snapshot()` after it, against a sorted map (`state_ops.rs`);
//! - `bytes`: `to_bytes`/`from_bytes` round trips of an empty state, odd, Unicode and
//!   `Vec<u8>` keys; `from_bytes` of bytes no `to_bytes` wrote is an error, not a panic,
//!   lists of pairs with a key twice or more around them included (`padded.rs`);
//! - `isolation`: a spy function handed to `KeyedProcessOperator` sees, for every record,
//!   exactly the state the earlier records of the same key left, and never another
//!   key's; clearing a key's state (the spy does it on a 0) removes it;
//! - `final-state`: after the stream, the operator's state equals the batch group-by;
//! - `crash`: snapshot to bytes after any record, drop the operator, restore a new one,
//!   read its state and continue: the spy sees and emits exactly what the uninterrupted
//!   run does;
//! - `contract`: every sequence of up to three `process` and snapshot-drop-restore calls
//!   (so restores in a row), with an `out` that already holds a record, against a model
//!   of the brief; `restore` of bytes no snapshot wrote is an error (`contract.rs`), the
//!   operator's own snapshot written twice or after a byte-order mark too (`padded.rs`),
//!   or rewritten with a key twice, keys out of order or a list an item short or long,
//!   which must be refused or restore an operator that writes those bytes
//!   (`rewritten.rs`);
//!   then an operator keyed by `Vec<u8>` whose function emits 0 to 3 records, out of
//!   order, with restores between records (`fanout.rs`): `out` and `state()` at every step;
//!   then a second snapshot after a restore and a change, and operators that hold one
//!   state, which must write the same bytes (`instances.rs`); then a state of 256 keys of
//!   random symbols, whose snapshot must be long enough to hold them (`dense.rs`); last
//!   of all, the state of its own snapshot of `a` and `Ä b` in each other layout a
//!   snapshot commonly has (the list of pairs `to_bytes` writes, an object of key →
//!   value, a list of `{"key": .., "value": ..}` objects, `{"pairs": [...]}`;
//!   `harness::layouts`), which must be refused or restore an operator whose own
//!   snapshot is those bytes (`rewritten.rs`);
//! - `word-count`: `word_count` emits the running count of every word occurrence, words
//!   as written, split on any Unicode whitespace (`words.rs`); two operators running
//!   the implementation's own `WordCount`, fed in turn, count apart in their `state()`
//!   (`instances.rs`).
//!
//! Every stream of up to three records over the keys `a`, `""`, `Ä b` is enumerated (each
//! record a 0 or not), then a few longer ones: the plan is chosen, not drawn, the same
//! under every seed.
//!
//! ## Traceability
//!
//! Each requirement of the brief (by its id; the text is the brief's), the check that
//! judges it and the mutants (in `graders/tests/mutants/`) it rejects for that
//! requirement; `tests/traceability.rs` keeps it complete.
//!
//! | requirement | check | mutants |
//! |---|---|---|
//! | 02-R1 | `keyed-state` | `get_by_range` |
//! | 02-R2 | `keyed-state` | `put_keeps_the_first` |
//! | 02-R3 | `keyed-state` | `update_skips_missing_keys`, `update_drops_a_zero` |
//! | 02-R4 | `keyed-state` | `update_cannot_delete` |
//! | 02-R5 | `keyed-state` | `remove_returns_nothing`, `remove_keeps_key` |
//! | 02-R6 | `keyed-state` | `snapshot_replays_puts` |
//! | 02-R7 | `bytes` | `to_bytes_as_an_object` |
//! | 02-R8 | `isolation` | `key_from_the_last_record` |
//! | 02-R9 | `contract` | `out_replaced`, `reverses_emits`, `keeps_last_emit`, `emits_prepended` |
//! | 02-R10 | `bytes` | `from_bytes_keeps_a_repeated_key`, `from_bytes_trims_the_end` |
//! | 02-R10 | `contract` | `restore_unwraps`, `restore_defaults_to_empty`, `restore_blank_is_empty`, `restore_ignores_trailing`, `restore_first_line`, `restore_collects_pairs`, `restore_strips_byte_order_mark`, `restore_merges_json_values`, `restore_json_lines_last_wins`, `restore_trims_text`, `restore_decodes_lossily`, `restore_keeps_a_key_its_object_names_twice`, `restore_zips_unequal_columns`, `key_count_never_checked`, `members_named_by_hex_of_json`, `binary_count_never_read`, `binary_order_never_checked`, `hex_count_never_read`, `restore_trims_the_end`, `restore_reads_legacy_pairs` |
//! | 02-R11 | `word-count` | `word_count_final_counts`, `word_count_per_line`, `word_count_resets_on_blank`, `word_count_letters_required`, `word_count_concatenates_lines` |
//! | 02-R12 | `word-count` | `word_count_splits_on_space`, `word_count_ascii_whitespace`, `word_count_named_whitespace`, `word_count_ascii_then_unicode`, `word_count_splits_on_hyphens`, `word_count_splits_without_cr`, `word_count_splits_on_an_old_table` |
//! | 02-R13 | `word-count` | `word_count_lowercases`, `word_count_strips_punctuation`, `word_count_folds_keys` |
//! | 02-R14 | `isolation` | `one_slot_for_all_keys`, `state_never_stored` |
//! | 02-R14 | `contract` | `skips_store_when_silent` |
//! | 02-R15 | `crash` | `restore_forgets_state` |
//! | 02-R15 | `contract` | `one_byte_lengths`, `two_byte_lengths`, `snapshot_of_changes_only`, `snapshot_as_json_object`, `snapshot_memoised`, `snapshot_kept_by_size`, `snapshot_is_a_handle`, `snapshot_is_a_registry_entry`, `snapshot_numbers_checkpoints`, `restore_caches_its_bytes`, `snapshot_memo_kept_on_clear` |
//! | 02-R16 | `final-state` | `cleared_state_kept` |
//! | 02-R16 | `contract` | `empty_state_dropped` |
//! | 02-R17 | `word-count` | `word_count_thread_local`, `word_count_global_tally` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 02, this grader as the only suite
//! (`just mutants 02`): the figures and every missed mutant are in `graders/MUTANTS.md`.

mod binding;
pub mod contract;
pub mod dense;
mod driver;
pub mod fanout;
mod inputs;
pub mod instances;
mod judge;
mod oracle;
pub mod padded;
mod plan;
pub mod rewritten;
pub mod state_ops;
mod words;

pub use binding::{Implementation, SpyEvent, SpyState};
pub use driver::{Observation, drive};
pub use fanout::{fanout_emits, fanout_key};
pub use oracle::{key_of, spy_step, word_key};
pub use plan::Case;
pub use state_ops::{Closure, StateOp, StateReturned};

crate::grader! {
    /// The stage-02 grader.
    stage02::KeyedStateStage = 2, bound by bind_stage02 => impl_stage02!(Binding, Spy)
}
