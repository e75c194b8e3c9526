//! The user's logic of a keyed operator.

/// A function applied to each record together with the state of the record's key.
///
/// `state` is `None` for a key seen for the first time (or whose state was cleared);
/// setting it to `None` clears the key's state. The function never sees another key's
/// state: the operator hands it exactly one key's slot.
pub trait KeyedProcessFunction<K, In> {
    /// The records this function emits.
    type Out;
    /// The per-key state this function keeps.
    type State;

    /// Processes `input`, whose key is `key`, reading and updating that key's `state`.
    fn process_element(
        &mut self,
        key: &K,
        input: In,
        state: &mut Option<Self::State>,
        out: &mut Vec<Self::Out>,
    );
}
