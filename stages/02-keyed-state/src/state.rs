//! Per-key state: a sorted map from key to that key's value.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use serde::{Serialize, de::DeserializeOwned};

/// The state of a keyed operator: one value per key that has one.
///
/// It is a `BTreeMap`, sorted by key, so that anything observable of it is deterministic
/// (see the brief's *Task* and *Constraints*).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedState<K, V> {
    values: BTreeMap<K, V>,
}

impl<K: Ord, V> Default for KeyedState<K, V> {
    fn default() -> Self {
        Self {
            values: BTreeMap::new(),
        }
    }
}

impl<K: Ord + Clone, V: Clone> KeyedState<K, V> {
    /// An empty state.
    pub fn new() -> Self {
        Self::default()
    }

    /// The value of `key`, if it has one (02-R1).
    pub fn get(&self, key: &K) -> Option<&V> {
        // TODO(stage 02): look the key up.
        let _ = (key, &self.values);
        todo!()
    }

    /// Sets the value of `key`, replacing any earlier one (02-R2).
    pub fn put(&mut self, key: K, value: V) {
        // TODO(stage 02): insert or replace.
        let _ = (key, value);
        todo!()
    }

    /// Replaces the value of `key` by `f(current)` (02-R3); `None` from `f` removes the key
    /// (02-R4).
    pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
        // TODO(stage 02): hand `f` the current value (if any); store what it returns,
        // or remove the key when it returns `None`.
        let _ = (key, f);
        todo!()
    }

    /// Removes `key`, returning the value it had (02-R5).
    pub fn remove(&mut self, key: &K) -> Option<V> {
        // TODO(stage 02): remove the key.
        let _ = key;
        todo!()
    }

    /// The number of keys that have a value.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no key has a value.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// A copy of every key's value, in key order (02-R6).
    pub fn snapshot(&self) -> BTreeMap<K, V> {
        // TODO(stage 02): a copy of the whole map.
        todo!()
    }
}

impl<K: Ord + Serialize + DeserializeOwned, V: Serialize + DeserializeOwned> KeyedState<K, V> {
    /// The state as bytes: JSON of a list of `[key, value]` pairs rather than an object,
    /// since a JSON object's keys are strings and a key here need not be one.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let pairs: Vec<(&K, &V)> = self.values.iter().collect();
        serde_json::to_vec(&pairs).context("serialising keyed state")
    }

    /// The state that [`KeyedState::to_bytes`] wrote (02-R7).
    ///
    /// # Errors
    /// When no `to_bytes` wrote `bytes`: an error, never a panic (02-R10).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let pairs: Vec<(K, V)> =
            serde_json::from_slice(bytes).context("restoring keyed state: not a snapshot")?;
        // `to_bytes` lists the keys of a map: each once, in order. A key twice would
        // lose one of its values silently.
        anyhow::ensure!(
            pairs.windows(2).all(|pair| pair[0].0 < pair[1].0),
            "restoring keyed state: not a snapshot (its keys are repeated or out of order)"
        );
        Ok(Self {
            values: pairs.into_iter().collect(),
        })
    }
}
