//! How a driver reaches a stage-02 implementation: a small trait, a spy function, and
//! the macro that implements both inside the implementation's own crate.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::state_ops::{StateOp, StateReturned};

/// The state the spy function keeps per key: the values of its key, in arrival order.
pub type SpyState = Vec<u32>;

/// What the spy function saw for one record.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SpyEvent {
    /// The key the operator handed the function.
    pub key: String,
    /// The record's value.
    pub value: u32,
    /// The state the operator lent the function for that key.
    pub seen: Option<SpyState>,
}

/// The surface of stage 02 that the driver calls. Implemented by `impl_stage02!`.
pub trait Implementation {
    /// The implementation's `KeyedState<String, u32>`.
    type State;
    /// The implementation's `KeyedProcessOperator` running the spy function.
    type Operator;

    /// `KeyedState::new()`.
    fn state_new() -> Self::State;
    /// Applies one operation with `put`, `update` or `remove`: what it returned (and, for
    /// `update`, what the closure was handed).
    fn state_apply(state: &mut Self::State, op: &StateOp) -> StateReturned;
    /// `get(key).copied()`.
    fn state_get(state: &Self::State, key: &str) -> Option<u32>;
    /// `snapshot()`.
    fn state_snapshot(state: &Self::State) -> BTreeMap<String, u32>;
    /// A `KeyedState<String, u32>` of `pairs` (by `put`), through `to_bytes` and
    /// `from_bytes`, then `snapshot()`.
    ///
    /// # Errors
    /// Whatever `to_bytes` or `from_bytes` returns, as its message.
    fn text_round_trip(pairs: &[(String, u32)]) -> Result<BTreeMap<String, u32>, String>;
    /// The same with `Vec<u8>` keys.
    ///
    /// # Errors
    /// Whatever `to_bytes` or `from_bytes` returns, as its message.
    fn binary_round_trip(pairs: &[(Vec<u8>, u32)]) -> Result<BTreeMap<Vec<u8>, u32>, String>;
    /// `KeyedState::<String, u32>::from_bytes(bytes)`, then `snapshot()`.
    ///
    /// # Errors
    /// Whatever `from_bytes` returns, as its message.
    fn state_from_bytes(bytes: &[u8]) -> Result<BTreeMap<String, u32>, String>;

    /// `KeyedProcessOperator::new(key_of, Spy)`.
    fn operator() -> Self::Operator;
    /// `Operator::process` of one record; what the spy emitted.
    fn process(operator: &mut Self::Operator, record: (String, u32)) -> Vec<SpyEvent> {
        Self::process_into(operator, record, Vec::new())
    }
    /// `Operator::process` of one record into `out`, which already holds records; `out`
    /// afterwards.
    fn process_into(
        operator: &mut Self::Operator,
        record: (String, u32),
        out: Vec<SpyEvent>,
    ) -> Vec<SpyEvent>;
    /// `operator.state().snapshot()`.
    fn keyed_state(operator: &Self::Operator) -> BTreeMap<String, SpyState>;
    /// `operator.snapshot()`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn snapshot(operator: &Self::Operator) -> anyhow::Result<Vec<u8>>;
    /// `KeyedProcessOperator::restore(key_of, Spy, bytes)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn restore(bytes: &[u8]) -> anyhow::Result<Self::Operator>;

    /// `word_count(lines)`.
    fn word_count(lines: &[String]) -> Vec<(String, u64)>;

    /// The implementation's `KeyedProcessOperator` keyed by `Vec<u8>`, running the
    /// fan-out function of `fanout.rs` (the spy type implements it too).
    type Fanout;
    /// `KeyedProcessOperator::new(fanout_key, Spy)`.
    fn fanout() -> Self::Fanout;
    /// `Operator::process(record, out)`.
    fn fanout_process(operator: &mut Self::Fanout, record: (Vec<u8>, u32), out: &mut Vec<u32>);
    /// `state().snapshot()`, as pairs.
    fn fanout_state(operator: &Self::Fanout) -> Vec<(Vec<u8>, u32)>;
    /// `snapshot()`, drop the operator, `restore(fanout_key, Spy, &bytes)`.
    ///
    /// # Errors
    /// Whatever `snapshot` or `restore` returns.
    fn fanout_restore(operator: Self::Fanout) -> anyhow::Result<Self::Fanout>;

