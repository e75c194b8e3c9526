//! Stage 03 mutants of the third red team, written from the brief alone, which the grader
//! once accepted: a doubled key looked for only between neighbouring old subtasks, a
//! doubled key refused only when a snapshot is passed twice, a snapshot that carries its
//! subtask's index and parallelism; and a restore that refuses the same bytes twice, even
//! empty subtasks' snapshots, whose failure was once blamed on the parallelism.

use graders::harness::expect_rejected_for;
use graders::stage03::{Case, Observation, Parallelism, drive};
use rstest::rstest;

/// **Mistake:** `rescale` compares each old map with the next one only
/// (`state.windows(2)`), as if a doubled key could only sit on neighbouring subtasks;
/// elsewhere the later insert of a key replaces the earlier one.
/// **Verdict:** `rescale` fails: a key on old subtasks 0 and 2 of 3, with values 5 and 7,
/// rescales to one value instead of an error (03-R12).
mod rescale_dup_adjacent_only {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn rescale<V>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        key_group_range(0, u32::try_from(state.len())?, max_parallelism)?;
        key_group_range(0, new_parallelism, max_parallelism)?;
        for pair in state.windows(2) {
            for key in pair[0].keys() {
                anyhow::ensure!(
                    !pair[1].contains_key(key),
                    "key {key:?} is held by two old subtasks"
                );
            }
        }
        let mut out: Vec<BTreeMap<Vec<u8>, V>> =
            (0..new_parallelism).map(|_| BTreeMap::new()).collect();
        for (key, value) in state.into_iter().flatten() {
            let group = key_group_for(&key, max_parallelism)?;
            out[operator_index_for(group, new_parallelism, max_parallelism)? as usize]
                .insert(key, value);
        }
        Ok(out)
    }
}
graders::impl_stage03!(RescaleDupAdjacentOnly, rescale_dup_adjacent_only);

/// A subtask that delegates to the reference but for `restore`, whose body is `$restore`
/// (over `(index, parallelism, max_parallelism, snapshots)`).
macro_rules! subtask_restoring {
    (|$index:ident, $parallelism:ident, $maxp:ident, $snapshots:ident| $restore:block) => {
        pub struct KeyedSubtask<V>(solution03::KeyedSubtask<V>);

        impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
            pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
                solution03::KeyedSubtask::new(index, parallelism, max_parallelism).map(Self)
            }
            pub fn key_groups(&self) -> std::ops::RangeInclusive<u32> {
                self.0.key_groups()
            }
            pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
                self.0.state()
            }
            pub fn update(
                &mut self,
                key: &[u8],
                f: impl FnOnce(Option<V>) -> Option<V>,
            ) -> anyhow::Result<()> {
                self.0.update(key, f)
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                self.0.snapshot()
            }
            pub fn restore(
                $index: u32,
                $parallelism: u32,
                $maxp: u32,
                $snapshots: &[Vec<u8>],
            ) -> anyhow::Result<Self> {
                $restore
            }
        }
    };
}

/// **Mistake:** `restore` takes "a key found in two snapshots" for "a snapshot passed
/// twice": it refuses two byte-identical snapshots that hold a key, and otherwise reads
/// the snapshots in order, a later one's value of a key replacing an earlier one's.
/// **Verdict:** `contract` fails: `restore` from `[snapshot(), another subtask's snapshot
/// of the same key, counted once more]` succeeds with the second value (03-R8).
mod restore_dup_identical_only {
    pub use solution03::*;

    subtask_restoring!(|index, parallelism, max_parallelism, snapshots| {
        for (i, bytes) in snapshots.iter().enumerate() {
            let held = solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes)?;
            anyhow::ensure!(
                held.is_empty() || !snapshots[i + 1..].contains(bytes),
                "snapshot {i} is passed twice: its keys would be doubled"
            );
        }
        let mut subtask = solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?;
        let owned = subtask.key_groups();
        for bytes in snapshots {
            let old = solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes)?;
            for (key, value) in old.snapshot() {
                if owned.contains(&key_group_for(&key, max_parallelism)?) {
                    subtask.update(&key, |_| Some(value))?;
                }
            }
        }
        Ok(Self(subtask))
    });
}
graders::impl_stage03!(RestoreDupIdenticalOnly, restore_dup_identical_only);

