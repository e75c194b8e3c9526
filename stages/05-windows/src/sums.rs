//! Windowed sums over a stream of records and watermarks.

use stage04::StreamElement;

use crate::{KeyedEvent, WindowAssigner, WindowResult};

/// Runs a [`WindowOperator`](crate::WindowOperator) over `elements`: the results in the
/// order they fired, and the late records in stream order (05-R17). Only the stream's
/// watermarks fire windows (05-R18): end a bounded input with `Watermark(Timestamp::MAX)`
/// to flush.
pub fn window_sums<K: Ord + Clone, A: WindowAssigner>(
    elements: &[StreamElement<KeyedEvent<K>>],
    assigner: A,
) -> (Vec<WindowResult<K>>, Vec<KeyedEvent<K>>) {
    // TODO(stage 05): feed records and watermarks to a WindowOperator.
    let _ = (elements, assigner);
    todo!()
}
