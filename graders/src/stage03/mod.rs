//! Stage 03 · parallelism: key groups, partitioning, rescaling.
//!
//! Checks, smallest parallelism first:
//! - `key-group`: `key_group_for(key, maxp)` is `stable_hash(key) % maxp` and the same in
//!   five calls (a per-hasher `RandomState` fails here), and `stable_hash` is the given
//!   FNV-1a; the seed's lower-case keys plus chosen ones (`plan::FIXED_KEYS`: upper case,
//!   whitespace, non-ASCII, punctuation, long, not UTF-8) that a folded, trimmed or
//!   decoded key misplaces (every seed's stream also holds a key that is not UTF-8:
//!   keys are bytes, written `\xNN` where they are not text, see [`key_bytes`]);
//! - `key-group-range`: for every `p` in `1..=8` and `maxp` in `{p, 8, 10, 128}`, the ranges
//!   are Flink's and tile `[0, maxp)` in order, without gap, overlap or empty range;
//!   then one fixed case past the enumeration, `(3, u32::MAX)`, where `u32` arithmetic
//!   overflows (after the enumerated ones, so the smallest failing case still comes first),
//!   and two chosen ranges where `i * maxp` is past 2^53 and a floating-point ceiling is
//!   one off (`plan::FLOAT_RANGES`);
//! - `operator-index`: `operator_index_for(g)` is the subtask whose range holds `g`; then
//!   chosen key groups where `key_group * parallelism` overflows `u32`
//!   (`plan::PAST_U32_OWNERS`)
//!   and two where a floating-point floor is one off (`plan::FLOAT_OWNERS`);
//! - `partition`: every record reaches the subtask owning its key group, once, and each
//!   subtask's records keep input order; a record the implementation's own formulas
//!   misroute is blamed on the formula; last, at `plan::TOP` (`u32::MAX`);
//! - `parallel-count`: `parallel_count` at `p` equals the `p = 1` count, each key on the
//!   subtask that owns it; last, at `plan::TOP`;
//! - `rescale`: every `p -> q` keeps each key's state exactly once, on its new owner; then
//!   the malformed states of `edges.rs`: no map, too many, empty maps, a key held twice
//!   (with two values and with one, by neighbouring old subtasks and by old subtasks 0
//!   and 2 of 3), a key on the wrong old subtask (also keys that are not UTF-8); then
//!   `1 -> 3` and `2 -> 3` at `plan::TOP`;
//! - `parents`: `parents(j, p, q)` is exactly the old subtasks overlapping new subtask `j`;
//!   then one `parents` past `u32` whose new range is one key group
//!   (`plan::PARENTS_PAST_U32`), and one whose owner an `f64` rounds up
//!   (`plan::PARENTS_PAST_F64`);
//! - `crash`: route with the implementation's `partition`, count at `p` up to every
//!   record, snapshot each subtask, restore every new subtask of `q` from its parents'
//!   snapshots, continue at `q`: the counts are the uninterrupted ones;
//! - `errors`: parallelism 0, parallelism above `max_parallelism`, `max_parallelism` 0,
//!   an operator index and a key group out of range are errors naming the argument, never
//!   a panic, in every function that takes the argument (also where no other step would
//!   refuse it by accident: no record to route, nothing to divide); bytes that are not a
//!   snapshot are an error: garbage, empty bytes, `{}` (each unless it is the
//!   implementation's own snapshot of an empty subtask) and `[]` with bytes after it, and
//!   the key `k` twice in one snapshot (in a list of pairs, or a JSON object's member named
//!   for `k` written twice in the implementation's own format); and the implementation's
//!   own snapshot of `{"k": 1}` with one number changed at a time (one run of digits, in
//!   a format that is not JSON), which each subtask of 2 must refuse or restore holding
//!   only keys it owns (see `forged.rs`); an error names its argument as a whole word
//!   (`max_parallelism` does not name `parallelism`); and, planned after the contract's
//!   sequences, the implementation's own snapshot of two keys with one key's name, in
//!   whatever encoding it is found, written as the other's or as one that sorts first,
//!   which must be refused or restore a subtask whose own snapshot is those bytes (see
//!   `rewritten.rs`); last of all, planned after every other case, the state of that
//!   snapshot in each other layout a snapshot commonly has (the list of pairs `to_bytes`
//!   writes, an object of key → value, a list of `{"key": .., "value": ..}` objects,
//!   `{"pairs": [...]}`, keys as lists of bytes or as text; `harness::layouts`), judged
//!   the same way;
//! - `contract`: every sequence of up to three calls on one `KeyedSubtask` against the
//!   model of `contract/model.rs` (its restores read one snapshot, an empty subtask's
//!   beside the current one's, the current one's twice, and the current one's beside
//!   another subtask's of the same keys, each counted once more); then, after the
//!   sequences, the snapshots of new subtasks of several indices and parallelisms, which
//!   must be the same bytes, since a snapshot holds neither (a refused restore of the
//!   same empty bytes twice is 03-R7's, not the parallelism's); last, a subtask of 256 keys
//!   of random symbols, whose snapshot must be long enough to hold them (`dense.rs`).
//!
//! ## Traceability
//!
//! Each requirement of the brief, the check that judges it and the mutants (in
//! `graders/tests/mutants/`) it rejects; `tests/traceability.rs` keeps it complete.
//!
//! | requirement | check | mutants |
//! |---|---|---|
//! | 03-R1 | `partition` | `modulo_routing`, `partition_routes_in_u32` |
//! | 03-R2 | `partition` | `partition_by_group_buckets` |
//! | 03-R3 | `contract` | `key_groups_floor` |
//! | 03-R4 | `contract` | `none_keeps_value`, `update_drops_a_zero` |
//! | 03-R5 | `contract` | `update_trusts_routing`, `update_then_refuse`, `update_owner_in_u32` |
//! | 03-R6 | `contract` | `one_byte_lengths`, `snapshot_pins_parallelism`, `snapshot_with_index`, `snapshot_in_hash_order`, `snapshot_is_a_registry_entry`, `empty_snapshot_refused` |
//! | 03-R7 | `crash` | `restore_drops_last_group`, `restore_keeps_every_key` |
//! | 03-R7 | `contract` | `restore_refuses_repeated_snapshot`, `snapshot_skips_zeros` |
//! | 03-R7 | `errors` | `snapshot_trusts_stored_key_group`, `line_snapshot_trusts_written_group`, `groups_trusted_by_their_names` |
//! | 03-R8 | `contract` | `restore_later_wins`, `restore_dup_identical_only`, `restore_dup_vs_first_only`, `restore_dup_adjacent_only` |
//! | 03-R9 | `errors` | `restore_garbage_is_empty`, `restore_skips_empty_bytes`, `restore_object_is_empty`, `restore_ignores_trailing`, `restore_skips_unreadable`, `restore_collects_repeated_pairs`, `restore_reads_every_value`, `restore_null_as_empty`, `restore_sorts_pairs`, `restore_reads_its_own_pairs`, `hex_object_keeps_last`, `header_snapshot_keeps_a_repeated_key`, `members_named_in_debug_hex`, `pairs_count_never_checked`, `binary_count_never_read`, `restore_strips_a_byte_order_mark`, `restore_trims_ascii`, `restore_reads_legacy_pairs` |
//! | 03-R10 | `parallel-count` | `count_on_one_subtask`, `count_skips_the_empty_key` |
//! | 03-R11 | `rescale` | `rescale_whole_maps`, `rescale_routes_in_u32` |
//! | 03-R12 | `rescale` | `rescale_overwrites_duplicates`, `rescale_dup_adjacent_only`, `rescale_dup_vs_first_only`, `rescale_duplicate_as_text` |
//! | 03-R13 | `rescale` | `rescale_pulls_from_parents`, `rescale_drops_misplaced_keys` |
//! | 03-R14 | `rescale` | `rescale_nothing_to_move` |
//! | 03-R15 | `parents` | `parents_exclusive`, `parents_descending` |
//! | 03-R16 | `key-group` | `stable_hash_fnv1` |
//! | 03-R17 | `key-group` | `random_state_hash` |
//! | 03-R18 | `key-group` | `key_group_multiply_shift`, `key_group_case_folded`, `key_group_trims` |
//! | 03-R19 | `operator-index` | `operator_index_round_robin`, `operator_index_rounds` |
//! | 03-R19 | `partition` | `operator_index_rounds_partition` |
//! | 03-R20 | `key-group-range` | `range_end_off_by_one`, `floor_range` |
//! | 03-R21 | `errors` | `unchecked_parallelism`, `operator_index_above_max`, `partition_checks_per_record`, `count_empty_shortcut`, `rescale_above_max`, `subtask_above_max`, `parents_unchanged_shortcut`, `parents_new_above_max`, `count_empty_above_max`, `rescale_zero_unchecked`, `partition_of_one_unchecked`, `count_of_one_unchecked` |
//! | 03-R22 | `errors` | `unchecked_indices`, `restore_index_unchecked`, `range_of_one_unchecked`, `index_of_max_unchecked`, `parents_from_one_unchecked`, `range_of_max_unchecked`, `parents_to_one_unchecked` |
//! | 03-R23 | `errors` | `errors_unnamed`, `errors_blame_max_parallelism` |
//! | 03-R24 | `key-group-range` | `formulas_in_u32_ranges`, `ranges_in_f64`, `formulas_in_i64_ranges` |
//! | 03-R24 | `operator-index` | `formulas_in_u32_owners`, `owners_in_f64`, `formulas_in_i64_owners` |
//! | 03-R24 | `parents` | `parents_owners_in_u32`, `parents_scaled_in_f64` |
//! | 03-R24 | `contract` | `restore_owner_in_u32` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 03, this grader as the only suite
//! (`just mutants 03`): the figures and every missed mutant are in `graders/MUTANTS.md`.

mod binding;
mod case;
mod contract;
mod dense;
mod driver;
mod edges;
mod errors;
mod forged;
mod formulas;
pub(crate) mod guard;
mod judge;
pub mod oracle;
mod placement;
mod plan;
mod rewritten;

pub use binding::{
    Implementation, SubtaskCounts, by_bytes, by_string, by_string_one, key_bytes, key_text,
};
pub use case::{Case, ErrorCall};
pub use contract::{At, Feed, Op, Seen};
pub use driver::{CrashCall, Observation, Stumble, drive};
pub use edges::Shape;
pub use guard::Answer;

crate::grader! {
    /// The stage-03 grader.
    stage03::Parallelism = 3, bound by bind_stage03 => impl_stage03!(Binding)
}
