//! Flink's three formulas: key to key group, key group to subtask, subtask to its range.

use std::ops::RangeInclusive;

use anyhow::{Result, bail};

/// The key group of `key`: `stable_hash(key) % max_parallelism` (03-R18).
///
/// # Errors
/// When `max_parallelism` is 0 (03-R21).
pub fn key_group_for(key: &[u8], max_parallelism: u32) -> Result<u32> {
    // TODO(stage 03): reject max_parallelism 0 (name it in the error), then hash and reduce.
    let _ = (key, max_parallelism);
    todo!()
}

/// The subtask that owns `key_group` with `parallelism` subtasks:
/// `key_group * parallelism / max_parallelism` (03-R19).
///
/// # Errors
/// When the configuration is invalid (parallelism 0 or above max_parallelism) (03-R21) or
/// `key_group` is not below `max_parallelism` (03-R22).
pub fn operator_index_for(key_group: u32, parallelism: u32, max_parallelism: u32) -> Result<u32> {
    // TODO(stage 03): validate, then apply the formula without overflowing u32.
    let _ = (key_group, parallelism, max_parallelism);
    todo!()
}

/// The key groups owned by subtask `operator_index` of `parallelism`:
/// `ceil(i * maxp / p) ..= ceil((i + 1) * maxp / p) - 1` (03-R20).
///
/// # Errors
/// When the configuration is invalid (parallelism 0 or above max_parallelism) (03-R21) or
/// `operator_index` is not below `parallelism` (03-R22).
pub fn key_group_range(
    operator_index: u32,
    parallelism: u32,
    max_parallelism: u32,
) -> Result<RangeInclusive<u32>> {
    // TODO(stage 03): validate, then compute both ends with ceilings.
    let _ = (operator_index, parallelism, max_parallelism);
    todo!()
}

/// Validates a parallelism against the number of key groups (given).
///
/// A subtask without a key group would own no state, so a `parallelism` above
/// `max_parallelism` is a configuration error (03-R21).
///
/// # Errors
/// When `parallelism` is 0 or above `max_parallelism` (03-R21).
#[allow(dead_code, reason = "given for your implementations to call")]
pub(crate) fn check_parallelism(parallelism: u32, max_parallelism: u32) -> Result<()> {
    if parallelism == 0 {
        bail!("parallelism must be at least 1, got 0");
    }
    if parallelism > max_parallelism {
        bail!("parallelism must not exceed max_parallelism {max_parallelism}, got {parallelism}");
    }
    Ok(())
}
