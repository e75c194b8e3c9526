//! Stage 03 mutants of the fifth red team, written from the brief alone: argument checks
//! that only some other step's refusal covered (no key to route, an index in range), and
//! a restore that skips a snapshot it cannot read when others are left.

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

/// **Mistake:** `parents` answers `[new_index]` when the parallelism does not change
/// ("each subtask is its own parent"), having checked only the index.
/// **Verdict:** `errors`: `parents(0, 9, 9, 8)` is `Ok([0])` (03-R21).
mod parents_unchanged_shortcut {
    pub use solution03::*;

    pub fn parents(
        new_index: u32,
        old_parallelism: u32,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<u32>> {
        if old_parallelism == new_parallelism {
            anyhow::ensure!(
                new_index < new_parallelism,
                "new index {new_index} is out of range for {new_parallelism} subtasks"
            );
            return Ok(vec![new_index]);
        }
        solution03::parents(new_index, old_parallelism, new_parallelism, max_parallelism)
    }
}
graders::impl_stage03!(ParentsUnchangedShortcut, parents_unchanged_shortcut);

/// **Mistake:** `parents` works out the new subtask's key groups inline, checking the old
/// parallelism, the new one against 0 and the index, but not the new one against
/// `max_parallelism`.
/// **Verdict:** `errors`: `parents(0, 2, 9, 8)` is `Ok([0])` (03-R21).
mod parents_new_above_max {
    pub use solution03::*;

    pub fn parents(
        new_index: u32,
        old_parallelism: u32,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<u32>> {
        anyhow::ensure!(
            old_parallelism > 0 && old_parallelism <= max_parallelism,
            "old parallelism {old_parallelism} must be in 1..={max_parallelism}"
        );
        anyhow::ensure!(new_parallelism > 0, "new parallelism must be at least 1");
        anyhow::ensure!(
            new_index < new_parallelism,
            "new index {new_index} is out of range for {new_parallelism} subtasks"
        );
        let (i, p, maxp) = (
            u64::from(new_index),
            u64::from(new_parallelism),
            u64::from(max_parallelism),
        );
        let (first, end) = ((i * maxp).div_ceil(p), ((i + 1) * maxp).div_ceil(p));
        let mut parents = Vec::new();
        for group in first..end {
            let old = operator_index_for(u32::try_from(group)?, old_parallelism, max_parallelism)?;
            if !parents.contains(&old) {
                parents.push(old);
            }
        }
        Ok(parents)
    }
}
graders::impl_stage03!(ParentsNewAboveMax, parents_new_above_max);

/// **Mistake:** `parallel_count` refuses a parallelism of 0, then answers `p` empty
/// counts for no key, before `partition` would have checked the parallelism against
/// `max_parallelism`.
/// **Verdict:** `errors`: `parallel_count(&[], 9, 8)` is nine empty maps (03-R21).
mod count_empty_above_max {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn parallel_count(
        keys: &[Vec<u8>],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, u64>>> {
        anyhow::ensure!(parallelism > 0, "parallelism must be at least 1");
        if keys.is_empty() {
            return Ok(vec![BTreeMap::new(); parallelism as usize]);
        }
        solution03::parallel_count(keys, parallelism, max_parallelism)
    }
}
graders::impl_stage03!(CountEmptyAboveMax, count_empty_above_max);

/// **Mistake:** `rescale` checks the new parallelism against `max_parallelism` only, and
/// routes each key with `operator_index_for`, whose own check refuses a parallelism of 0,
/// but only once there is a key to route.
/// **Verdict:** `errors`: `rescale([{}], 0, 8)` is `Ok([])` (03-R21).
mod rescale_zero_unchecked {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn rescale<V>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        anyhow::ensure!(
            new_parallelism <= max_parallelism,
            "new parallelism {new_parallelism} is above max_parallelism {max_parallelism}"
        );
        let mut out: Vec<BTreeMap<Vec<u8>, V>> =
            (0..new_parallelism).map(|_| BTreeMap::new()).collect();
        for map in state {
            for (key, value) in map {
                let group = key_group_for(&key, max_parallelism)?;
                let owner = operator_index_for(group, new_parallelism, max_parallelism)?;
                let slot = &mut out[owner as usize];
                anyhow::ensure!(!slot.contains_key(&key), "key {key:?} is held twice");
                slot.insert(key, value);
            }
        }
        Ok(out)
    }
}
graders::impl_stage03!(RescaleZeroUnchecked, rescale_zero_unchecked);

graders::impl_stage03!(
    RestoreSkipsUnreadable,
    super::redteam_bytes_subtask::restore_skips_unreadable
);
graders::impl_stage03!(
    RestoreNullAsEmpty,
    super::redteam_bytes_subtask::restore_null_as_empty
);

/// Every mutant of this red team, the check that must reject it and the requirement its
/// smallest failing case must name.
#[rstest]
#[case::parents_unchanged_shortcut(drive::<ParentsUnchangedShortcut>, "errors", "03-R21")]
#[case::parents_new_above_max(drive::<ParentsNewAboveMax>, "errors", "03-R21")]
#[case::count_empty_above_max(drive::<CountEmptyAboveMax>, "errors", "03-R21")]
#[case::rescale_zero_unchecked(drive::<RescaleZeroUnchecked>, "errors", "03-R21")]
#[case::restore_skips_unreadable(drive::<RestoreSkipsUnreadable>, "errors", "03-R9")]
#[case::restore_null_as_empty(drive::<RestoreNullAsEmpty>, "errors", "03-R9")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
