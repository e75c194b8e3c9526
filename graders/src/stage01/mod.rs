//! Stage 01 · dataflow: replayable sources and operator chains.
//!
//! Checks, smallest input first:
//! - `seek`: after `seek(o)`, draining yields exactly `records[o..]`, and `position()`
//!   is `o, o+1, ..., len` along the way;
//! - `seek-past-end`: seeking beyond the end (`len + 1`, `len + 2`, `2^32`, where an
//!   offset cut to `u32` wraps to 0, and `u64::MAX`) is an error naming the offset,
//!   never a panic, and moves nothing;
//! - `chain`: every chain of the catalogue, fed record by record and through `run`,
//!   equals its iterator oracle, and `run` drains the source; two of them keep state in
//!   their function (a counter), so an operator must call it once per record, in order;
//! - `crash` (the chains whose functions keep no state): stop after `k` records, remember `position()`, drop the source, seek a
//!   fresh one there and run to the end: the two parts together equal the uninterrupted
//!   run (a source's snapshot is its position), and the fresh source ends drained;
//! - `contract`: every sequence of up to three `poll`/`seek` calls on sources of 0 to 3
//!   records, over offsets that break convenient assumptions (`0` after reading, `1`,
//!   `len`, `len + 1`, `u64::MAX`), then a drain: each step's result and `position()`
//!   against a model of the brief (`contract.rs`); then one log of 2^16 + 3 records read
//!   by hand to the end, sought back to 0 and past 2^16, and drained by `run` (`long.rs`);
//!   and two sources read side by side (polls in turn, a seek of one), each keeping its
//!   own position (`side_by_side.rs`: no global state);
//! - `process`: each operator and chain called once, on an empty `out` and on one that
//!   already holds records, appends exactly its records, in order.
//!
//! After every other case, `FlatMap(|x| 0..x)` called once on 2^20 + 3 (`process`) and
//! `run` over a source of 2^20 + 3 records (`chain`): no cap on what a function returns
//! or how long a source is (`wide.rs`).
//!
//! The contract and process cases are chosen, not drawn: the same under every seed.
//!
//! ## Traceability
//!
//! Each requirement of the brief (by its id; the text is the brief's), the check that
//! judges it and the mutants (in `graders/tests/mutants/`) it rejects for that
//! requirement; `tests/traceability.rs` keeps it complete.
//!
//! | requirement | check | mutants |
//! |---|---|---|
//! | 01-R1 | `contract` | `poll_reads_from_the_back`, `fused_after_none`, `position_in_u16` |
//! | 01-R2 | `seek` | `position_since_seek`, `position_in_seek` |
//! | 01-R2 | `contract` | `position_in_contract` |
//! | 01-R3 | `contract` | `seek_only_forward`, `seek_relative`, `refusal_poisons_seeks`, `compacts_every_16_polls`, `seek_keeps_16_bits` |
//! | 01-R3 | `crash` | `iterator_source_fails_crash` |
//! | 01-R3 | `seek` | `seek_end_refused` |
//! | 01-R4 | `seek-past-end` | `seek_clamps`, `bound_check_wraps`, `bound_from_the_capacity` |
//! | 01-R5 | `seek-past-end` | `error_without_offset`, `error_in_hex` |
//! | 01-R6 | `process` | `filter_inverted`, `flat_map_first_only`, `flat_map_trusts_size_hint`, `flat_map_trusts_upper_bound`, `flat_map_takes_at_most_65536` |
//! | 01-R6 | `chain` | `filter_asks_twice`, `map_copies_its_function`, `flat_map_counts_then_copies` |
//! | 01-R7 | `process` | `map_replaces_out`, `map_prepends`, `filter_prepends` |
//! | 01-R8 | `process` | `chain_first_only`, `chain_pops_middle` |
//! | 01-R8 | `chain` | `chain_feeds_last_first` |
//! | 01-R9 | `crash` | `run_from_the_start` |
//! | 01-R9 | `chain` | `run_stops_on_silence`, `run_polls_at_most_a_million` |
//! | 01-R9 | `contract` | `run_polls_at_most_1024` |
//! | 01-R10 | `chain` | `run_first_output_only`, `run_one_behind`, `run_last_record_only` |
//! | 01-R11 | `seek` | `seek_one_late`, `iterator_source_fails_seek` |
//! | 01-R11 | `contract` | `position_in_a_thread_local` |
//! | 01-R12 | `chain` | `chain_keeps_middle`, `filter_take_while`, `filter_skip_while` |
//! | 01-R13 | `seek` | `poll_moves_at_the_end`, `poll_wraps_at_the_end` |
//! | 01-R14 | `seek-past-end` | `refused_seek_moves`, `refused_seek_rewinds` |
//! | 01-R15 | `seek-past-end` | `seek_panics_past_the_end` |
//!
//! ## Mutation testing
//!
//! cargo-mutants on the reference overlaid in stage 01, this grader as the only suite
//! (`just mutants 01`): the figures and every missed mutant are in `graders/MUTANTS.md`.

mod binding;
pub mod catalogue;
pub mod contract;
mod driver;
mod judge;
pub mod long;
mod plan;
mod side_by_side;
mod wide;

pub use binding::Implementation;
pub use catalogue::{ChainId, OperatorId};
pub use contract::Call;
pub use driver::{Observation, drive};
pub use plan::Case;

crate::grader! {
    /// The stage-01 grader.
    stage01::Dataflow = 1, bound by bind_stage01 => impl_stage01!(Binding)
}
