//! Driving a source through an operator until the source is exhausted.

use crate::{Operator, Source};

/// Polls `source` until it is exhausted, feeding every record to `op`, and returns
/// everything `op` emitted, in order.
///
/// It reads from the source's current position, so a caller that has `seek`ed gets
/// only the suffix: that is how a recovering job resumes.
pub fn run<S, O>(source: &mut S, op: &mut O) -> Vec<O::Out>
where
    S: Source,
    O: Operator<S::Item>,
{
    let mut out = Vec::new();
    while let Some(record) = source.poll() {
        op.process(record, &mut out);
    }
    out
}