    /// The implementation's `KeyedProcessOperator` keyed by the word, running its own
    /// `WordCount`.
    type WordCounter;
    /// `KeyedProcessOperator::new(word_key, WordCount)`.
    fn word_counter() -> Self::WordCounter;
    /// `Operator::process(word, &mut out)` with an empty `out`; `out` after it.
    fn word_counter_process(operator: &mut Self::WordCounter, word: String) -> Vec<(String, u64)>;
    /// `state().snapshot()`.
    fn word_counter_state(operator: &Self::WordCounter) -> BTreeMap<String, u64>;
    /// `snapshot()`, drop the operator, `restore(word_key, WordCount, &bytes)`.
    ///
    /// # Errors
    /// Whatever `snapshot` or `restore` returns.
    fn word_counter_restore(operator: Self::WordCounter) -> anyhow::Result<Self::WordCounter>;
}

/// Implements [`Implementation`] as `$binding` (with a spy function type `$spy`) for the
/// stage-02 API at the path `$imp`.
#[macro_export]
macro_rules! impl_stage02 {
    ($binding:ident, $spy:ident, $($imp:ident)::+) => {
        /// The grader's spy: records what it sees, keeps the values of its key.
        #[doc(hidden)]
        pub struct $spy;

        impl $($imp)::+::KeyedProcessFunction<String, (String, u32)> for $spy {
            type Out = $crate::stage02::SpyEvent;
            type State = $crate::stage02::SpyState;

            fn process_element(
                &mut self,
                key: &String,
                input: (String, u32),
                state: &mut Option<$crate::stage02::SpyState>,
                out: &mut Vec<$crate::stage02::SpyEvent>,
            ) {
                out.push($crate::stage02::SpyEvent {
                    key: key.clone(),
                    value: input.1,
                    seen: state.clone(),
                });
                *state = $crate::stage02::spy_step(state.take(), input.1);
            }
        }

        impl $($imp)::+::KeyedProcessFunction<Vec<u8>, (Vec<u8>, u32)> for $spy {
            type Out = u32;
            type State = u32;

            fn process_element(
                &mut self,
                _key: &Vec<u8>,
                input: (Vec<u8>, u32),
                state: &mut Option<u32>,
                out: &mut Vec<u32>,
            ) {
                out.extend($crate::stage02::fanout_emits(input.1));
                *state = Some(state.unwrap_or(0) + 1);
            }
        }

        #[doc(hidden)]
        pub struct $binding;

        impl $crate::stage02::Implementation for $binding {
            type State = $($imp)::+::KeyedState<String, u32>;
            type Operator = $($imp)::+::KeyedProcessOperator<
                String,
                fn(&(String, u32)) -> String,
                $spy,
                (String, u32),
            >;

            fn state_new() -> Self::State {
                $($imp)::+::KeyedState::new()
            }
            fn state_apply(
                state: &mut Self::State,
                op: &$crate::stage02::StateOp,
            ) -> $crate::stage02::StateReturned {
                use $crate::stage02::{StateOp, StateReturned};
                match op {
                    StateOp::Put(key, value) => {
                        state.put(key.clone(), *value);
                        StateReturned::Put
                    }
                    StateOp::Remove(key) => StateReturned::Removed(state.remove(key)),
                    StateOp::Update(key, closure) => {
                        let (mut called, mut handed) = (false, None);
                        state.update(key.clone(), |v| {
                            (called, handed) = (true, v);
                            closure.apply(v)
                        });
                        StateReturned::Updated { called, handed }
                    }
                }
            }
            fn state_get(state: &Self::State, key: &str) -> Option<u32> {
                state.get(&key.to_owned()).copied()
            }
            fn state_snapshot(state: &Self::State) -> ::std::collections::BTreeMap<String, u32> {
                state.snapshot()
            }
            fn text_round_trip(
                pairs: &[(String, u32)],
            ) -> Result<::std::collections::BTreeMap<String, u32>, String> {
                let mut state = $($imp)::+::KeyedState::<String, u32>::new();
                for (key, value) in pairs {
                    state.put(key.clone(), *value);
                }
                let bytes = state.to_bytes().map_err(|e| format!("{e:#}"))?;
                $($imp)::+::KeyedState::<String, u32>::from_bytes(&bytes)
                    .map(|s| s.snapshot())
                    .map_err(|e| format!("{e:#}"))
            }
            fn binary_round_trip(
                pairs: &[(Vec<u8>, u32)],
            ) -> Result<::std::collections::BTreeMap<Vec<u8>, u32>, String> {
                let mut state = $($imp)::+::KeyedState::<Vec<u8>, u32>::new();
                for (key, value) in pairs {
                    state.put(key.clone(), *value);
                }
                let bytes = state.to_bytes().map_err(|e| format!("{e:#}"))?;
                $($imp)::+::KeyedState::<Vec<u8>, u32>::from_bytes(&bytes)
                    .map(|s| s.snapshot())
                    .map_err(|e| format!("{e:#}"))
            }
            fn state_from_bytes(
                bytes: &[u8],
            ) -> Result<::std::collections::BTreeMap<String, u32>, String> {
                $($imp)::+::KeyedState::<String, u32>::from_bytes(bytes)
                    .map(|s| s.snapshot())
                    .map_err(|e| format!("{e:#}"))
            }

            fn operator() -> Self::Operator {
                $($imp)::+::KeyedProcessOperator::new(
                    $crate::stage02::key_of as fn(&(String, u32)) -> String,
                    $spy,
                )
            }
            fn process_into(
                operator: &mut Self::Operator,
                record: (String, u32),
                mut out: Vec<$crate::stage02::SpyEvent>,
            ) -> Vec<$crate::stage02::SpyEvent> {
                <Self::Operator as $($imp)::+::Operator<(String, u32)>>::process(
                    operator, record, &mut out,
                );
                out
            }
            fn keyed_state(
                operator: &Self::Operator,
            ) -> ::std::collections::BTreeMap<String, $crate::stage02::SpyState> {
                operator.state().snapshot()
            }
            fn snapshot(operator: &Self::Operator) -> $crate::__anyhow::Result<Vec<u8>> {
                operator.snapshot()
            }
            fn restore(bytes: &[u8]) -> $crate::__anyhow::Result<Self::Operator> {
                $($imp)::+::KeyedProcessOperator::restore(
                    $crate::stage02::key_of as fn(&(String, u32)) -> String,
                    $spy,
                    bytes,
                )
            }

            fn word_count(lines: &[String]) -> Vec<(String, u64)> {
                $($imp)::+::word_count(lines)
            }

            type Fanout = $($imp)::+::KeyedProcessOperator<
                Vec<u8>,
                fn(&(Vec<u8>, u32)) -> Vec<u8>,
                $spy,
                (Vec<u8>, u32),
            >;
            fn fanout() -> Self::Fanout {
                $($imp)::+::KeyedProcessOperator::new(
                    $crate::stage02::fanout_key as fn(&(Vec<u8>, u32)) -> Vec<u8>,
                    $spy,
                )
            }
            fn fanout_process(op: &mut Self::Fanout, record: (Vec<u8>, u32), out: &mut Vec<u32>) {
                <Self::Fanout as $($imp)::+::Operator<(Vec<u8>, u32)>>::process(op, record, out);
            }
            fn fanout_state(op: &Self::Fanout) -> Vec<(Vec<u8>, u32)> {
                op.state().snapshot().into_iter().collect()
            }
            fn fanout_restore(op: Self::Fanout) -> $crate::__anyhow::Result<Self::Fanout> {
                let bytes = op.snapshot()?;
                drop(op);
                $($imp)::+::KeyedProcessOperator::restore(
                    $crate::stage02::fanout_key as fn(&(Vec<u8>, u32)) -> Vec<u8>,
                    $spy,
                    &bytes,
                )
            }

            type WordCounter = $($imp)::+::KeyedProcessOperator<
                String,
                fn(&String) -> String,
                $($imp)::+::WordCount,
                String,
            >;
            fn word_counter() -> Self::WordCounter {
                $($imp)::+::KeyedProcessOperator::new(
                    $crate::stage02::word_key as fn(&String) -> String,
                    $($imp)::+::WordCount,
                )
            }
            fn word_counter_process(op: &mut Self::WordCounter, word: String) -> Vec<(String, u64)> {
                let mut out = Vec::new();
                <Self::WordCounter as $($imp)::+::Operator<String>>::process(op, word, &mut out);
                out
            }
            fn word_counter_state(
                op: &Self::WordCounter,
            ) -> ::std::collections::BTreeMap<String, u64> {
                op.state().snapshot()
            }
            fn word_counter_restore(
                op: Self::WordCounter,
            ) -> $crate::__anyhow::Result<Self::WordCounter> {
                let bytes = op.snapshot()?;
                drop(op);
                $($imp)::+::KeyedProcessOperator::restore(
                    $crate::stage02::word_key as fn(&String) -> String,
                    $($imp)::+::WordCount,
                    &bytes,
                )
            }
        }
    };
}