/// **Mistake:** `rescale` looks for a doubled key only between old subtask 0 and the
/// others ("compare everything with the first"); between two later maps, the later insert
/// replaces the earlier one.
/// **Verdict:** `rescale` fails: a key on old subtasks 1 and 2 of 3 rescales to one value
/// instead of an error (03-R12).
mod rescale_dup_vs_first_only {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn rescale<V>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        key_group_range(0, u32::try_from(state.len())?, max_parallelism)?;
        key_group_range(0, new_parallelism, max_parallelism)?;
        if let Some((first, rest)) = state.split_first() {
            for key in first.keys() {
                anyhow::ensure!(
                    rest.iter().all(|map| !map.contains_key(key)),
                    "key {key:?} is held by two old subtasks"
                );
            }
        }
        let mut out: Vec<BTreeMap<Vec<u8>, V>> =
            (0..new_parallelism).map(|_| BTreeMap::new()).collect();
        for (key, value) in state.into_iter().flatten() {
            let group = key_group_for(&key, max_parallelism)?;
            out[operator_index_for(group, new_parallelism, max_parallelism)? as usize]
                .insert(key, value);
        }
        Ok(out)
    }
}
graders::impl_stage03!(RescaleDupVsFirstOnly, rescale_dup_vs_first_only);

/// **Mistake:** `restore` looks for a key of the first snapshot in the others, not for
/// a key shared by two later ones; a later snapshot's value replaces an earlier one's.
/// **Verdict:** `contract` fails: `restore` from `[an empty subtask's snapshot,
/// snapshot(), another subtask's snapshot of the same key, counted once more]` succeeds
/// (03-R8).
mod restore_dup_vs_first_only {
    pub use solution03::*;

    subtask_restoring!(|index, parallelism, max_parallelism, snapshots| {
        let first: Vec<Vec<u8>> = match snapshots.first() {
            Some(bytes) => solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes)?
                .snapshot()
                .into_keys()
                .collect(),
            None => Vec::new(),
        };
        let mut subtask = solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?;
        let owned = subtask.key_groups();
        for (i, bytes) in snapshots.iter().enumerate() {
            let old = solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes)?;
            for (key, value) in old.snapshot() {
                anyhow::ensure!(
                    i == 0 || !first.contains(&key),
                    "key {key:?} is found in two snapshots"
                );
                if owned.contains(&key_group_for(&key, max_parallelism)?) {
                    subtask.update(&key, |_| Some(value))?;
                }
            }
        }
        Ok(Self(subtask))
    });
}
graders::impl_stage03!(RestoreDupVsFirstOnly, restore_dup_vs_first_only);

/// **Mistake:** `restore` looks for each key in the snapshot just before ("a duplicate
/// comes from two neighbouring subtasks"), so a key held by two snapshots with another
/// between them keeps the later value.
/// **Verdict:** `contract` fails: `restore` from `[an empty subtask's snapshot,
/// snapshot(), the empty one again, another subtask's snapshot of the same key, counted
/// once more]` succeeds (03-R8).
mod restore_dup_adjacent_only {
    pub use solution03::*;

    subtask_restoring!(|index, parallelism, max_parallelism, snapshots| {
        let mut subtask = solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?;
        let owned = subtask.key_groups();
        let mut previous: Vec<Vec<u8>> = Vec::new();
        for bytes in snapshots {
            let old = solution02::KeyedState::<Vec<u8>, V>::from_bytes(bytes)?.snapshot();
            for (key, value) in &old {
                anyhow::ensure!(
                    !previous.contains(key),
                    "key {key:?} is found in two snapshots"
                );
                if owned.contains(&key_group_for(key, max_parallelism)?) {
                    subtask.update(key, |_| Some(value.clone()))?;
                }
            }
            previous = old.into_keys().collect();
        }
        Ok(Self(subtask))
    });
}
graders::impl_stage03!(RestoreDupAdjacentOnly, restore_dup_adjacent_only);

