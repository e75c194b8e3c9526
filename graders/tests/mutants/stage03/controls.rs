//! Stage 03 controls: correct solutions that take choices the brief leaves open, which
//! the grader must accept without a card.

use crate::accepted;

/// Correct, choosing differently where the brief allows: every error worded its own way
/// (still naming the argument), `rescale` refusing a key on an old subtask that does not
/// own it, and `restore` refusing any key found in two snapshots, owned or not.
mod strict_and_wordy {
    pub use solution03::{
        KeyedSubtask as Inner, key_group_for, key_group_range, operator_index_for, parents,
        partition, stable_hash,
    };
    use std::collections::{BTreeMap, BTreeSet};

    pub fn rescale<V>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        let old = u32::try_from(state.len())?;
        anyhow::ensure!(
            old > 0,
            "`state` holds no old subtask: an old parallelism of 0"
        );
        for (i, map) in (0u32..).zip(&state) {
            let range = key_group_range(i, old, max_parallelism)?;
            for key in map.keys() {
                anyhow::ensure!(
                    range.contains(&key_group_for(key, max_parallelism)?),
                    "key {key:?} is on old subtask {i}, which does not own its key group"
                );
            }
        }
        solution03::rescale(state, new_parallelism, max_parallelism)
    }

    pub fn parallel_count(
        keys: &[Vec<u8>],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, u64>>> {
        solution03::parallel_count(keys, parallelism, max_parallelism)
            .map_err(|e| anyhow::anyhow!("cannot count at this parallelism ({e})"))
    }

    pub struct KeyedSubtask<V>(Inner<V>);

    impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
        pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
            Inner::new(index, parallelism, max_parallelism).map(Self)
        }
        pub fn key_groups(&self) -> std::ops::RangeInclusive<u32> {
            self.0.key_groups()
        }
        pub fn update(
            &mut self,
            key: &[u8],
            f: impl FnOnce(Option<V>) -> Option<V>,
        ) -> anyhow::Result<()> {
            self.0
                .update(key, f)
                .map_err(|e| anyhow::anyhow!("misrouted record refused: {e}"))
        }
        pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
            self.0.state()
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.0.snapshot()
        }
        pub fn restore(
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            snapshots: &[Vec<u8>],
        ) -> anyhow::Result<Self> {
            let mut seen = BTreeSet::new();
            for bytes in snapshots {
                let old = solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes)?;
                for key in old.snapshot().into_keys() {
                    anyhow::ensure!(seen.insert(key.clone()), "key {key:?} is in two snapshots");
                }
            }
            Inner::restore(index, parallelism, max_parallelism, snapshots).map(Self)
        }
    }
}
graders::impl_stage03!(StrictAndWordy, strict_and_wordy);
accepted!(stage03_strict_and_wordy_passes: graders::stage03::Parallelism, graders::stage03::drive::<StrictAndWordy>);

/// Correct, built another way: snapshots in a format of its own (a version byte, then
/// the pairs as JSON), routing by searching the ranges instead of `operator_index_for`,
/// and `parents` by scanning every old range for an overlap.
mod own_format {
    pub use solution03::{
        key_group_for, key_group_range, operator_index_for, parallel_count, rescale, stable_hash,
    };

