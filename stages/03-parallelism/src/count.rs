//! The parallel keyed count: partitioning plus one keyed state per subtask.

use std::collections::BTreeMap;

use anyhow::Result;

/// Counts the occurrences of each key with `parallelism` subtasks; entry `i` holds the
/// final counts of the keys that subtask `i` owns (03-R10).
///
/// # Errors
/// When `parallelism` is 0 or above `max_parallelism` (03-R21).
pub fn parallel_count(
    keys: &[Vec<u8>],
    parallelism: u32,
    max_parallelism: u32,
) -> Result<Vec<BTreeMap<Vec<u8>, u64>>> {
    // TODO(stage 03): partition the keys, count each stream in its own KeyedSubtask.
    let _ = (keys, parallelism, max_parallelism);
    todo!()
}
