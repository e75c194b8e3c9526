//! Stage 03 mutants of the second red team, written from the brief alone: keys read as
//! text somewhere on their way (the API's keys are bytes), duplicates judged by their
//! values, inclusive ranges overlapped as exclusive ones, and a count distributed after
//! the fact, which must pass; with the table of these and of the subtasks of
//! [`super::redteam_bytes_subtask`].

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

use crate::accepted;

/// **Mistake:** `parallel_count` counts words of text: each key is decoded with
/// `String::from_utf8_lossy`, counted in a `BTreeMap<String, u64>`, and turned back into
/// bytes at the end.
/// **Verdict:** `parallel-count`: the Latin-1 key `\xe9t\xe9` is counted as another key.
mod count_by_text {
    pub use solution03::*;

    pub fn parallel_count(
        keys: &[Vec<u8>],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<std::collections::BTreeMap<Vec<u8>, u64>>> {
        let text: Vec<Vec<u8>> = keys
            .iter()
            .map(|k| String::from_utf8_lossy(k).into_owned().into_bytes())
            .collect();
        solution03::parallel_count(&text, parallelism, max_parallelism)
    }
}
graders::impl_stage03!(CountByText, count_by_text);

/// **Mistake:** `key_group_for` insists on text (`std::str::from_utf8(key)?`, "a key is
/// a word"), so a key that is not UTF-8 is an error.
/// **Verdict:** `key-group`: `key_group_for("\xff", ..)` is an error, not
/// `stable_hash(b"\xff") % maxp`.
mod key_group_of_text_only {
    pub use solution03::*;

    pub fn key_group_for(key: &[u8], max_parallelism: u32) -> anyhow::Result<u32> {
        let text = std::str::from_utf8(key)?;
        solution03::key_group_for(text.as_bytes(), max_parallelism)
    }
}
graders::impl_stage03!(KeyGroupOfTextOnly, key_group_of_text_only);

/// **Mistake:** `partition` hashes the key's lossily decoded text, as a learner who
/// handles keys as `String` everywhere else would.
/// **Verdict:** `partition`: the record of key `\xe9t\xe9` goes to the subtask of
/// `"\u{fffd}t\u{fffd}"`'s key group.
mod partition_by_text {
    pub use solution03::*;

    pub fn partition<T: Clone>(
        records: &[T],
        key: impl Fn(&T) -> &[u8],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<Vec<T>>> {
        key_group_range(0, parallelism, max_parallelism)?;
        let mut streams = vec![Vec::new(); parallelism as usize];
        for record in records {
            let text = String::from_utf8_lossy(key(record)).into_owned();
            let group = key_group_for(text.as_bytes(), max_parallelism)?;
            let owner = operator_index_for(group, parallelism, max_parallelism)?;
            streams[owner as usize].push(record.clone());
        }
        Ok(streams)
    }
}
graders::impl_stage03!(PartitionByText, partition_by_text);

/// **Mistake:** `rescale` refuses a key held by two old subtasks only when the two
/// values differ ("the same value twice doubles nothing").
/// **Verdict:** `rescale`: `[{K: 5}, {K: 5}]` rescales to `[{K: 5}]` instead of an
/// error.
mod rescale_equal_duplicates_pass {
    pub use solution03::*;

    pub fn rescale<V: PartialEq + Clone>(
        state: Vec<std::collections::BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<std::collections::BTreeMap<Vec<u8>, V>>> {
        let mut first = std::collections::BTreeMap::new();
        let mut kept = Vec::new();
        for map in state {
            let mut own = std::collections::BTreeMap::new();
            for (key, value) in map {
                if first.get(&key) == Some(&value) {
                    continue;
                }
                first.entry(key.clone()).or_insert_with(|| value.clone());
                own.insert(key, value);
            }
            kept.push(own);
        }
        // The duplicates that differ are still caught, by the reference's check.
        solution03::rescale(kept, new_parallelism, max_parallelism)
    }
}
graders::impl_stage03!(RescaleEqualDuplicatesPass, rescale_equal_duplicates_pass);

/// **Mistake:** `parents` tests two inclusive ranges for overlap as if their ends were
/// exclusive (`a.start < b.end && b.start < a.end`), so ranges that share only their
/// last group do not count.
/// **Verdict:** `parents`: an old subtask whose range ends where the new one starts is
/// missing.
mod parents_exclusive_overlap {
    pub use solution03::*;

