//! Stage 02 mutants of `KeyedState`: each misreads one sentence of the brief about `get`,
//! `put`, `update`, `remove`, `snapshot` or the bytes.

/// A `KeyedState` over a `BTreeMap` whose mutant writes `get`, `put`, `update`, `remove`
/// and `snapshot`; `new`, `to_bytes` and `from_bytes` are the reference's (and fill `log`,
/// the list of what was put, for the mutant that replays it). `V: Default + PartialEq`
/// lets a mutant take a default value for none, as a learner's added bound would; the
/// grader's values have both.
macro_rules! keyed_state {
    ($($methods:tt)*) => {
        pub use solution02::{KeyedProcessFunction, KeyedProcessOperator, Operator, word_count, WordCount};
        use std::collections::BTreeMap;

        pub struct KeyedState<K, V> {
            values: BTreeMap<K, V>,
            #[allow(dead_code)]
            log: Vec<(K, V)>,
        }
        impl<K: Ord + Clone, V: Clone + Default + PartialEq> KeyedState<K, V> {
            pub fn new() -> Self {
                Self { values: BTreeMap::new(), log: Vec::new() }
            }
            $($methods)*
        }
        impl<K, V> KeyedState<K, V>
        where
            K: Ord + Clone + serde::Serialize + serde::de::DeserializeOwned,
            V: Clone + serde::Serialize + serde::de::DeserializeOwned,
        {
            pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
                let pairs: Vec<(&K, &V)> = self.values.iter().collect();
                Ok(serde_json::to_vec(&pairs)?)
            }
            pub fn from_bytes(bytes: &[u8]) -> anyhow::Result<Self> {
                let pairs: Vec<(K, V)> = serde_json::from_slice(bytes)?;
                anyhow::ensure!(pairs.windows(2).all(|pair| pair[0].0 < pair[1].0));
                Ok(Self { values: pairs.iter().cloned().collect(), log: pairs })
            }
        }
    };
}

/// A `KeyedState` that is the reference's but for its bytes: the mutant writes `to_bytes`
/// and `from_bytes` (over `this`, the reference's state, and `bytes`).
macro_rules! keyed_codec {
    (
        fn to_bytes($this:ident) $to_bytes:block
        fn from_bytes($bytes:ident) $from_bytes:block
    ) => {
        pub use solution02::{
            KeyedProcessFunction, KeyedProcessOperator, Operator, WordCount, word_count,
        };
        use std::collections::BTreeMap;

        pub struct KeyedState<K, V>(solution02::KeyedState<K, V>);
        impl<K: Ord + Clone, V: Clone> KeyedState<K, V> {
            pub fn new() -> Self {
                Self(solution02::KeyedState::new())
            }
            pub fn get(&self, key: &K) -> Option<&V> {
                self.0.get(key)
            }
            pub fn put(&mut self, key: K, value: V) {
                self.0.put(key, value);
            }
            pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
                self.0.update(key, f);
            }
            pub fn remove(&mut self, key: &K) -> Option<V> {
                self.0.remove(key)
            }
            pub fn snapshot(&self) -> BTreeMap<K, V> {
                self.0.snapshot()
            }
        }
        impl<K, V> KeyedState<K, V>
        where
            K: Ord + Clone + serde::Serialize + serde::de::DeserializeOwned,
            V: Clone + serde::Serialize + serde::de::DeserializeOwned,
        {
            pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
                let $this = &self.0;
                $to_bytes
            }
            pub fn from_bytes($bytes: &[u8]) -> anyhow::Result<Self> {
                $from_bytes
            }
        }
    };
}

/// **Mistake:** `update` takes a value equal to its type's default for no value ("a zero
/// count is no count") and removes the key, as if `f` had returned `None`.
/// **Verdict:** `keyed-state` fails: after `update("a", |_| Some(0))`, `get("a")` is `None`.
pub mod update_drops_a_zero {
    keyed_state! {
        pub fn get(&self, key: &K) -> Option<&V> {
            self.values.get(key)
        }
        pub fn put(&mut self, key: K, value: V) {
            self.values.insert(key, value);
        }
        pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
            let current = self.values.remove(&key);
            if let Some(next) = f(current).filter(|next| *next != V::default()) {
                self.values.insert(key, next);
            }
        }
        pub fn remove(&mut self, key: &K) -> Option<V> {
            self.values.remove(key)
        }
        pub fn snapshot(&self) -> BTreeMap<K, V> {
            self.values.clone()
        }
    }
}

/// **Mistake:** `get` looks the key up with `range(key..)`, the first entry at or after
/// the key, which is the key's own entry when it has one (and another key's when not).
/// **Verdict:** `keyed-state` fails: after `put("b", 3)`, `get("a")` is `Some(3)`.
pub mod get_by_range {
    keyed_state! {
        pub fn get(&self, key: &K) -> Option<&V> {
            self.values.range(key.clone()..).next().map(|(_, v)| v)
        }
        pub fn put(&mut self, key: K, value: V) {
            self.values.insert(key, value);
        }
        pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
            let current = self.values.remove(&key);
            if let Some(next) = f(current) {
                self.values.insert(key, next);
            }
        }
        pub fn remove(&mut self, key: &K) -> Option<V> {
            self.values.remove(key)
        }
        pub fn snapshot(&self) -> BTreeMap<K, V> {
            self.values.clone()
        }
    }
}

