//! The parallel keyed count: partitioning plus one keyed state per subtask.

use std::collections::BTreeMap;

use anyhow::Result;

use crate::{KeyedSubtask, partition};

/// Counts the occurrences of each key with `parallelism` subtasks; entry `i` holds the
/// final counts of the keys that subtask `i` owns.
///
/// Merging the entries gives the `p = 1` count: parallelism changes where a key is
/// counted, never what its count is.
///
/// # Errors
/// When `parallelism` is 0 or above `max_parallelism`.
pub fn parallel_count(
    keys: &[Vec<u8>],
    parallelism: u32,
    max_parallelism: u32,
) -> Result<Vec<BTreeMap<Vec<u8>, u64>>> {
    let streams = partition(keys, |key| key.as_slice(), parallelism, max_parallelism)?;
    let mut counts = Vec::with_capacity(streams.len());
    for (index, stream) in (0u32..).zip(streams) {
        let mut subtask = KeyedSubtask::new(index, parallelism, max_parallelism)?;
        for key in &stream {
            subtask.update(key, |count| Some(count.unwrap_or(0) + 1))?;
        }
        counts.push(subtask.state().snapshot());
    }
    Ok(counts)
}
