//! Flink's three formulas: key to key group, key group to subtask, subtask to its range.

use std::ops::RangeInclusive;

use anyhow::{Result, bail};

use crate::stable_hash;

/// The key group of `key`: `stable_hash(key) % max_parallelism`.
///
/// # Errors
/// When `max_parallelism` is 0 (there would be no key group to land in).
pub fn key_group_for(key: &[u8], max_parallelism: u32) -> Result<u32> {
    if max_parallelism == 0 {
        bail!("max_parallelism must be at least 1, got 0");
    }
    Ok(stable_hash(key) % max_parallelism)
}

/// The subtask that owns `key_group` when the operator runs with `parallelism` subtasks:
/// `key_group * parallelism / max_parallelism`.
///
/// This scales the group's position in `[0, maxp)` to a position in `[0, p)`; it is the
/// inverse of [`key_group_range`], which is why routing and state ownership agree.
///
/// # Errors
/// When the configuration is invalid (parallelism 0 or above max_parallelism) or `key_group` is not
/// below `max_parallelism`.
pub fn operator_index_for(key_group: u32, parallelism: u32, max_parallelism: u32) -> Result<u32> {
    check_parallelism(parallelism, max_parallelism)?;
    if key_group >= max_parallelism {
        bail!("key_group must be below max_parallelism {max_parallelism}, got {key_group}");
    }
    // u64 so that `key_group * parallelism` cannot overflow for large max_parallelism.
    let index = u64::from(key_group) * u64::from(parallelism) / u64::from(max_parallelism);
    Ok(index as u32)
}

/// The key groups owned by subtask `operator_index` of `parallelism`:
/// `ceil(i * maxp / p) ..= ceil((i + 1) * maxp / p) - 1`.
///
/// Ceilings on both ends make consecutive ranges meet exactly (the end of `i` is one less
/// than the start of `i + 1`), so the ranges tile `[0, maxp)`; and because `p <= maxp`
/// each range holds at least one group.
///
/// # Errors
/// When the configuration is invalid (parallelism 0 or above max_parallelism) or `operator_index` is
/// not below `parallelism`.
pub fn key_group_range(
    operator_index: u32,
    parallelism: u32,
    max_parallelism: u32,
) -> Result<RangeInclusive<u32>> {
    check_parallelism(parallelism, max_parallelism)?;
    if operator_index >= parallelism {
        bail!("operator_index must be below parallelism {parallelism}, got {operator_index}");
    }
    let (i, p, maxp) = (
        u64::from(operator_index),
        u64::from(parallelism),
        u64::from(max_parallelism),
    );
    let start = (i * maxp).div_ceil(p);
    let end = ((i + 1) * maxp).div_ceil(p) - 1;
    Ok(start as u32..=end as u32)
}

/// Validates a parallelism against the number of key groups.
///
/// A subtask without a key group would own no state, so `parallelism` may not exceed
/// `max_parallelism`.
///
/// # Errors
/// When `parallelism` is 0 or above `max_parallelism`.
pub(crate) fn check_parallelism(parallelism: u32, max_parallelism: u32) -> Result<()> {
    if parallelism == 0 {
        bail!("parallelism must be at least 1, got 0");
    }
    if parallelism > max_parallelism {
        bail!("parallelism must not exceed max_parallelism {max_parallelism}, got {parallelism}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_tile_the_key_groups_and_invert_routing() {
        for maxp in [1, 2, 3, 7, 8, 10, 128] {
            for p in 1..=maxp.min(8) {
                let mut next = 0;
                for i in 0..p {
                    let range = key_group_range(i, p, maxp).unwrap();
                    assert_eq!(*range.start(), next, "p={p} maxp={maxp} i={i}");
                    assert!(
                        range.start() <= range.end(),
                        "empty range p={p} maxp={maxp}"
                    );
                    for g in range.clone() {
                        assert_eq!(operator_index_for(g, p, maxp).unwrap(), i);
                    }
                    next = range.end() + 1;
                }
                assert_eq!(next, maxp, "p={p} maxp={maxp}");
            }
        }
    }

    #[test]
    fn flink_examples() {
        // maxp 128, p 3: 0..=42, 43..=85, 86..=127.
        assert_eq!(key_group_range(0, 3, 128).unwrap(), 0..=42);
        assert_eq!(key_group_range(1, 3, 128).unwrap(), 43..=85);
        assert_eq!(key_group_range(2, 3, 128).unwrap(), 86..=127);
    }

    #[test]
    fn invalid_arguments_are_named() {
        let err = |r: Result<_>| r.map(|_: RangeInclusive<u32>| ()).unwrap_err().to_string();
        assert!(err(key_group_range(0, 0, 8)).contains("parallelism"));
        assert!(err(key_group_range(0, 9, 8)).contains("max_parallelism"));
        assert!(err(key_group_range(3, 3, 8)).contains("operator_index"));
        assert!(
            key_group_for(b"k", 0)
                .unwrap_err()
                .to_string()
                .contains("max_parallelism")
        );
        assert!(
            operator_index_for(8, 2, 8)
                .unwrap_err()
                .to_string()
                .contains("key_group")
        );
    }
}