/// **Mistake:** `put` inserts only a key that has no value yet (`entry().or_insert`), as
/// if a key's first value were its value for good.
/// **Verdict:** `keyed-state` fails: after `put("a", 1), put("a", 2)`, `get("a")` is 1.
pub mod put_keeps_the_first {
    keyed_state! {
        pub fn get(&self, key: &K) -> Option<&V> {
            self.values.get(key)
        }
        pub fn put(&mut self, key: K, value: V) {
            self.values.entry(key).or_insert(value);
        }
        pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
            let current = self.values.remove(&key);
            if let Some(next) = f(current) {
                self.values.insert(key, next);
            }
        }
        pub fn remove(&mut self, key: &K) -> Option<V> {
            self.values.remove(key)
        }
        pub fn snapshot(&self) -> BTreeMap<K, V> {
            self.values.clone()
        }
    }
}

/// **Mistake:** `update` calls its closure only for a key that has a value ("update
/// changes a value; there is nothing to change"), so it can never insert.
/// **Verdict:** `keyed-state` fails: `update("b", |v| Some(v.map_or(10, ..)))` on an
/// empty state never calls the closure, and `b` stays missing.
pub mod update_skips_missing_keys {
    keyed_state! {
        pub fn get(&self, key: &K) -> Option<&V> {
            self.values.get(key)
        }
        pub fn put(&mut self, key: K, value: V) {
            self.values.insert(key, value);
        }
        pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
            if let Some(current) = self.values.remove(&key)
                && let Some(next) = f(Some(current))
            {
                self.values.insert(key, next);
            }
        }
        pub fn remove(&mut self, key: &K) -> Option<V> {
            self.values.remove(key)
        }
        pub fn snapshot(&self) -> BTreeMap<K, V> {
            self.values.clone()
        }
    }
}

/// **Mistake:** `update` keeps the old value when the closure returns `None`, so `update`
/// can never delete.
/// **Verdict:** `keyed-state` fails: after `put("a", 1)` and `update("a", |_| None)`,
/// `get("a")` is 1.
pub mod update_cannot_delete {
    keyed_state! {
        pub fn get(&self, key: &K) -> Option<&V> {
            self.values.get(key)
        }
        pub fn put(&mut self, key: K, value: V) {
            self.values.insert(key, value);
        }
        pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
            let current = self.values.get(&key).cloned();
            if let Some(next) = f(current) {
                self.values.insert(key, next);
            }
        }
        pub fn remove(&mut self, key: &K) -> Option<V> {
            self.values.remove(key)
        }
        pub fn snapshot(&self) -> BTreeMap<K, V> {
            self.values.clone()
        }
    }
}

/// **Mistake:** `remove` removes the key, then returns what `get` finds, which is
/// nothing any more: the value it had is lost.
/// **Verdict:** `keyed-state` fails: after `put("a", 1)`, `remove("a")` returns `None`.
pub mod remove_returns_nothing {
    keyed_state! {
        pub fn get(&self, key: &K) -> Option<&V> {
            self.values.get(key)
        }
        pub fn put(&mut self, key: K, value: V) {
            self.values.insert(key, value);
        }
        pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
            let current = self.values.remove(&key);
            if let Some(next) = f(current) {
                self.values.insert(key, next);
            }
        }
        pub fn remove(&mut self, key: &K) -> Option<V> {
            self.values.remove(key);
            self.values.get(key).cloned()
        }
        pub fn snapshot(&self) -> BTreeMap<K, V> {
            self.values.clone()
        }
    }
}

/// **Mistake:** `snapshot` replays a log of what was put and updated, and the log has no
/// entry for a deletion: a removed key comes back in the snapshot.
/// **Verdict:** `keyed-state` fails: after `put("a", 1), remove("a")`, `get` is right
/// but `snapshot()` still holds `a`.
pub mod snapshot_replays_puts {
    keyed_state! {
        pub fn get(&self, key: &K) -> Option<&V> {
            self.values.get(key)
        }
        pub fn put(&mut self, key: K, value: V) {
            self.log.push((key.clone(), value.clone()));
            self.values.insert(key, value);
        }
        pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
            let current = self.values.remove(&key);
            if let Some(next) = f(current) {
                self.log.push((key.clone(), next.clone()));
                self.values.insert(key, next);
            }
        }
        pub fn remove(&mut self, key: &K) -> Option<V> {
            self.values.remove(key)
        }
        pub fn snapshot(&self) -> BTreeMap<K, V> {
            self.log.iter().cloned().collect()
        }
    }
}

/// **Mistake:** `to_bytes` writes the map as a JSON object (`serde_json::to_vec(&map)`),
/// which works for text keys only: JSON object keys must be strings.
/// **Verdict:** `bytes` fails: a state with `Vec<u8>` keys cannot be written.
pub mod to_bytes_as_an_object {
    keyed_codec! {
        fn to_bytes(this) { Ok(serde_json::to_vec(&this.snapshot())?) }
        fn from_bytes(bytes) {
            let map: BTreeMap<K, V> = serde_json::from_slice(bytes)?;
            let mut state = Self::new();
            for (key, value) in map {
                state.put(key, value);
            }
            Ok(state)
        }
    }
}