/// **Mistake:** the snapshot records who wrote it, `[index, parallelism, pairs]` ("handy
/// for debugging"), and `restore` skips the first two: the brief's snapshot holds only
/// the keyed state.
/// **Verdict:** `contract` fails: the snapshots of the empty subtasks `new(0, 1, 10)` and
/// `new(0, 2, 10)` are not the same bytes (03-R6).
mod snapshot_with_index {
    pub use solution03::*;

    pub struct KeyedSubtask<V> {
        inner: solution03::KeyedSubtask<V>,
        parallelism: u32,
    }

    impl<V: Clone + serde::Serialize + serde::de::DeserializeOwned> KeyedSubtask<V> {
        pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> anyhow::Result<Self> {
            Ok(Self {
                inner: solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?,
                parallelism,
            })
        }
        pub fn key_groups(&self) -> std::ops::RangeInclusive<u32> {
            self.inner.key_groups()
        }
        pub fn state(&self) -> &solution02::KeyedState<Vec<u8>, V> {
            self.inner.state()
        }
        pub fn update(
            &mut self,
            key: &[u8],
            f: impl FnOnce(Option<V>) -> Option<V>,
        ) -> anyhow::Result<()> {
            self.inner.update(key, f)
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            let pairs: Vec<(Vec<u8>, V)> = self.inner.state().snapshot().into_iter().collect();
            Ok(serde_json::to_vec(&(
                self.inner.index(),
                self.parallelism,
                pairs,
            ))?)
        }
        pub fn restore(
            index: u32,
            parallelism: u32,
            max_parallelism: u32,
            snapshots: &[Vec<u8>],
        ) -> anyhow::Result<Self> {
            let mut subtask = Self::new(index, parallelism, max_parallelism)?;
            let owned = subtask.key_groups();
            for bytes in snapshots {
                // Who wrote it does not matter here: the pairs do.
                let (_, _, pairs): (u32, u32, Vec<(Vec<u8>, V)>) = serde_json::from_slice(bytes)?;
                // The pairs as strictly as the reference reads them.
                anyhow::ensure!(
                    pairs.windows(2).all(|w| w[0].0 < w[1].0),
                    "not a snapshot: keys repeated or out of order"
                );
                for (key, value) in pairs {
                    if !owned.contains(&key_group_for(&key, max_parallelism)?) {
                        continue;
                    }
                    anyhow::ensure!(
                        subtask.state().get(&key).is_none(),
                        "key {key:?} is in two snapshots"
                    );
                    subtask.update(&key, |_| Some(value))?;
                }
            }
            Ok(subtask)
        }
    }
}
graders::impl_stage03!(SnapshotWithIndex, snapshot_with_index);

/// **Mistake:** `restore` refuses two snapshots that are the same bytes ("the same
/// snapshot twice doubles every key"), without asking whether they hold a key at all:
/// the snapshots of two empty subtasks are refused too.
/// **Verdict:** `contract` fails: a new subtask 1 of 3 restored as subtask 1 of 2 from
/// `[an empty subtask's snapshot, snapshot()]`, two empty states, is refused (03-R7: a
/// restore keeps the keys it owns, here none), with no card: the refusal is not about
/// the parallelism, though the target's differs.
mod restore_refuses_repeated_snapshot {
    pub use solution03::*;

    subtask_restoring!(|index, parallelism, max_parallelism, snapshots| {
        for (i, bytes) in snapshots.iter().enumerate() {
            anyhow::ensure!(
                !snapshots[i + 1..].contains(bytes),
                "snapshot {i} is passed twice: its keys would be doubled"
            );
        }
        solution03::KeyedSubtask::restore(index, parallelism, max_parallelism, snapshots).map(Self)
    });
}
graders::impl_stage03!(
    RestoreRefusesRepeatedSnapshot,
    restore_refuses_repeated_snapshot
);