    pub fn partition<T: Clone>(
        records: &[T],
        key: impl Fn(&T) -> &[u8],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<Vec<T>>> {
        key_group_range(0, parallelism, max_parallelism)?;
        let ranges = (0..parallelism)
            .map(|i| key_group_range(i, parallelism, max_parallelism))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let mut out = vec![Vec::new(); parallelism as usize];
        for record in records {
            let group = key_group_for(key(record), max_parallelism)?;
            let owner = ranges
                .iter()
                .position(|r| r.contains(&group))
                .expect("the ranges tile the key groups");
            out[owner].push(record.clone());
        }
        Ok(out)
    }

    pub fn parents(j: u32, p: u32, q: u32, maxp: u32) -> anyhow::Result<Vec<u32>> {
        key_group_range(0, p, maxp)?;
        let new = key_group_range(j, q, maxp)?;
        let mut out = Vec::new();
        for i in 0..p {
            let old = key_group_range(i, p, maxp)?;
            if old.start() <= new.end() && new.start() <= old.end() {
                out.push(i);
            }
        }
        Ok(out)
    }

    pub struct KeyedSubtask<V> {
        range: std::ops::RangeInclusive<u32>,
        max_parallelism: u32,
        state: solution02::KeyedState<Vec<u8>, V>,
    }

    impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
        pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
            Ok(Self {
                range: key_group_range(index, parallelism, max_parallelism)?,
                max_parallelism,
                state: solution02::KeyedState::new(),
            })
        }
        pub fn key_groups(&self) -> std::ops::RangeInclusive<u32> {
            self.range.clone()
        }
        pub fn update(
            &mut self,
            key: &[u8],
            f: impl FnOnce(Option<V>) -> Option<V>,
        ) -> anyhow::Result<()> {
            let group = key_group_for(key, self.max_parallelism)?;
            anyhow::ensure!(self.range.contains(&group), "key group {group} is not mine");
            self.state.update(key.to_vec(), f);
            Ok(())
        }
        pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
            &self.state
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            let pairs: Vec<(Vec<u8>, V)> = self.state.snapshot().into_iter().collect();
            let mut bytes = vec![1u8];
            bytes.extend(serde_json::to_vec(&pairs)?);
            Ok(bytes)
        }
        pub fn restore(
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            snapshots: &[Vec<u8>],
        ) -> anyhow::Result<Self> {
            let mut subtask = Self::new(index, parallelism, max_parallelism)?;
            for bytes in snapshots {
                let Some((1, json)) = bytes.split_first() else {
                    anyhow::bail!("not a snapshot of version 1");
                };
                // Read as the reference reads its pairs: each key once, in order (pairs out
                // of order are bytes its snapshot never writes).
                let pairs = solution02::KeyedState::<Vec<u8>, V>::from_bytes(json)?.snapshot();
                for (key, value) in pairs {
                    if !subtask
                        .range
                        .contains(&key_group_for(&key, max_parallelism)?)
                    {
                        continue;
                    }
                    anyhow::ensure!(
                        subtask.state.get(&key).is_none(),
                        "key {key:?} appears in two snapshots"
                    );
                    subtask.state.put(key, value);
                }
            }
            Ok(subtask)
        }
    }
}
graders::impl_stage03!(OwnFormat, own_format);
accepted!(stage03_own_format_passes: graders::stage03::Parallelism, graders::stage03::drive::<OwnFormat>);

/// Correct: `key_group_range` and `parents` check the index before the parallelism, so
/// beside a parallelism of 0 (which no index fits) they name the index ("operator_index 0
/// is out of range 0..0"): two arguments that disagree, either of which the brief lets
/// the error name (the seventeenth red team's c03-04).
mod index_checked_first {
    pub use solution03::{
        KeyedSubtask, key_group_for, operator_index_for, parallel_count, partition, rescale,
        stable_hash,
    };

    pub fn key_group_range(
        operator_index: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        anyhow::ensure!(
            operator_index < parallelism,
            "operator_index {operator_index} is out of range 0..{parallelism}"
        );
        solution03::key_group_range(operator_index, parallelism, max_parallelism)
    }

    pub fn parents(
        new_index: u32,
        old_parallelism: u32,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<u32>> {
        anyhow::ensure!(
            new_index < new_parallelism,
            "new_index {new_index} is out of range 0..{new_parallelism}"
        );
        solution03::parents(new_index, old_parallelism, new_parallelism, max_parallelism)
    }
}
graders::impl_stage03!(IndexCheckedFirst, index_checked_first);
accepted!(stage03_index_checked_first_passes: graders::stage03::Parallelism, graders::stage03::drive::<IndexCheckedFirst>);
