//! Driving a source through an operator until the source is exhausted.

use crate::{Operator, Source};

/// Polls `source` from its current position until it is exhausted (01-R9), feeding every
/// record to `op`, and returns everything `op` emitted, in order (01-R10).
pub fn run<S, O>(source: &mut S, op: &mut O) -> Vec<O::Out>
where
    S: Source,
    O: Operator<S::Item>,
{
    // TODO(stage 01): poll until `None`, processing each record into one output buffer.
    let _ = (source, op);
    todo!()
}
