//! One parallel instance of a keyed operator: its key groups and their keys' state.

use std::ops::RangeInclusive;

use anyhow::{Context, Result, bail};
use serde::{Serialize, de::DeserializeOwned};
use stage02::KeyedState;

use crate::{key_group_for, key_group_range};

/// The state a subtask holds: for every key of the key groups it owns, that key's value.
///
/// A subtask refuses a key outside its key groups: accepting it would create state that
/// no rescale could find, since every rescale looks a key up by its key group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedSubtask<V> {
    index: u32,
    parallelism: u32,
    max_parallelism: u32,
    state: KeyedState<Vec<u8>, V>,
}

impl<V: Clone + Serialize + DeserializeOwned> KeyedSubtask<V> {
    /// Subtask `index` of `parallelism`, with no state yet.
    ///
    /// # Errors
    /// When the configuration is invalid or `index` is not below `parallelism`.
    pub fn new(index: u32, parallelism: u32, max_parallelism: u32) -> Result<Self> {
        // Validates every argument at once, so a bad subtask is never built.
        key_group_range(index, parallelism, max_parallelism)?;
        Ok(Self {
            index,
            parallelism,
            max_parallelism,
            state: KeyedState::new(),
        })
    }

    /// This subtask's index in `0..parallelism`.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The key groups this subtask owns.
    pub fn key_groups(&self) -> RangeInclusive<u32> {
        key_group_range(self.index, self.parallelism, self.max_parallelism)
            .expect("validated when the subtask was built")
    }

    /// Replaces the value of `key` by `f(current)`; `None` removes it.
    ///
    /// # Errors
    /// When `key`'s key group is not one of this subtask's: the record was misrouted.
    pub fn update(&mut self, key: &[u8], f: impl FnOnce(Option<V>) -> Option<V>) -> Result<()> {
        let group = key_group_for(key, self.max_parallelism)?;
        if !self.key_groups().contains(&group) {
            bail!(
                "key {key:?} has key group {group}, which subtask {} of {} does not own ({:?})",
                self.index,
                self.parallelism,
                self.key_groups()
            );
        }
        self.state.update(key.to_vec(), f);
        Ok(())
    }

    /// The state of every key this subtask holds.
    pub fn state(&self) -> &KeyedState<Vec<u8>, V> {
        &self.state
    }

    /// The keyed state as bytes. The subtask's index and parallelism are not part of it:
    /// after a rescale the same bytes feed a subtask of another parallelism.
    ///
    /// # Errors
    /// When a value cannot be serialised.
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        self.state.to_bytes()
    }

    /// Subtask `index` of `parallelism`, restored from the snapshots of old subtasks
    /// (of any earlier parallelism): it keeps exactly the keys whose key group it owns.
    ///
    /// Pass the snapshots of the old subtasks listed by [`parents`](crate::parents); the
    /// others hold none of this subtask's keys, so passing them too changes nothing.
    ///
    /// # Errors
    /// When the configuration is invalid, a snapshot is not one of keyed state with
    /// values of type `V`, or one key appears in two snapshots (its state would no longer
    /// be exactly once).
    pub fn restore(
        index: u32,
        parallelism: u32,
        max_parallelism: u32,
        snapshots: &[Vec<u8>],
    ) -> Result<Self> {
        let mut subtask = Self::new(index, parallelism, max_parallelism)?;
        let owned = subtask.key_groups();
        for (n, bytes) in snapshots.iter().enumerate() {
            let old: KeyedState<Vec<u8>, V> = KeyedState::from_bytes(bytes)
                .with_context(|| format!("restoring subtask {index} from snapshot {n}"))?;
            for (key, value) in old.snapshot() {
                if !owned.contains(&key_group_for(&key, max_parallelism)?) {
                    continue;
                }
                if subtask.state.get(&key).is_some() {
                    bail!("key {key:?} appears in two snapshots; its state would be doubled");
                }
                subtask.state.put(key, value);
            }
        }
        Ok(subtask)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::{parallel_count, parents, partition};

    /// Crash after `k` keys at parallelism `p`, restore at `q`, continue: same counts.
    #[test]
    fn restore_at_any_parallelism_continues_the_count() {
        let keys: Vec<Vec<u8>> = b"abcabdaeefab".iter().map(|&b| vec![b]).collect();
        let maxp = 8;
        let expected: BTreeMap<Vec<u8>, u64> = parallel_count(&keys, 1, maxp).unwrap().remove(0);
        for p in 1..=4 {
            for q in 1..=4 {
                for k in 0..=keys.len() {
                    let snapshots: Vec<Vec<u8>> = partition(&keys[..k], |x| x, p, maxp)
                        .unwrap()
                        .iter()
                        .zip(0..)
                        .map(|(stream, i)| {
                            let mut s = KeyedSubtask::<u64>::new(i, p, maxp).unwrap();
                            for key in stream {
                                s.update(key, |c| Some(c.unwrap_or(0) + 1)).unwrap();
                            }
                            s.snapshot().unwrap()
                        })
                        .collect();
                    let mut merged = BTreeMap::new();
                    for (j, stream) in (0..q).zip(partition(&keys[k..], |x| x, q, maxp).unwrap()) {
                        let mine: Vec<Vec<u8>> = parents(j, p, q, maxp)
                            .unwrap()
                            .into_iter()
                            .map(|i| snapshots[i as usize].clone())
                            .collect();
                        let mut s = KeyedSubtask::<u64>::restore(j, q, maxp, &mine).unwrap();
                        for key in &stream {
                            s.update(key, |c| Some(c.unwrap_or(0) + 1)).unwrap();
                        }
                        merged.extend(s.state().snapshot());
                    }
                    assert_eq!(merged, expected, "p={p} q={q} k={k}");
                }
            }
        }
    }
}
