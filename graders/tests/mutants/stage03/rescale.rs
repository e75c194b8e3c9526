//! Stage 03 mutants of `rescale` on old states the learner's own code never builds: a
//! key held twice, a key on a subtask that does not own it, no old subtask at all.

/// **Mistake:** `rescale` inserts every key into its new owner's map, and a second
/// insert of the same key simply replaces the first: a key held by two old subtasks
/// keeps one value, where the brief calls it an error.
/// **Verdict:** `rescale` fails: a state holding one key on old subtasks 0 and 1 rescales
/// without an error.
mod rescale_overwrites_duplicates {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn rescale<V>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        key_group_range(0, u32::try_from(state.len())?, max_parallelism)?;
        key_group_range(0, new_parallelism, max_parallelism)?;
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
graders::impl_stage03!(RescaleOverwritesDuplicates, rescale_overwrites_duplicates);

/// **Mistake:** each new subtask pulls from its parents only (Flink's way, from
/// snapshots), keeping the keys of its range: a key on an old subtask that does not own
/// it sits on no parent of its new owner, and is lost.
/// **Verdict:** `rescale` fails: a key of old subtask 1 found on old subtask 0 is gone
/// after `2 -> 3`.
mod rescale_pulls_from_parents {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn rescale<V: Clone>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        let old = u32::try_from(state.len())?;
        key_group_range(0, old, max_parallelism)?;
        key_group_range(0, new_parallelism, max_parallelism)?;
        let mut seen = std::collections::BTreeSet::new();
        for key in state.iter().flat_map(BTreeMap::keys) {
            anyhow::ensure!(
                seen.insert(key.clone()),
                "key {key:?} is held by two old subtasks"
            );
        }
        (0..new_parallelism)
            .map(|j| {
                let range = key_group_range(j, new_parallelism, max_parallelism)?;
                let mut mine = BTreeMap::new();
                for i in parents(j, old, new_parallelism, max_parallelism)? {
                    for (key, value) in &state[i as usize] {
                        if range.contains(&key_group_for(key, max_parallelism)?) {
                            mine.insert(key.clone(), value.clone());
                        }
                    }
                }
                Ok(mine)
            })
            .collect()
    }
}
graders::impl_stage03!(RescalePullsFromParents, rescale_pulls_from_parents);

/// **Mistake:** each old subtask hands over only the keys it owns ("a key outside my
/// range is not mine to move"), so a key found on an old subtask that does not own it is
/// dropped, where the brief says it is moved or refused, never lost.
/// **Verdict:** `rescale` fails: a key of old subtask 1 found on old subtask 0 is gone
/// after `2 -> 1`.
mod rescale_drops_misplaced_keys {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn rescale<V>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        let old = u32::try_from(state.len())?;
        key_group_range(0, old, max_parallelism)?;
        key_group_range(0, new_parallelism, max_parallelism)?;
        let mut out: Vec<BTreeMap<Vec<u8>, V>> =
            (0..new_parallelism).map(|_| BTreeMap::new()).collect();
        for (i, map) in (0..old).zip(state) {
            let owned = key_group_range(i, old, max_parallelism)?;
            for (key, value) in map {
                let group = key_group_for(&key, max_parallelism)?;
                if !owned.contains(&group) {
                    continue;
                }
                let new_owner = operator_index_for(group, new_parallelism, max_parallelism)?;
                anyhow::ensure!(
                    out[new_owner as usize].insert(key, value).is_none(),
                    "a key is held by two old subtasks"
                );
            }
        }
        Ok(out)
    }
}
graders::impl_stage03!(RescaleDropsMisplacedKeys, rescale_drops_misplaced_keys);

/// **Mistake:** an empty `state` is taken for a job without keys and rescales to
/// `new_parallelism` empty maps, where the brief calls no old subtask a parallelism of 0.
/// **Verdict:** `rescale` fails: `rescale([], 1, 10)` returns `Ok`.
mod rescale_nothing_to_move {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn rescale<V>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        if state.is_empty() {
            key_group_range(0, new_parallelism, max_parallelism)?;
            return Ok((0..new_parallelism).map(|_| BTreeMap::new()).collect());
        }
        solution03::rescale(state, new_parallelism, max_parallelism)
    }
}
graders::impl_stage03!(RescaleNothingToMove, rescale_nothing_to_move);
