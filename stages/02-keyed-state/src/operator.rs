//! The keyed operator: extracts the key, lends the function that key's state.

use std::marker::PhantomData;

use anyhow::Result;
use serde::{Serialize, de::DeserializeOwned};
use stage01::Operator;

use crate::{KeyedProcessFunction, KeyedState};

/// Runs a [`KeyedProcessFunction`] with one state per key, as an [`Operator`].
///
/// The input record type `In` is a type parameter of the operator itself: the stored state
/// type `F::State` is named through the function's `KeyedProcessFunction<K, In>` impl,
/// which needs `In`. Type inference fills it in.
pub struct KeyedProcessOperator<K, KeyFn, F, In>
where
    F: KeyedProcessFunction<K, In>,
{
    key_fn: KeyFn,
    function: F,
    state: KeyedState<K, F::State>,
    input: PhantomData<fn(In)>,
}

impl<K, KeyFn, F, In> KeyedProcessOperator<K, KeyFn, F, In>
where
    K: Ord + Clone,
    KeyFn: FnMut(&In) -> K,
    F: KeyedProcessFunction<K, In>,
    F::State: Clone,
{
    /// An operator with empty state.
    pub fn new(key_fn: KeyFn, function: F) -> Self {
        Self::with_state(key_fn, function, KeyedState::new())
    }

    /// An operator that continues from `state`.
    pub fn with_state(key_fn: KeyFn, function: F, state: KeyedState<K, F::State>) -> Self {
        Self {
            key_fn,
            function,
            state,
            input: PhantomData,
        }
    }

    /// The operator's keyed state.
    pub fn state(&self) -> &KeyedState<K, F::State> {
        &self.state
    }
}

impl<K, KeyFn, F, In> KeyedProcessOperator<K, KeyFn, F, In>
where
    K: Ord + Clone + Serialize + DeserializeOwned,
    KeyFn: FnMut(&In) -> K,
    F: KeyedProcessFunction<K, In>,
    F::State: Clone + Serialize + DeserializeOwned,
{
    /// The keyed state as bytes: everything this operator needs to resume (02-R15).
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        // TODO(stage 02): the keyed state as bytes (`KeyedState::to_bytes` does it).
        todo!()
    }

    /// An operator that resumes from a [`snapshot`](Self::snapshot).
    ///
    /// # Errors
    /// When no `snapshot` wrote `bytes`: an error, never a panic (02-R10).
    pub fn restore(key_fn: KeyFn, function: F, bytes: &[u8]) -> Result<Self> {
        // TODO(stage 02): an operator whose state is the one the bytes hold.
        let _ = (key_fn, function, bytes);
        todo!()
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
        // TODO(stage 02): extract the key, lend the function that key's state (and only
        // that), then store back whatever the function left: `None` means "cleared".
        let _ = (input, out, &mut self.key_fn, &mut self.function);
        todo!()
    }
}
