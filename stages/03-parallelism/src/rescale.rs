//! Rescaling keyed state from one parallelism to another, by whole key groups.

use std::collections::BTreeMap;

use anyhow::Result;

/// Redistributes the per-subtask `state` (entry `i` is old subtask `i`'s) over
/// `new_parallelism` subtasks: each key moves, with its value, to the new subtask owning
/// its key group (03-R11). A key found on an old subtask that does not own it is moved
/// like the others or refused with an error, but never lost (03-R13).
///
/// # Errors
/// When `new_parallelism` is 0 or above `max_parallelism` (03-R21), when `state` (one map
/// per old subtask: its length is the old parallelism) is empty (03-R14) or longer than
/// `max_parallelism` (03-R21), or when one key is held by two old subtasks (03-R12).
pub fn rescale<V>(
    state: Vec<BTreeMap<Vec<u8>, V>>,
    new_parallelism: u32,
    max_parallelism: u32,
) -> Result<Vec<BTreeMap<Vec<u8>, V>>> {
    // TODO(stage 03): move every (key, value) to the new owner of the key's key group.
    let _ = (state, new_parallelism, max_parallelism);
    todo!()
}

/// The old subtasks (of `old_parallelism`) whose key-group ranges overlap the range of new
/// subtask `new_index` (of `new_parallelism`), in increasing order (03-R15).
///
/// # Errors
/// When either parallelism is invalid (03-R21) or `new_index` is not below
/// `new_parallelism` (03-R22).
pub fn parents(
    new_index: u32,
    old_parallelism: u32,
    new_parallelism: u32,
    max_parallelism: u32,
) -> Result<Vec<u32>> {
    // TODO(stage 03): the old subtasks owning the first and the last group of the new range,
    // and every one in between.
    let _ = (new_index, old_parallelism, new_parallelism, max_parallelism);
    todo!()
}
