//! Rescaling keyed state from one parallelism to another, by whole key groups.

use std::collections::BTreeMap;

use anyhow::{Result, bail};

use crate::key_group::check_parallelism;
use crate::{key_group_for, key_group_range, operator_index_for};

/// Redistributes the per-subtask `state` of an operator (entry `i` is old subtask `i`'s)
/// over `new_parallelism` subtasks: each key moves to the new subtask owning its key group.
///
/// No key is rehashed into a new group; only the group-to-subtask assignment changes.
///
/// # Errors
/// When `new_parallelism` is 0 or above `max_parallelism`, when `state` (one map per old
/// subtask: its length is the old parallelism) is empty or longer than `max_parallelism`,
/// or when one key is held by two old subtasks.
pub fn rescale<V>(
    state: Vec<BTreeMap<Vec<u8>, V>>,
    new_parallelism: u32,
    max_parallelism: u32,
) -> Result<Vec<BTreeMap<Vec<u8>, V>>> {
    check_parallelism(new_parallelism, max_parallelism)
        .map_err(|e| anyhow::anyhow!("new_parallelism: {e}"))?;
    let old_parallelism = u32::try_from(state.len())?;
    check_parallelism(old_parallelism, max_parallelism)
        .map_err(|e| anyhow::anyhow!("state (one map per old subtask): {e}"))?;
    let mut rescaled: Vec<BTreeMap<Vec<u8>, V>> =
        (0..new_parallelism).map(|_| BTreeMap::new()).collect();
    for old in state {
        for (key, value) in old {
            let group = key_group_for(&key, max_parallelism)?;
            let target = operator_index_for(group, new_parallelism, max_parallelism)?;
            if rescaled[target as usize]
                .insert(key.clone(), value)
                .is_some()
            {
                bail!("key {key:?} is held by two old subtasks");
            }
        }
    }
    Ok(rescaled)
}

/// The old subtasks (of `old_parallelism`) whose key-group ranges overlap the range of new
/// subtask `new_index` (of `new_parallelism`), in increasing order.
///
/// These are the only snapshots the new subtask has to read after a rescale. Ranges are
/// contiguous and sorted, so the overlap is itself a contiguous run of old indices: from
/// the owner of the new range's first group to the owner of its last.
///
/// # Errors
/// When either parallelism is invalid or `new_index` is not below `new_parallelism`.
pub fn parents(
    new_index: u32,
    old_parallelism: u32,
    new_parallelism: u32,
    max_parallelism: u32,
) -> Result<Vec<u32>> {
    check_parallelism(old_parallelism, max_parallelism)
        .map_err(|e| anyhow::anyhow!("old_parallelism: {e}"))?;
    let range = key_group_range(new_index, new_parallelism, max_parallelism)?;
    let first = operator_index_for(*range.start(), old_parallelism, max_parallelism)?;
    let last = operator_index_for(*range.end(), old_parallelism, max_parallelism)?;
    Ok((first..=last).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_are_exactly_the_overlapping_old_ranges() {
        for maxp in [8, 10, 128] {
            for p in 1..=8 {
                for q in 1..=8 {
                    for j in 0..q {
                        let new = key_group_range(j, q, maxp).unwrap();
                        let overlapping: Vec<u32> = (0..p)
                            .filter(|&i| {
                                let old = key_group_range(i, p, maxp).unwrap();
                                old.start() <= new.end() && new.start() <= old.end()
                            })
                            .collect();
                        assert_eq!(parents(j, p, q, maxp).unwrap(), overlapping);
                    }
                }
            }
        }
    }

    #[test]
    fn rescale_moves_each_key_once_to_its_owner() {
        let keys: Vec<Vec<u8>> = (0..50u8).map(|i| vec![i, i / 3]).collect();
        for p in 1..=8 {
            let mut state = vec![BTreeMap::new(); p as usize];
            for key in &keys {
                let g = key_group_for(key, 32).unwrap();
                state[operator_index_for(g, p, 32).unwrap() as usize].insert(key.clone(), 1);
            }
            for q in 1..=8 {
                let out = rescale(state.clone(), q, 32).unwrap();
                assert_eq!(out.iter().map(BTreeMap::len).sum::<usize>(), keys.len());
                for (j, map) in (0u32..).zip(&out) {
                    let range = key_group_range(j, q, 32).unwrap();
                    assert!(
                        map.keys()
                            .all(|k| range.contains(&key_group_for(k, 32).unwrap()))
                    );
                }
            }
        }
    }
}
