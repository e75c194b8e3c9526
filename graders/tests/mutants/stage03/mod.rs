//! Stage 03 mutants, each rejected by the check its doc names for the one requirement of
//! the brief it breaks: the formulas and stateless functions ([`formulas`]), `rescale` of
//! malformed states ([`rescale`]), the subtask ([`subtask`]); correct but unusual
//! solutions that must pass ([`controls`]).

mod binary_formats;
mod coincidences;
mod controls;
mod derived_fields;
mod empty_snapshot;
mod formulas;
mod legacy_layout;
mod redteam;
mod redteam_bytes;
#[macro_use]
mod redteam_bytes_subtask;
mod json_formats;
mod redteam_duplicates;
mod redteam_empty;
mod redteam_registry;
mod redteam_shortcuts;
mod redteam_subtask;
mod redteam_text_habits;
mod redteam_top;
mod redteam_wide;
mod reductions;
mod rescale;
pub mod subtask;
mod text_formats;
mod zeros;

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

pub use formulas::OperatorIndexRoundRobin;
use formulas::*;
use reductions::*;
use rescale::*;
use subtask::*;
use zeros::*;

/// Every mutant with a misconception card, the check that must reject it, the
/// requirement its failure must name, and the card its report must show.
#[rstest]
#[case::modulo_routing(drive::<ModuloRouting>, "partition", "03-R1", "03-hash-modulo-parallelism")]
#[case::partition_by_group_buckets(drive::<PartitionByGroupBuckets>, "partition", "03-R2", "03-only-each-keys-order-matters")]
#[case::update_trusts_routing(drive::<UpdateTrustsRouting>, "contract", "03-R5", "03-update-trusts-routing")]
#[case::none_keeps_value(drive::<NoneKeepsValue>, "contract", "03-R4", "03-none-means-no-change")]
#[case::update_drops_a_zero(drive::<UpdateDropsAZero>, "contract", "03-R4", "03-zero-is-no-state")]
#[case::snapshot_pins_parallelism(drive::<SnapshotPinsParallelism>, "contract", "03-R6", "03-snapshot-pins-its-parallelism")]
#[case::restore_drops_last_group(drive::<RestoreDropsLastGroup>, "crash", "03-R7", "03-restore-drops-the-range-end")]
#[case::restore_keeps_every_key(drive::<RestoreKeepsEveryKey>, "crash", "03-R7", "03-restore-takes-every-key")]
#[case::restore_later_wins(drive::<RestoreLaterWins>, "contract", "03-R8", "03-a-key-found-twice-keeps-one-value")]
#[case::restore_garbage_is_empty(drive::<RestoreGarbageIsEmpty>, "errors", "03-R9", "03-unreadable-snapshot-is-empty")]
#[case::restore_skips_empty_bytes(drive::<RestoreSkipsEmptyBytes>, "errors", "03-R9", "03-unreadable-snapshot-is-empty")]
#[case::restore_object_is_empty(drive::<RestoreObjectIsEmpty>, "errors", "03-R9", "03-unreadable-snapshot-is-empty")]
#[case::restore_ignores_trailing(drive::<RestoreIgnoresTrailing>, "errors", "03-R9", "03-unreadable-snapshot-is-empty")]
#[case::count_on_one_subtask(drive::<CountOnOneSubtask>, "parallel-count", "03-R10", "03-count-anywhere")]
#[case::rescale_whole_maps(drive::<RescaleWholeMaps>, "rescale", "03-R11", "03-rescale-moves-whole-maps")]
#[case::rescale_overwrites_duplicates(drive::<RescaleOverwritesDuplicates>, "rescale", "03-R12", "03-a-key-found-twice-keeps-one-value")]
#[case::rescale_pulls_from_parents(drive::<RescalePullsFromParents>, "rescale", "03-R13", "03-a-key-is-where-its-group-says")]
#[case::rescale_drops_misplaced_keys(drive::<RescaleDropsMisplacedKeys>, "rescale", "03-R13", "03-a-key-is-where-its-group-says")]
#[case::rescale_nothing_to_move(drive::<RescaleNothingToMove>, "rescale", "03-R14", "03-no-state-is-nothing-to-check")]
#[case::parents_exclusive(drive::<ParentsExclusive>, "parents", "03-R15", "03-parents-exclusive")]
#[case::stable_hash_fnv1(drive::<StableHashFnv1>, "key-group", "03-R16", "03-any-hash-will-do")]
#[case::random_state_hash(drive::<RandomStateHash>, "key-group", "03-R17", "03-any-hash-will-do")]
#[case::key_group_multiply_shift(drive::<KeyGroupMultiplyShift>, "key-group", "03-R18", "03-any-reduction-will-do")]
#[case::operator_index_round_robin(drive::<OperatorIndexRoundRobin>, "operator-index", "03-R19", "03-key-groups-round-robin")]
#[case::operator_index_rounds(drive::<OperatorIndexRounds>, "operator-index", "03-R19", "03-owner-rounds")]
#[case::operator_index_rounds_partition(drive::<OperatorIndexRounds>, "partition", "03-R19", "03-owner-rounds")]
#[case::range_end_off_by_one(drive::<RangeEndOffByOne>, "key-group-range", "03-R20", "03-range-end-is-exclusive")]
#[case::floor_range(drive::<FloorRange>, "key-group-range", "03-R20", "03-any-tiling-will-do")]
#[case::unchecked_parallelism(drive::<UncheckedParallelism>, "errors", "03-R21", "03-arguments-are-trusted")]
#[case::unchecked_indices(drive::<UncheckedIndices>, "errors", "03-R22", "03-arguments-are-trusted")]
#[case::errors_unnamed(drive::<ErrorsUnnamed>, "errors", "03-R23", "03-any-error-will-do")]
#[case::formulas_in_u32_ranges(drive::<FormulasInU32>, "key-group-range", "03-R24", "03-u32-is-wide-enough")]
#[case::formulas_in_u32_owners(drive::<FormulasInU32>, "operator-index", "03-R24", "03-u32-is-wide-enough")]
#[case::ranges_in_f64(drive::<RangesInF64>, "key-group-range", "03-R24", "03-a-float-holds-the-product")]
#[case::owners_in_f64(drive::<OwnersInF64>, "operator-index", "03-R24", "03-a-float-holds-the-product")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}

/// The mutants no learner belief explains (no card): rejected for their requirement.
mod without_card {
    use super::*;

    #[rstest]
    #[case::key_groups_floor(drive::<KeyGroupsFloor>, "contract", "03-R3")]
    #[case::snapshot_skips_zeros(drive::<SnapshotSkipsZeros>, "contract", "03-R7")]
    #[case::formulas_in_i64_owners(drive::<FormulasInI64>, "operator-index", "03-R24")]
    #[case::formulas_in_i64_ranges(drive::<FormulasInI64>, "key-group-range", "03-R24")]
    fn is_rejected(
        #[case] drive: fn(&Case) -> Observation,
        #[case] check: &str,
        #[case] requirement: &str,
    ) {
        expect_rejected_for::<Parallelism>(drive, check, requirement)
            .unwrap_or_else(|why| crate::fail(&why));
    }
}