    pub fn parents(
        new_index: u32,
        old_parallelism: u32,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<u32>> {
        let new = key_group_range(new_index, new_parallelism, max_parallelism)?;
        key_group_range(0, old_parallelism, max_parallelism)?;
        let mut found = Vec::new();
        for old in 0..old_parallelism {
            let range = key_group_range(old, old_parallelism, max_parallelism)?;
            let overlap = (range.start() < new.end() && new.start() < range.end()) || range == new;
            if overlap {
                found.push(old);
            }
        }
        Ok(found)
    }
}
graders::impl_stage03!(ParentsExclusiveOverlap, parents_exclusive_overlap);

/// **Control:** `parallel_count` counts every key once in one sorted map, then hands
/// each key with its count to the subtask owning its key group (no partition).
mod count_then_distribute {
    pub use solution03::*;

    pub fn parallel_count(
        keys: &[Vec<u8>],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<std::collections::BTreeMap<Vec<u8>, u64>>> {
        key_group_range(0, parallelism, max_parallelism)?;
        let mut total = std::collections::BTreeMap::<Vec<u8>, u64>::new();
        for key in keys {
            *total.entry(key.clone()).or_default() += 1;
        }
        let mut owned = vec![std::collections::BTreeMap::new(); parallelism as usize];
        for (key, count) in total {
            let group = key_group_for(&key, max_parallelism)?;
            let owner = operator_index_for(group, parallelism, max_parallelism)?;
            owned[owner as usize].insert(key, count);
        }
        Ok(owned)
    }
}
graders::impl_stage03!(CountThenDistribute, count_then_distribute);

graders::impl_stage03!(
    SnapshotKeysAsText,
    super::redteam_bytes_subtask::snapshot_keys_as_text
);
graders::impl_stage03!(
    RemovalSkipsOwnership,
    super::redteam_bytes_subtask::removal_skips_ownership
);
graders::impl_stage03!(
    RestoreEqualDuplicatesPass,
    super::redteam_bytes_subtask::restore_equal_duplicates_pass
);
graders::impl_stage03!(
    HexKeyedSnapshot,
    super::redteam_bytes_subtask::hex_keyed_snapshot
);

accepted!(stage03_hex_keyed_snapshot_passes: Parallelism, drive::<HexKeyedSnapshot>);
accepted!(stage03_count_then_distribute_passes: Parallelism, drive::<CountThenDistribute>);

/// Every mutant of this red team, the check that must reject it and the requirement its
/// failure must name.
#[rstest]
#[case::snapshot_keys_as_text(drive::<SnapshotKeysAsText>, "contract", "03-R7")]
#[case::count_by_text(drive::<CountByText>, "parallel-count", "03-R10")]
#[case::key_group_of_text_only(drive::<KeyGroupOfTextOnly>, "key-group", "03-R18")]
#[case::partition_by_text(drive::<PartitionByText>, "partition", "03-R1")]
#[case::removal_skips_ownership(drive::<RemovalSkipsOwnership>, "contract", "03-R5")]
#[case::rescale_equal_duplicates_pass(drive::<RescaleEqualDuplicatesPass>, "rescale", "03-R12")]
#[case::restore_equal_duplicates_pass(drive::<RestoreEqualDuplicatesPass>, "contract", "03-R8")]
#[case::parents_exclusive_overlap(drive::<ParentsExclusiveOverlap>, "parents", "03-R15")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
