//! Separating late records from on-time ones.

use crate::{Event, StreamElement};

/// The records of `elements`, split into `(on_time, late)`, each in stream order.
///
/// A record is late when its timestamp is `<=` the largest watermark before it.
pub fn split_late<T: Clone>(
    elements: &[StreamElement<Event<T>>],
) -> (Vec<Event<T>>, Vec<Event<T>>) {
    // TODO(stage 04): walk the elements, remembering the largest watermark seen.
    let _ = elements;
    todo!()
}
