//! Stage 03 mutants written from the brief alone: a key folded before hashing, one
//! function of several that forgets a configuration check the brief makes everyone's,
//! a subtask that changes state before refusing, and restores and parents that misread
//! a sentence; and a correct solution written otherwise, which must pass.

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

use crate::accepted;

/// **Mistake:** `key_group_for` folds the key to lower case before hashing ("keys are
/// case-insensitive"), where the brief hashes the key's bytes as they are.
/// **Verdict:** `key-group`: the key group of `"A"` is not `stable_hash("A") % maxp`.
mod key_group_case_folded {
    pub use solution03::*;

    pub fn key_group_for(key: &[u8], max_parallelism: u32) -> anyhow::Result<u32> {
        solution03::key_group_for(&key.to_ascii_lowercase(), max_parallelism)
    }
}
graders::impl_stage03!(KeyGroupCaseFolded, key_group_case_folded);

/// **Mistake:** `key_group_for` trims the key's surrounding whitespace first, as a
/// parsed text field would be.
/// **Verdict:** `key-group`: the key group of `" a"` is `"a"`'s.
mod key_group_trims {
    pub use solution03::*;

    pub fn key_group_for(key: &[u8], max_parallelism: u32) -> anyhow::Result<u32> {
        solution03::key_group_for(key.trim_ascii(), max_parallelism)
    }
}
graders::impl_stage03!(KeyGroupTrims, key_group_trims);

/// **Mistake:** `operator_index_for` checks the parallelism is not 0 (it divides by
/// `max_parallelism`, not by it, so nothing panics) and the key group, but not that the
/// parallelism is at most `max_parallelism`.
/// **Verdict:** `errors`: `operator_index_for(0, 9, 8)` returns `Ok(0)`.
mod operator_index_above_max {
    pub use solution03::*;

    pub fn operator_index_for(
        key_group: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<u32> {
        anyhow::ensure!(parallelism > 0, "parallelism must be at least 1, got 0");
        anyhow::ensure!(
            key_group < max_parallelism,
            "key_group {key_group} is out of range"
        );
        Ok((u64::from(key_group) * u64::from(parallelism) / u64::from(max_parallelism)) as u32)
    }
}
graders::impl_stage03!(OperatorIndexAboveMax, operator_index_above_max);

/// **Mistake:** `partition` checks only a parallelism of 0 up front and leaves the rest
/// to `operator_index_for`, record by record: with no record, a parallelism above
/// `max_parallelism` goes through.
/// **Verdict:** `errors`: `partition(&[], .., 9, 8)` returns nine empty streams.
mod partition_checks_per_record {
    pub use solution03::*;

    pub fn partition<T: Clone>(
        records: &[T],
        key: impl Fn(&T) -> &[u8],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<Vec<T>>> {
        anyhow::ensure!(parallelism > 0, "parallelism must be at least 1, got 0");
        let mut streams = vec![Vec::new(); parallelism as usize];
        for record in records {
            let group = key_group_for(key(record), max_parallelism)?;
            streams[operator_index_for(group, parallelism, max_parallelism)? as usize]
                .push(record.clone());
        }
        Ok(streams)
    }
}
graders::impl_stage03!(PartitionChecksPerRecord, partition_checks_per_record);

/// **Mistake:** `parallel_count` answers an empty input at once, one empty map per
/// subtask, before anything checks the parallelism.
/// **Verdict:** `errors`: `parallel_count(&[], 0, 8)` returns `Ok([])`.
mod count_empty_shortcut {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn parallel_count(
        keys: &[Vec<u8>],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, u64>>> {
        if keys.is_empty() {
            return Ok(vec![BTreeMap::new(); parallelism as usize]);
        }
        solution03::parallel_count(keys, parallelism, max_parallelism)
    }
}
graders::impl_stage03!(CountEmptyShortcut, count_empty_shortcut);

/// **Mistake:** `rescale`, written as its own loop, refuses a new parallelism of 0 but
/// not one above `max_parallelism`: the extra subtasks simply receive nothing.
/// **Verdict:** `errors`: `rescale(state, 9, 8)` returns nine maps.
mod rescale_above_max {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn rescale<V>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        anyhow::ensure!(
            new_parallelism > 0,
            "new_parallelism must be at least 1, got 0"
        );
        anyhow::ensure!(!state.is_empty(), "no old subtask: an old parallelism of 0");
        anyhow::ensure!(
            state.len() <= max_parallelism as usize,
            "old parallelism {} is above max_parallelism {max_parallelism}",
            state.len()
        );
        let mut out: Vec<BTreeMap<Vec<u8>, V>> =
            (0..new_parallelism).map(|_| BTreeMap::new()).collect();
        for map in state {
            for (key, value) in map {
                let group = key_group_for(&key, max_parallelism)?;
                let owner =
                    u64::from(group) * u64::from(new_parallelism) / u64::from(max_parallelism);
                anyhow::ensure!(
                    !out[owner as usize].contains_key(&key),
                    "key {key:?} is held by two old subtasks"
                );
                out[owner as usize].insert(key, value);
            }
        }
        Ok(out)
    }
}
graders::impl_stage03!(RescaleAboveMax, rescale_above_max);

graders::impl_stage03!(SubtaskAboveMax, super::redteam_subtask::subtask_above_max);
graders::impl_stage03!(
    RestoreIndexUnchecked,
    super::redteam_subtask::restore_index_unchecked
);
graders::impl_stage03!(UpdateThenRefuse, super::redteam_subtask::update_then_refuse);
graders::impl_stage03!(
    ParentsDescending,
    super::redteam_subtask::parents_descending
);
graders::impl_stage03!(ParentsByScan, super::redteam_subtask::parents_by_scan);

accepted!(stage03_parents_by_scan_passes: Parallelism, drive::<ParentsByScan>);

/// Each mutant, the check that must reject it, the one requirement its smallest failing
/// case must name and the card its report must show. No card for keys normalised before
/// hashing (their failure reads as any reduction of the hash) nor for parents listed
/// descending (a slip).
#[rstest]
#[case::key_group_case_folded(drive::<KeyGroupCaseFolded>, "key-group", "03-R18", None)]
#[case::key_group_trims(drive::<KeyGroupTrims>, "key-group", "03-R18", None)]
#[case::operator_index_above_max(drive::<OperatorIndexAboveMax>, "errors", "03-R21", Some("03-arguments-are-trusted"))]
#[case::partition_checks_per_record(drive::<PartitionChecksPerRecord>, "errors", "03-R21", Some("03-arguments-are-trusted"))]
#[case::count_empty_shortcut(drive::<CountEmptyShortcut>, "errors", "03-R21", Some("03-arguments-are-trusted"))]
#[case::rescale_above_max(drive::<RescaleAboveMax>, "errors", "03-R21", Some("03-arguments-are-trusted"))]
#[case::subtask_above_max(drive::<SubtaskAboveMax>, "errors", "03-R21", Some("03-arguments-are-trusted"))]
#[case::restore_index_unchecked(drive::<RestoreIndexUnchecked>, "errors", "03-R22", Some("03-arguments-are-trusted"))]
#[case::update_then_refuse(drive::<UpdateThenRefuse>, "contract", "03-R5", Some("03-an-error-after-the-work"))]
#[case::parents_descending(drive::<ParentsDescending>, "parents", "03-R15", None)]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report = expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}
