//! Stage 03 mutants of the red team of 2026-12-05, written from the brief alone: the
//! owner's formula worked out again in `u32` inside `parents`, `rescale` and `partition`
//! (right until `max_parallelism` is large), and a rescale error that prints a key as
//! text, and `restore` in `u32` too; a snapshot as a JSON object that keeps the last of a key written twice; and a
//! correct `operator_index_for` that finds the owner by halving the
//! subtasks (its ranges in order), which must pass; and (the red team of 2026-12-06)
//! `parents` scaled in an `f64`.

use crate::accepted;
use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

/// **Mistake:** `parents` works out the owners of the new range's first and last key
/// groups inline, `g * p / maxp` in `u32`, instead of in `u64` ("the brief's formula").
/// **Verdict:** `parents` fails: `parents(3000000000, 2, u32::MAX, u32::MAX)`, where
/// `3000000000 * 2` is past `u32::MAX`, panics or wraps to `[0]` (03-R24).
mod parents_owners_in_u32 {
    pub use solution03::*;

    pub fn parents(j: u32, p: u32, q: u32, maxp: u32) -> anyhow::Result<Vec<u32>> {
        solution03::parents(0, p, q, maxp)?;
        let range = key_group_range(j, q, maxp)?;
        let first = *range.start() * p / maxp;
        let last = *range.end() * p / maxp;
        Ok((first..=last).collect())
    }
}
graders::impl_stage03!(ParentsOwnersInU32, parents_owners_in_u32);

/// **Mistake:** `parents` scales the new range's ends to the old parallelism in an
/// `f64`, `floor(g * (p / maxp))` (the fourteenth red team's w03-01): right while the
/// product fits the 53 bits of an `f64`, not where an owner is a hair below a whole number.
/// **Verdict:** `parents` fails: `parents(4294966783, 8388608, u32::MAX, u32::MAX)` is
/// `[8388607]`, where key group 4294966783 is old subtask 8388606's (03-R24).
mod parents_scaled_in_f64 {
    pub use solution03::*;

    pub fn parents(j: u32, p: u32, q: u32, maxp: u32) -> anyhow::Result<Vec<u32>> {
        solution03::parents(0, p, q, maxp)?;
        let range = key_group_range(j, q, maxp)?;
        let scale = f64::from(p) / f64::from(maxp);
        let first = (f64::from(*range.start()) * scale).floor() as u32;
        let last = (f64::from(*range.end()) * scale).floor() as u32;
        Ok((first..=last.min(p - 1)).collect())
    }
}
graders::impl_stage03!(ParentsScaledInF64, parents_scaled_in_f64);

/// **Mistake:** `rescale` sends each key to `g * q / maxp` computed inline in `u32`.
/// **Verdict:** `rescale` fails at `max_parallelism` `u32::MAX`: key `a`, of key group
/// 3826002220, panics or lands on new subtask 0 of 3, not on its owner 2 (03-R11).
mod rescale_routes_in_u32 {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn rescale<V>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        // The reference's checks of the arguments, on an empty state of the same shape.
        let shape: Vec<BTreeMap<Vec<u8>, V>> = state.iter().map(|_| BTreeMap::new()).collect();
        let mut rescaled = solution03::rescale(shape, new_parallelism, max_parallelism)?;
        for old in state {
            for (key, value) in old {
                let group = key_group_for(&key, max_parallelism)?;
                let target = group * new_parallelism / max_parallelism;
                if rescaled[target as usize]
                    .insert(key.clone(), value)
                    .is_some()
                {
                    anyhow::bail!("key {key:?} is held by two old subtasks");
                }
            }
        }
        Ok(rescaled)
    }
}
graders::impl_stage03!(RescaleRoutesInU32, rescale_routes_in_u32);

/// **Mistake:** `partition` routes each record to `g * p / maxp` computed inline in `u32`
/// rather than with `operator_index_for`.
/// **Verdict:** `partition` fails at `max_parallelism` `u32::MAX`: the record of key `a`,
/// of key group 3826002220, panics or goes to subtask 0 of 3, not to its owner 2
/// (03-R1; the implementation's own `operator_index_for` is right, so it is not blamed).
mod partition_routes_in_u32 {
    pub use solution03::*;

    pub fn partition<T: Clone>(
        records: &[T],
        key: impl Fn(&T) -> &[u8],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<Vec<T>>> {
        let mut streams = solution03::partition(&[], |r: &T| key(r), parallelism, max_parallelism)?;
        for record in records {
            let group = key_group_for(key(record), max_parallelism)?;
            streams[(group * parallelism / max_parallelism) as usize].push(record.clone());
        }
        Ok(streams)
    }
}
graders::impl_stage03!(PartitionRoutesInU32, partition_routes_in_u32);

/// **Mistake:** `rescale`'s error for a key held by two old subtasks prints the key as
/// text, `String::from_utf8(key).unwrap()` ("keys are words"), though keys are bytes.
/// **Verdict:** `rescale` fails: a key that is not UTF-8 (`\xff` and a digit) held by
/// old subtasks 0 and 1 panics instead of being refused (03-R12).
mod rescale_duplicate_as_text {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn rescale<V>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        let shape: Vec<BTreeMap<Vec<u8>, V>> = state.iter().map(|_| BTreeMap::new()).collect();
        let mut rescaled = solution03::rescale(shape, new_parallelism, max_parallelism)?;
        for old in state {
            for (key, value) in old {
                let group = key_group_for(&key, max_parallelism)?;
                let target = operator_index_for(group, new_parallelism, max_parallelism)?;
                if rescaled[target as usize]
                    .insert(key.clone(), value)
                    .is_some()
                {
                    anyhow::bail!(
                        "key {} is held by two old subtasks",
                        String::from_utf8(key).unwrap()
                    );
                }
            }
        }
        Ok(rescaled)
    }
}
graders::impl_stage03!(RescaleDuplicateAsText, rescale_duplicate_as_text);

