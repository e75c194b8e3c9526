//! Stage 03 mutants of the fourth red team, written from the brief alone: shortcuts for
//! one subtask, or for as many subtasks as key groups, that answer before the argument
//! checks run, so an index or a key group out of range is accepted there and only there.

use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

/// **Mistake:** `key_group_range` answers `0..=maxp - 1` for one subtask ("it owns
/// everything") before checking the index.
/// **Verdict:** `errors` fails: `key_group_range(1, 1, 8)` is `Ok(0..=7)` (03-R22).
mod range_of_one_unchecked {
    pub use solution03::*;

    pub fn key_group_range(
        i: u32,
        p: u32,
        maxp: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        if p == 1 && maxp > 0 {
            return Ok(0..=maxp - 1);
        }
        solution03::key_group_range(i, p, maxp)
    }
}
graders::impl_stage03!(RangeOfOneUnchecked, range_of_one_unchecked);

/// **Mistake:** `operator_index_for` returns the key group itself when there are as many
/// subtasks as key groups ("each subtask owns one"), before checking the key group.
/// **Verdict:** `errors` fails: `operator_index_for(8, 8, 8)` is `Ok(8)`, a subtask that
/// does not exist (03-R22).
mod index_of_max_unchecked {
    pub use solution03::*;

    pub fn operator_index_for(
        key_group: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<u32> {
        if parallelism == max_parallelism && parallelism > 0 {
            return Ok(key_group);
        }
        solution03::operator_index_for(key_group, parallelism, max_parallelism)
    }
}
graders::impl_stage03!(IndexOfMaxUnchecked, index_of_max_unchecked);

/// **Mistake:** `parents` answers `[0]` when the old parallelism is 1 ("one old subtask
/// is every new subtask's parent") before checking the new index and parallelism.
/// **Verdict:** `errors` fails: `parents(2, 1, 2, 8)` is `Ok([0])` (03-R22).
mod parents_from_one_unchecked {
    pub use solution03::*;

    pub fn parents(
        new_index: u32,
        old_parallelism: u32,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<u32>> {
        if old_parallelism == 1 && max_parallelism > 0 {
            return Ok(vec![0]);
        }
        solution03::parents(new_index, old_parallelism, new_parallelism, max_parallelism)
    }
}
graders::impl_stage03!(ParentsFromOneUnchecked, parents_from_one_unchecked);

/// **Mistake:** `key_group_range` answers `i..=i` when there are as many subtasks as key
/// groups ("each subtask owns one"), before checking the index.
/// **Verdict:** `errors` fails: `key_group_range(8, 8, 8)` is `Ok(8..=8)` (03-R22).
mod range_of_max_unchecked {
    pub use solution03::*;

    pub fn key_group_range(
        i: u32,
        p: u32,
        maxp: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        if p == maxp && p > 0 {
            return Ok(i..=i);
        }
        solution03::key_group_range(i, p, maxp)
    }
}
graders::impl_stage03!(RangeOfMaxUnchecked, range_of_max_unchecked);

/// **Mistake:** `parents` answers every old subtask when there is one new subtask ("it
/// inherits everything"), checking the old parallelism but not the new index.
/// **Verdict:** `errors` fails: `parents(1, 2, 1, 8)` is `Ok([0, 1])` (03-R22).
mod parents_to_one_unchecked {
    pub use solution03::*;

    pub fn parents(
        new_index: u32,
        old_parallelism: u32,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<u32>> {
        if new_parallelism == 1 {
            key_group_range(0, old_parallelism, max_parallelism)?;
            return Ok((0..old_parallelism).collect());
        }
        solution03::parents(new_index, old_parallelism, new_parallelism, max_parallelism)
    }
}
graders::impl_stage03!(ParentsToOneUnchecked, parents_to_one_unchecked);

/// **Mistake:** `partition` hands every record to the one subtask when the parallelism
/// is 1 ("nothing to route"), before checking the arguments.
/// **Verdict:** `errors` fails: `partition(&records, .., 1, 0)` succeeds, with a
/// `max_parallelism` of 0 (03-R21).
mod partition_of_one_unchecked {
    pub use solution03::*;

    pub fn partition<T: Clone>(
        records: &[T],
        key: impl Fn(&T) -> &[u8],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<Vec<T>>> {
        if parallelism == 1 {
            return Ok(vec![records.to_vec()]);
        }
        solution03::partition(records, key, parallelism, max_parallelism)
    }
}
graders::impl_stage03!(PartitionOfOneUnchecked, partition_of_one_unchecked);

/// **Mistake:** `parallel_count` counts in one map when the parallelism is 1 ("the batch
/// count"), before checking the arguments.
/// **Verdict:** `errors` fails: `parallel_count(&keys, 1, 0)` succeeds (03-R21).
mod count_of_one_unchecked {
    pub use solution03::*;

    pub fn parallel_count(
        keys: &[Vec<u8>],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<std::collections::BTreeMap<Vec<u8>, u64>>> {
        if parallelism == 1 {
            let mut all = std::collections::BTreeMap::new();
            for key in keys {
                *all.entry(key.clone()).or_insert(0) += 1;
            }
            return Ok(vec![all]);
        }
        solution03::parallel_count(keys, parallelism, max_parallelism)
    }
}
graders::impl_stage03!(CountOfOneUnchecked, count_of_one_unchecked);

/// Each mutant, the check that must reject it, the requirement its smallest failing case
/// must name and the card its report shows: the shortcut trusts its arguments.
#[rstest]
#[case::range_of_one_unchecked(drive::<RangeOfOneUnchecked>, "errors", "03-R22", "03-arguments-are-trusted")]
#[case::index_of_max_unchecked(drive::<IndexOfMaxUnchecked>, "errors", "03-R22", "03-arguments-are-trusted")]
#[case::parents_from_one_unchecked(drive::<ParentsFromOneUnchecked>, "errors", "03-R22", "03-arguments-are-trusted")]
#[case::range_of_max_unchecked(drive::<RangeOfMaxUnchecked>, "errors", "03-R22", "03-arguments-are-trusted")]
#[case::parents_to_one_unchecked(drive::<ParentsToOneUnchecked>, "errors", "03-R22", "03-arguments-are-trusted")]
#[case::partition_of_one_unchecked(drive::<PartitionOfOneUnchecked>, "errors", "03-R21", "03-arguments-are-trusted")]
#[case::count_of_one_unchecked(drive::<CountOfOneUnchecked>, "errors", "03-R21", "03-arguments-are-trusted")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = graders::harness::expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}
