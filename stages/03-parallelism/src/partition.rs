//! Partitioning a stream across subtasks by key group.

use anyhow::Result;

/// Splits `records` into `parallelism` streams: record `r` goes, once, to
/// `operator_index_for(key_group_for(key(r)))`, the subtask whose range holds its key
/// group (03-R1). Each output stream keeps input order (03-R2).
///
/// # Errors
/// When `parallelism` is 0 or above `max_parallelism` (03-R21).
pub fn partition<T: Clone>(
    records: &[T],
    key: impl Fn(&T) -> &[u8],
    parallelism: u32,
    max_parallelism: u32,
) -> Result<Vec<Vec<T>>> {
    // TODO(stage 03): one output stream per subtask; route each record by its key group.
    let _ = (records, key, parallelism, max_parallelism);
    todo!()
}
