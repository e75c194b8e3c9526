//! Separating late records from on-time ones.

use crate::{Event, StreamElement};

/// The records of `elements`, split into `(on_time, late)`, each in stream order (04-R5).
///
/// A record is late when its timestamp is `<=` the largest watermark before it (04-R6).
pub fn split_late<T: Clone>(
    elements: &[StreamElement<Event<T>>],
) -> (Vec<Event<T>>, Vec<Event<T>>) {
    // TODO(stage 04): walk the elements, remembering the largest watermark seen.
    let _ = elements;
    todo!()
}
