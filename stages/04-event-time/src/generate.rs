//! Interleaving a record stream with the watermarks of its generator.

use crate::{Event, StreamElement, Timestamp};

/// The records of `events`, in arrival order (04-R3), each followed by a watermark element
/// when the generator's watermark advanced past the last one emitted (04-R4).
pub fn with_watermarks<T: Clone>(
    events: &[Event<T>],
    max_delay: Timestamp,
) -> Vec<StreamElement<Event<T>>> {
    // TODO(stage 04): drive a BoundedOutOfOrderness; emit a watermark only when it advanced.
    let _ = (events, max_delay);
    todo!()
}
