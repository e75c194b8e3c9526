//! Stage 02 controls: correct solutions that differ from the reference where the brief
//! leaves a choice (the snapshot's format and its error, the state's representation,
//! how words are found), which every check must accept.

/// A correct operator whose snapshot is its own format (a header line, then the state),
/// and whose `restore` refuses anything without the header, with its own message.
pub mod hand_rolled_snapshot {
    pub use solution02::{KeyedProcessFunction, KeyedState, Operator, WordCount, word_count};

    const HEADER: &[u8] = b"keyed-state v1\n";

    pub struct KeyedProcessOperator<K, KeyFn, F: KeyedProcessFunction<K, In>, In>(
        solution02::KeyedProcessOperator<K, KeyFn, F, In>,
    );
    impl<K, KeyFn, F, In> KeyedProcessOperator<K, KeyFn, F, In>
    where
        K: Ord + Clone + serde::Serialize + serde::de::DeserializeOwned,
        KeyFn: FnMut(&In) -> K,
        F: KeyedProcessFunction<K, In>,
        F::State: Clone + serde::Serialize + serde::de::DeserializeOwned,
    {
        pub fn new(key_fn: KeyFn, function: F) -> Self {
            Self(solution02::KeyedProcessOperator::new(key_fn, function))
        }
        pub fn state(&self) -> &KeyedState<K, F::State> {
            self.0.state()
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            let mut bytes = HEADER.to_vec();
            bytes.extend(self.0.state().to_bytes()?);
            Ok(bytes)
        }
        pub fn restore(key_fn: KeyFn, function: F, bytes: &[u8]) -> anyhow::Result<Self> {
            let Some(body) = bytes.strip_prefix(HEADER) else {
                anyhow::bail!("these {} bytes lack the keyed-state header", bytes.len());
            };
            let state = KeyedState::from_bytes(body)?;
            Ok(Self(solution02::KeyedProcessOperator::with_state(
                key_fn, function, state,
            )))
        }
    }
    impl<K, KeyFn, F, In> Operator<In> for KeyedProcessOperator<K, KeyFn, F, In>
    where
        K: Ord + Clone,
        KeyFn: FnMut(&In) -> K,
        F: KeyedProcessFunction<K, In>,
        F::State: Clone,
    {
        type Out = F::Out;
        fn process(&mut self, input: In, out: &mut Vec<F::Out>) {
            self.0.process(input, out);
        }
    }
}

/// A correct `KeyedState` over a sorted `Vec` of pairs, searched by bisection, with a
/// `from_bytes` of its own that refuses unsorted or repeated keys.
pub mod vec_backed_state {
    pub use solution02::{
        KeyedProcessFunction, KeyedProcessOperator, Operator, WordCount, word_count,
    };
    use std::collections::BTreeMap;

    pub struct KeyedState<K, V>(Vec<(K, V)>);
    impl<K: Ord + Clone, V: Clone> KeyedState<K, V> {
        pub fn new() -> Self {
            Self(Vec::new())
        }
        fn find(&self, key: &K) -> Result<usize, usize> {
            self.0.binary_search_by(|(k, _)| k.cmp(key))
        }
        pub fn get(&self, key: &K) -> Option<&V> {
            self.find(key).ok().map(|i| &self.0[i].1)
        }
        pub fn put(&mut self, key: K, value: V) {
            match self.find(&key) {
                Ok(i) => self.0[i].1 = value,
                Err(i) => self.0.insert(i, (key, value)),
            }
        }
        pub fn update(&mut self, key: K, f: impl FnOnce(Option<V>) -> Option<V>) {
            let current = self.remove(&key);
            if let Some(next) = f(current) {
                self.put(key, next);
            }
        }
        pub fn remove(&mut self, key: &K) -> Option<V> {
            self.find(key).ok().map(|i| self.0.remove(i).1)
        }
        pub fn snapshot(&self) -> BTreeMap<K, V> {
            self.0.iter().cloned().collect()
        }
    }
    impl<K, V> KeyedState<K, V>
    where
        K: Ord + Clone + serde::Serialize + serde::de::DeserializeOwned,
        V: Clone + serde::Serialize + serde::de::DeserializeOwned,
    {
        pub fn to_bytes(&self) -> anyhow::Result<Vec<u8>> {
            Ok(serde_json::to_vec(&self.0)?)
        }
        pub fn from_bytes(bytes: &[u8]) -> anyhow::Result<Self> {
            let pairs: Vec<(K, V)> = serde_json::from_slice(bytes)?;
            anyhow::ensure!(
                pairs.windows(2).all(|w| w[0].0 < w[1].0),
                "a keyed-state snapshot lists its keys sorted, once each"
            );
            Ok(Self(pairs))
        }
    }
}
