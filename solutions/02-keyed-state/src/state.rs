//! Per-key state: a sorted map from key to that key's value.

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use serde::{Serialize, de::DeserializeOwned};

/// The state of a keyed operator: one value per key that has one.
///
/// A `BTreeMap` rather than a `HashMap` so that snapshots, and anything else that walks
/// the keys, come out in the same order on every run.
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

    /// The value of `key`, if it has one.
    pub fn get(&self, key: &K) -> Option<&V> {
        self.values.get(key)
    }

    /// Sets the value of `key`, replacing any earlier one.
    pub fn put(&mut self, key: K, value: V) {
        self.values.insert(key, value);
    }

    /// Replaces the value of `key` by `f(current)`; `None` from `f` removes the key.
    pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
        let current = self.values.remove(&key);
        if let Some(next) = f(current) {
            self.values.insert(key, next);
        }
    }

    /// Removes `key`, returning the value it had.
    pub fn remove(&mut self, key: &K) -> Option<V> {
        self.values.remove(key)
    }

    /// The number of keys that have a value.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no key has a value.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// A copy of every key's value, in key order.
    pub fn snapshot(&self) -> BTreeMap<K, V> {
        self.values.clone()
    }
}

impl<K: Ord + Serialize + DeserializeOwned, V: Serialize + DeserializeOwned> KeyedState<K, V> {
    /// The state as bytes (JSON of a list of `[key, value]` pairs, since JSON object
    /// keys must be strings and a key need not be one).
    ///
    /// # Errors
    /// When a key or value cannot be serialised.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let pairs: Vec<(&K, &V)> = self.values.iter().collect();
        serde_json::to_vec(&pairs).context("serialising keyed state")
    }

    /// The state that [`KeyedState::to_bytes`] wrote.
    ///
    /// # Errors
    /// When `bytes` is not a keyed-state snapshot of this key and value type.
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

#[cfg(test)]
mod tests {
    use super::KeyedState;

    #[test]
    fn from_bytes_reads_only_what_to_bytes_writes() {
        let mut state = KeyedState::new();
        state.put("a".to_owned(), 1_u64);
        state.put("b".to_owned(), 2);
        let bytes = state.to_bytes().unwrap();
        assert_eq!(
            KeyedState::<String, u64>::from_bytes(&bytes).unwrap(),
            state
        );
        for bad in [&br#"[["a",1],["a",2]]"#[..], br#"[["b",2],["a",1]]"#] {
            assert!(KeyedState::<String, u64>::from_bytes(bad).is_err());
        }
    }
}
