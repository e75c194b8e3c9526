//! Stage 02 mutants of `KeyedProcessOperator`: state shared, never stored or never
//! cleared, the wrong key handed over, `out` replaced, and snapshots and restores that
//! lose state or trust their bytes.

/// A keyed operator whose `process` (and, optionally, `snapshot` and `restore`) each
/// mutant writes; the rest is the reference's. Its fields serve the mutants: `shared`
/// is one slot for all keys, `last_key` a remembered key, `dirty` the keys changed since
/// the operator was built.
macro_rules! keyed_operator {
    ($(#[$doc:meta])* fn process($self:ident, $key:ident, $input:ident, $out:ident) $body:block) => {
        keyed_operator! {
            $(#[$doc])* fn process($self, $key, $input, $out) $body
            fn snapshot(this) { this.state.to_bytes() }
            fn restore(key_fn, function, bytes) {
                let mut op = Self::new(key_fn, function);
                op.state = KeyedState::from_bytes(bytes)?;
                Ok(op)
            }
        }
    };
    ($(#[$doc:meta])* fn process($self:ident, $key:ident, $input:ident, $out:ident) $body:block
     fn snapshot($this:ident) $snapshot:block
     fn restore($key_fn:ident, $function:ident, $bytes:ident) $restore:block) => {
        pub use solution02::*;
        use std::marker::PhantomData;

        pub struct KeyedProcessOperator<K, KeyFn, F: KeyedProcessFunction<K, In>, In> {
            key_fn: KeyFn,
            function: F,
            state: KeyedState<K, F::State>,
            #[allow(dead_code)]
            shared: Option<F::State>,
            #[allow(dead_code)]
            last_key: Option<K>,
            #[allow(dead_code)]
            dirty: Vec<K>,
            /// A snapshot's bytes kept, with the number of keys it held (read by the
            /// memoising mutants only).
            #[allow(dead_code)]
            cache: std::cell::RefCell<Option<(usize, Vec<u8>)>>,
            input: PhantomData<fn(In)>,
        }
        impl<K, KeyFn, F, In> KeyedProcessOperator<K, KeyFn, F, In>
        where
            K: Ord + Clone + serde::Serialize + serde::de::DeserializeOwned,
            F: KeyedProcessFunction<K, In>,
            F::State: Clone + serde::Serialize + serde::de::DeserializeOwned,
        {
            pub fn new(key_fn: KeyFn, function: F) -> Self {
                Self {
                    key_fn,
                    function,
                    state: KeyedState::new(),
                    shared: None,
                    last_key: None,
                    dirty: Vec::new(),
                    cache: std::cell::RefCell::new(None),
                    input: PhantomData,
                }
            }
            pub fn state(&self) -> &KeyedState<K, F::State> {
                &self.state
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                let $this = self;
                $snapshot
            }
            pub fn restore($key_fn: KeyFn, $function: F, $bytes: &[u8]) -> anyhow::Result<Self> {
                $restore
            }
        }
        // `Default + PartialEq` lets a mutant take a default state for none, as a learner's
        // added bound would; the grader's states have both.
        impl<K, KeyFn, F, In> Operator<In> for KeyedProcessOperator<K, KeyFn, F, In>
        where
            K: Ord + Clone,
            KeyFn: FnMut(&In) -> K,
            F: KeyedProcessFunction<K, In>,
            F::State: Clone + Default + PartialEq,
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

/// The reference's loan: take the key's slot out, lend it, put back what is left.
macro_rules! lend {
    ($self:ident, $key:ident, $input:ident, $out:ident) => {{
        let mut slot = $self.state.remove(&$key);
        $self
            .function
            .process_element(&$key, $input, &mut slot, $out);
        if let Some(value) = slot {
            $self.state.put($key, value);
        }
    }};
}

/// **Mistake:** one state slot for the whole operator instead of one per key (the
/// function's state kept in a field, as in an unkeyed operator).
/// **Verdict:** `isolation` fails: the second key's first record sees the first key's values.
pub mod one_slot_for_all_keys {
    keyed_operator! {
        fn process(self, key, input, out) {
            self.function.process_element(&key, input, &mut self.shared, out);
            match self.shared.clone() {
                Some(value) => self.state.put(key, value),
                None => {
                    self.state.remove(&key);
                }
            }
        }
    }
}

/// **Mistake:** the key's state is lent to the function but what it leaves is never
/// stored back (a copy was updated).
/// **Verdict:** `isolation` fails: a key's second record sees `None`.
pub mod state_never_stored {
    keyed_operator! {
        fn process(self, key, input, out) {
            let mut slot = self.state.get(&key).cloned();
            self.function.process_element(&key, input, &mut slot, out);
        }
    }
}

/// **Mistake:** a state the function cleared (set to `None`) is left in place: only a
/// `Some` is ever written back.
/// **Verdict:** `final-state` fails: a key whose last record was a 0 still holds values.
pub mod cleared_state_kept {
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

/// **Mistake:** a state equal to its type's default (an empty list, a zero) is not put
/// back ("an empty state is no state"), so the key is gone and its next record is lent
/// `None`, though only `None` deletes.
/// **Verdict:** `contract` fails: after `process(("a", 9))`, whose spy leaves
/// `Some(vec![])`, `state()` lacks `a`.
pub mod empty_state_dropped {
    keyed_operator! {
        fn process(self, key, input, out) {
            let mut slot = self.state.remove(&key);
            self.function.process_element(&key, input, &mut slot, out);
            if let Some(value) = slot.filter(|value| *value != Default::default()) {
                self.state.put(key, value);
            }
        }
    }
}

/// **Mistake:** the key is kept in a field for the function, and the field is set after
/// the call instead of before: the state is the right key's, but the function is handed
/// the key of the record before.
/// **Verdict:** `isolation` fails: the second key's first record is handed the first key.
pub mod key_from_the_last_record {
    keyed_operator! {
        fn process(self, key, input, out) {
            let handed = self.last_key.clone().unwrap_or_else(|| key.clone());
            let mut slot = self.state.remove(&key);
            self.function.process_element(&handed, input, &mut slot, out);
            if let Some(value) = slot {
                self.state.put(key.clone(), value);
            }
            self.last_key = Some(key);
        }
    }
}

/// **Mistake:** `process` hands the function a fresh `out` and then replaces the
/// caller's `out` by it ("`out` is mine to fill"), which goes unseen while every caller
/// passes an empty one.
/// **Verdict:** `contract` fails: the record `out` held before the call is gone.
pub mod out_replaced {
    keyed_operator! {
        fn process(self, key, input, out) {
            let mut mine = Vec::new();
            let mut slot = self.state.remove(&key);
            self.function.process_element(&key, input, &mut slot, &mut mine);
            if let Some(value) = slot {
                self.state.put(key, value);
            }
            *out = mine;
        }
    }
}

/// **Mistake:** `restore` unwraps what `from_bytes` returns ("it is only ever handed its
/// own snapshot").
/// **Verdict:** `contract` fails: restoring bytes that are not a snapshot panics.
pub mod restore_unwraps {
    keyed_operator! {
        fn process(self, key, input, out) {
            lend!(self, key, input, out)
        }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(bytes).expect("a snapshot");
            Ok(op)
        }
    }
}

/// **Mistake:** `restore` falls back to an empty state when the bytes do not parse
/// ("a fresh start is better than none"), so garbage restores silently.
/// **Verdict:** `contract` fails: `restore` of bytes that are not a snapshot succeeds.
pub mod restore_defaults_to_empty {
    keyed_operator! {
        fn process(self, key, input, out) {
            lend!(self, key, input, out)
        }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(bytes).unwrap_or_default();
            Ok(op)
        }
    }
}

/// **Mistake:** a snapshot holds only the keys changed since the operator was built (to
/// keep snapshots small), as if the last snapshot were still there to build on.
/// **Verdict:** `contract` fails: after `process(("a", 1))` and two restores in a row,
/// `a`'s state is gone.
pub mod snapshot_of_changes_only {
    keyed_operator! {
        fn process(self, key, input, out) {
            if !self.dirty.contains(&key) {
                self.dirty.push(key.clone());
            }
            lend!(self, key, input, out)
        }
        fn snapshot(this) {
            let mut changed = KeyedState::new();
            for key in &this.dirty {
                if let Some(value) = this.state.get(key) {
                    changed.put(key.clone(), value.clone());
                }
            }
            changed.to_bytes()
        }
        fn restore(key_fn, function, bytes) {
            let mut op = Self::new(key_fn, function);
            op.state = KeyedState::from_bytes(bytes)?;
            Ok(op)
        }
    }
}

/// **Mistake:** `restore` builds a fresh operator and ignores the bytes: the snapshot
/// is taken but nothing of it survives the crash.
/// **Verdict:** `crash` fails: after the restore, a key's next record sees `None`.
pub mod restore_forgets_state {
    keyed_operator! {
        fn process(self, key, input, out) {
            lend!(self, key, input, out)
        }
        fn snapshot(this) { this.state.to_bytes() }
        fn restore(key_fn, function, _bytes) {
            Ok(Self::new(key_fn, function))
        }
    }
}
