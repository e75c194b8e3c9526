//! Key groups and the parent mapping of a rescale: a stand-in for stage 03.
//!
//! Stage 03's reference (`solution03`) owns these formulas (Flink's). It is being
//! written in parallel, so this module carries the few the committer needs, with the
//! same names and semantics. When `solution03` is on main, delete this file and use
//! `solution03::{key_group_for, operator_index_for, key_group_range, parents}`.

use std::ops::RangeInclusive;

use anyhow::{Result, bail};

/// FNV-1a, 32 bits: fixed and documented, so routing is the same on every run and
/// every machine (unlike `std`'s seeded hasher).
pub fn stable_hash(key: &[u8]) -> u32 {
    key.iter().fold(0x811c_9dc5_u32, |hash, byte| {
        (hash ^ u32::from(*byte)).wrapping_mul(0x0100_0193)
    })
}

/// The key group of `key`: `stable_hash(key) % max_parallelism`.
pub fn key_group_for(key: &[u8], max_parallelism: u32) -> u32 {
    stable_hash(key) % max_parallelism
}

/// The subtask that owns `key_group`: `key_group * parallelism / max_parallelism`.
pub fn operator_index_for(key_group: u32, parallelism: u32, max_parallelism: u32) -> u32 {
    // u64 so that the product cannot overflow for any u32 arguments.
    (u64::from(key_group) * u64::from(parallelism) / u64::from(max_parallelism)) as u32
}

/// The key groups of subtask `index`: from `ceil(index * maxp / p)` to
/// `ceil((index + 1) * maxp / p) - 1`.
pub fn key_group_range(index: u32, parallelism: u32, max_parallelism: u32) -> RangeInclusive<u32> {
    let bound = |i: u32| {
        (u64::from(i) * u64::from(max_parallelism)).div_ceil(u64::from(parallelism)) as u32
    };
    bound(index)..=bound(index + 1) - 1
}

/// The old subtasks whose key-group ranges overlap new subtask `new_index`'s range,
/// in ascending order.
///
/// # Errors
/// When a parallelism is 0, exceeds `max_parallelism` (a subtask would own no key
/// group), or `new_index` is not below `new_parallelism`.
pub fn parents(
    new_index: u32,
    old_parallelism: u32,
    new_parallelism: u32,
    max_parallelism: u32,
) -> Result<Vec<u32>> {
    for (name, p) in [
        ("old_parallelism", old_parallelism),
        ("new_parallelism", new_parallelism),
    ] {
        if p == 0 || p > max_parallelism {
            bail!("{name} must be in 1..={max_parallelism} (max_parallelism), got {p}");
        }
    }
    if new_index >= new_parallelism {
        bail!("new_index must be below new_parallelism {new_parallelism}, got {new_index}");
    }
    let range = key_group_range(new_index, new_parallelism, max_parallelism);
    let first = operator_index_for(*range.start(), old_parallelism, max_parallelism);
    let last = operator_index_for(*range.end(), old_parallelism, max_parallelism);
    Ok((first..=last).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_new_subtask_has_a_parent_and_every_old_one_a_child() {
        for p in 1..=8 {
            for q in 1..=8 {
                let all: Vec<Vec<u32>> = (0..q).map(|n| parents(n, p, q, 128).unwrap()).collect();
                assert!(all.iter().all(|ps| !ps.is_empty()));
                for old in 0..p {
                    assert!(all.iter().any(|ps| ps.contains(&old)), "{p}->{q}: {old}");
                }
            }
        }
    }
}