/// Each mutant with a card, the check that must reject it, the one requirement its
/// smallest failing case must name and the card its report must show.
#[rstest]
#[case::rescale_dup_adjacent_only(drive::<RescaleDupAdjacentOnly>, "rescale", "03-R12", "03-a-key-found-twice-keeps-one-value")]
#[case::restore_dup_identical_only(drive::<RestoreDupIdenticalOnly>, "contract", "03-R8", "03-a-key-found-twice-keeps-one-value")]
#[case::rescale_dup_vs_first_only(drive::<RescaleDupVsFirstOnly>, "rescale", "03-R12", "03-a-key-found-twice-keeps-one-value")]
#[case::restore_dup_vs_first_only(drive::<RestoreDupVsFirstOnly>, "contract", "03-R8", "03-a-key-found-twice-keeps-one-value")]
#[case::restore_dup_adjacent_only(drive::<RestoreDupAdjacentOnly>, "contract", "03-R8", "03-a-key-found-twice-keeps-one-value")]
#[case::snapshot_with_index(drive::<SnapshotWithIndex>, "contract", "03-R6", "03-snapshot-names-its-subtask")]
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

/// **Mistake:** `restore` reads each snapshot's pairs itself and collects them into a
/// map ("the map keeps one value per key anyway"), so a key listed twice in one snapshot
/// keeps its last value, though no snapshot lists a key twice.
/// **Verdict:** `errors` fails: `restore(0, 1, 8, &[b"[[[107],1],[[107],2]]"])` succeeds
/// (03-R9).
mod restore_collects_repeated_pairs {
    pub use solution03::*;

    subtask_restoring!(|index, parallelism, max_parallelism, snapshots| {
        let mut subtask = solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?;
        let owned = subtask.key_groups();
        let mut seen = std::collections::BTreeSet::new();
        for bytes in snapshots {
            let pairs: Vec<(Vec<u8>, V)> = serde_json::from_slice(bytes)?;
            let old: std::collections::BTreeMap<Vec<u8>, V> = pairs.into_iter().collect();
            for (key, value) in old {
                anyhow::ensure!(
                    seen.insert(key.clone()),
                    "key {key:?} is found in two snapshots"
                );
                if owned.contains(&key_group_for(&key, max_parallelism)?) {
                    subtask.update(&key, |_| Some(value))?;
                }
            }
        }
        Ok(Self(subtask))
    });
}
graders::impl_stage03!(
    RestoreCollectsRepeatedPairs,
    restore_collects_repeated_pairs
);

/// **Mistake:** `restore` reads every JSON value of a snapshot's bytes ("a file may
/// hold its state in parts"), so a snapshot written twice in one file restores as one.
/// **Verdict:** `errors` fails: `restore` of its own snapshot of `{"k": 1}` written twice
/// succeeds (03-R9).
mod restore_reads_every_value {
    pub use solution03::*;

    subtask_restoring!(|index, parallelism, max_parallelism, snapshots| {
        let mut subtask = solution03::KeyedSubtask::new(index, parallelism, max_parallelism)?;
        let owned = subtask.key_groups();
        let mut state = std::collections::BTreeMap::new();
        for bytes in snapshots {
            let mut this = std::collections::BTreeMap::new();
            for part in serde_json::Deserializer::from_slice(bytes).into_iter::<Vec<(Vec<u8>, V)>>()
            {
                this.extend(part?);
            }
            anyhow::ensure!(!bytes.is_empty(), "no snapshot");
            for (key, value) in this {
                anyhow::ensure!(
                    state.insert(key.clone(), value).is_none(),
                    "key {key:?} is found in two snapshots"
                );
            }
        }
        for (key, value) in state {
            if owned.contains(&key_group_for(&key, max_parallelism)?) {
                subtask.update(&key, |_| Some(value))?;
            }
        }
        Ok(Self(subtask))
    });
}
graders::impl_stage03!(RestoreReadsEveryValue, restore_reads_every_value);

/// Mutants whose failure no card explains: refusing valid snapshots is no belief about
/// the parallelism (it was once shown the card of a snapshot pinned to its parallelism).
#[rstest]
#[case::restore_refuses_repeated_snapshot(drive::<RestoreRefusesRepeatedSnapshot>, "contract", "03-R7")]
#[case::restore_collects_repeated_pairs(drive::<RestoreCollectsRepeatedPairs>, "errors", "03-R9")]
#[case::restore_reads_every_value(drive::<RestoreReadsEveryValue>, "errors", "03-R9")]
fn is_rejected_without_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Parallelism>(drive, check, requirement);
}