/// **Mistake:** the snapshot sidesteps the brief's serde_json trap the other way: each key
/// written as lowercase hex, the state a JSON object (`{"6b": 1}`), read back into a
/// `BTreeMap<String, V>`; but a map read by `serde_json` keeps the last of two members of
/// one name, so a key written twice in one snapshot restores as one.
/// **Verdict:** `errors`: its own snapshot of `{"k": 1}` with the member `"6b"` written
/// twice restores instead of being refused (03-R9).
mod hex_object_keeps_last {
    pub use solution03::*;

    subtask_around_the_reference! {
        snapshot(state) {
            let hex: std::collections::BTreeMap<String, V> = state
                .into_iter()
                .map(|(k, v)| (k.iter().map(|b| format!("{b:02x}")).collect(), v))
                .collect();
            Ok(serde_json::to_vec(&hex)?)
        }
        restore(bytes) {
            let hex: std::collections::BTreeMap<String, V> = serde_json::from_slice(bytes)?;
            hex.into_iter()
                .map(|(k, v)| {
                    anyhow::ensure!(k.len() % 2 == 0 && k.is_ascii(), "key {k:?} is not hex");
                    let key = (0..k.len())
                        .step_by(2)
                        .map(|i| u8::from_str_radix(&k[i..i + 2], 16))
                        .collect::<Result<Vec<u8>, _>>()?;
                    Ok((key, v))
                })
                .collect::<anyhow::Result<_>>()?
        }
    }
}
graders::impl_stage03!(HexObjectKeepsLast, hex_object_keeps_last);

/// **Mistake:** `restore` keeps a key where `g * p / maxp == index`, the brief's formula
/// written inline in `u32`, instead of asking its own range.
/// **Verdict:** `contract`: restoring subtask 1 of 3 at `max_parallelism` `u32::MAX`
/// overflows (a panic; where overflow wraps, the owned key is dropped) (03-R24).
mod restore_owner_in_u32 {
    pub use solution03::*;

    pub struct KeyedSubtask<V>(solution03::KeyedSubtask<V>);

    impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
        reference_methods!();
        reference_update_and_snapshot!();
        pub fn restore(
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            snapshots: &[Vec<u8>],
        ) -> anyhow::Result<Self> {
            let mut subtask = solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?;
            for bytes in snapshots {
                let old = solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes)?;
                for (key, value) in old.snapshot() {
                    let group = key_group_for(&key, max_parallelism)?;
                    if group * parallelism / max_parallelism != index {
                        continue;
                    }
                    anyhow::ensure!(
                        subtask.state().get(&key).is_none(),
                        "key {key:?} is in two snapshots"
                    );
                    subtask.update(&key, |_| Some(value))?;
                }
            }
            Ok(Self(subtask))
        }
    }
}
graders::impl_stage03!(RestoreOwnerInU32, restore_owner_in_u32);

#[rstest]
#[case::hex_object_keeps_last(drive::<HexObjectKeepsLast>, "errors", "03-R9")]
#[case::restore_owner_in_u32(drive::<RestoreOwnerInU32>, "contract", "03-R24")]
#[case::parents_owners_in_u32(drive::<ParentsOwnersInU32>, "parents", "03-R24")]
#[case::parents_scaled_in_f64(drive::<ParentsScaledInF64>, "parents", "03-R24")]
#[case::rescale_routes_in_u32(drive::<RescaleRoutesInU32>, "rescale", "03-R11")]
#[case::partition_routes_in_u32(drive::<PartitionRoutesInU32>, "partition", "03-R1")]
#[case::rescale_duplicate_as_text(drive::<RescaleDuplicateAsText>, "rescale", "03-R12")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<Parallelism>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}

/// Correct, built another way: `operator_index_for` finds the subtask whose range holds
/// the key group by halving the subtasks, since the ranges come in order. (A walk over
/// every range would be right too, but past a billion subtasks it does not finish.)
mod operator_index_by_search {
    pub use solution03::*;

    pub fn operator_index_for(
        key_group: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<u32> {
        solution03::operator_index_for(key_group, parallelism, max_parallelism)?;
        // The first subtask whose range ends at or past the key group.
        let (mut low, mut high) = (0, parallelism - 1);
        while low < high {
            let middle = low + (high - low) / 2;
            if *key_group_range(middle, parallelism, max_parallelism)?.end() < key_group {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        Ok(low)
    }
}
graders::impl_stage03!(OperatorIndexBySearch, operator_index_by_search);
accepted!(stage03_operator_index_by_search_passes: Parallelism, drive::<OperatorIndexBySearch>);
