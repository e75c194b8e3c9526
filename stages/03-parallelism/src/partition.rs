//! Partitioning a stream across subtasks by key group.

use anyhow::Result;

/// Splits `records` into `parallelism` streams: record `r` goes to
/// `operator_index_for(key_group_for(key(r)))`. Each output stream keeps input order.
///
/// # Errors
/// When `parallelism` is 0 or above `max_parallelism`.
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
