//! Stage 02 mutants: keyed operators that leak, lose or forget state.

use graders::stage02::{Case, KeyedStateStage, Observation, drive};
use rstest::rstest;

use crate::rejects;

/// A keyed operator whose `process` is written by each mutant: the shared scaffolding
/// (constructors, snapshot, restore) is the reference's.
macro_rules! keyed_operator {
    ($(#[$doc:meta])* fn process($self:ident, $key:ident, $input:ident, $out:ident) $body:block) => {
        pub use solution02::*;
        use std::marker::PhantomData;

        pub struct KeyedProcessOperator<K, KeyFn, F: KeyedProcessFunction<K, In>, In> {
            key_fn: KeyFn,
            function: F,
            state: KeyedState<K, F::State>,
            // The one slot of the mutant that shares state across keys.
            #[allow(dead_code)]
            shared: Option<F::State>,
            input: PhantomData<fn(In)>,
        }
        impl<K, KeyFn, F, In> KeyedProcessOperator<K, KeyFn, F, In>
        where
            K: Ord + Clone + serde::Serialize + serde::de::DeserializeOwned,
            F: KeyedProcessFunction<K, In>,
            F::State: Clone + serde::Serialize + serde::de::DeserializeOwned,
        {
            pub fn new(key_fn: KeyFn, function: F) -> Self {
                Self { key_fn, function, state: KeyedState::new(), shared: None, input: PhantomData }
            }
            pub fn state(&self) -> &KeyedState<K, F::State> {
                &self.state
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                self.state.to_bytes()
            }
            pub fn restore(key_fn: KeyFn, function: F, bytes: &[u8]) -> anyhow::Result<Self> {
                let mut op = Self::new(key_fn, function);
                op.state = KeyedState::from_bytes(bytes)?;
                Ok(op)
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
            $(#[$doc])*
            fn process(&mut $self, $input: In, $out: &mut Vec<F::Out>) {
                let $key = ($self.key_fn)(&$input);
                $body
            }
        }
    };
}

/// **Mistake:** one state slot for the whole operator instead of one per key (the
/// function's state kept in a field, as in an unkeyed operator).
/// **Verdict:** `isolation` fails: the second key's first record sees the first key's values.
mod one_slot_for_all_keys {
    keyed_operator! {
        fn process(self, key, input, out) {
            self.function.process_element(&key, input, &mut self.shared, out);
            if let Some(value) = self.shared.clone() {
                self.state.put(key, value);
            }
        }
    }
}
graders::impl_stage02!(OneSlot, OneSlotSpy, one_slot_for_all_keys);

/// **Mistake:** the key's state is lent to the function but what it leaves is never
/// stored back (a copy was updated).
/// **Verdict:** `isolation` fails: a key's second record sees `None`.
mod state_never_stored {
    keyed_operator! {
        fn process(self, key, input, out) {
            let mut slot = self.state.get(&key).cloned();
            self.function.process_element(&key, input, &mut slot, out);
        }
    }
}
graders::impl_stage02!(NeverStored, NeverStoredSpy, state_never_stored);

/// **Mistake:** a state the function cleared (set to `None`) is left in place: only a
/// `Some` is ever written back.
/// **Verdict:** `final-state` fails: a key whose last record was a 0 still holds values.
mod cleared_state_kept {
    keyed_operator! {
        fn process(self, key, input, out) {
            let mut slot = self.state.get(&key).cloned();
            self.function.process_element(&key, input, &mut slot, out);
            if let Some(value) = slot {
                self.state.put(key, value);
            }
        }
    }
}
graders::impl_stage02!(ClearedKept, ClearedKeptSpy, cleared_state_kept);

/// **Mistake:** `restore` builds a fresh operator and ignores the bytes: the snapshot
/// is taken but nothing of it survives the crash.
/// **Verdict:** `crash` fails: after the restore, a key's next record sees `None`.
mod restore_forgets_state {
    pub use solution02::*;

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
            self.0.snapshot()
        }
        pub fn restore(key_fn: KeyFn, function: F, _bytes: &[u8]) -> anyhow::Result<Self> {
            Ok(Self::new(key_fn, function))
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
graders::impl_stage02!(ForgetsState, ForgetsStateSpy, restore_forgets_state);

/// **Mistake (the shortcut):** `word_count` groups the whole input first and emits each
/// word's final count at every occurrence: the batch answer, not a running count.
/// **Verdict:** `word-count` fails on the first word seen twice.
mod word_count_final_counts {
    pub use solution02::*;

    pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
        let words: Vec<&str> = lines.iter().flat_map(|l| l.split_whitespace()).collect();
        let mut totals = std::collections::BTreeMap::new();
        for word in &words {
            *totals.entry(*word).or_insert(0u64) += 1;
        }
        words.iter().map(|w| ((*w).to_owned(), totals[w])).collect()
    }
}
graders::impl_stage02!(FinalCounts, FinalCountsSpy, word_count_final_counts);

/// **Mistake:** `word_count` splits on single spaces, so two spaces in a row (or a
/// leading space) produce an empty "word", and a tab joins two words.
/// **Verdict:** `word-count` fails on a line with a double space.
mod word_count_splits_on_space {
    pub use solution02::*;

    pub fn word_count(lines: &[String]) -> Vec<(String, u64)> {
        let mut counts = std::collections::BTreeMap::new();
        let mut out = Vec::new();
        for word in lines.iter().flat_map(|l| l.split(' ')) {
            let count = counts.entry(word.to_owned()).or_insert(0u64);
            *count += 1;
            out.push((word.to_owned(), *count));
        }
        out
    }
}
graders::impl_stage02!(SplitsOnSpace, SplitsOnSpaceSpy, word_count_splits_on_space);

/// **Mistake:** `KeyedState::update` keeps the old value when the closure returns
/// `None`, so `update` can never delete.
/// **Verdict:** `keyed-state` fails: after `put(a, 1)` and a clearing update, `get(a)` is 1.
mod update_cannot_delete {
    pub use solution02::*;

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
            let current = self.0.get(&key).cloned();
            if let Some(next) = f(current) {
                self.0.put(key, next);
            }
        }
        pub fn remove(&mut self, key: &K) -> Option<V> {
            self.0.remove(key)
        }
        pub fn snapshot(&self) -> std::collections::BTreeMap<K, V> {
            self.0.snapshot()
        }
    }
}
graders::impl_stage02!(
    UpdateCannotDelete,
    UpdateCannotDeleteSpy,
    update_cannot_delete
);

/// Every mutant of this file and the check that must reject it (the mutant's doc
/// comment says why).
#[rstest]
#[case::one_slot_for_all_keys(drive::<OneSlot>, "isolation", "02-one-state-for-all-keys")]
#[case::state_never_stored(drive::<NeverStored>, "isolation", "02-state-is-updated-in-place")]
#[case::cleared_state_kept(drive::<ClearedKept>, "final-state", "02-none-means-no-change")]
#[case::restore_forgets_state(drive::<ForgetsState>, "crash", "02-restore-starts-afresh")]
#[case::word_count_final_counts(drive::<FinalCounts>, "word-count", "02-count-is-the-total")]
#[case::word_count_splits_on_space(drive::<SplitsOnSpace>, "word-count", "02-words-split-on-a-space")]
#[case::update_cannot_delete(drive::<UpdateCannotDelete>, "keyed-state", "02-none-means-no-change")]
fn is_rejected(#[case] drive: fn(&Case) -> Observation, #[case] check: &str, #[case] card: &str) {
    crate::cards::shows(&rejects::<KeyedStateStage>(drive, check), card);
}
