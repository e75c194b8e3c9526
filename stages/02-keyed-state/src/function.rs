//! The user's logic of a keyed operator.

/// A function the keyed operator calls once per record with the record's key (02-R8) and
/// that key's state (02-R14).
///
/// `state` is `None` for a key seen for the first time (or whose state was cleared);
/// setting it to `None` clears the key's state (02-R16). The function never sees another
/// key's state: the operator hands it exactly one key's slot (02-R14).
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
