//! Stage 03 mutants of the formulas and the stateless functions: routing by modulo,
//! ranges off by one, hashes that change, owners rounded, errors unchecked or unnamed,
//! state lost or doubled at a rescale.

/// **Mistake:** records are routed with `stable_hash(key) % parallelism`, the textbook
/// hash partitioning, instead of through key groups and ranges.
/// **Verdict:** `partition` fails: at parallelism 2 a record lands on the subtask that
/// does not own its key group.
mod modulo_routing {
    pub use solution03::*;

    pub fn partition<T: Clone>(
        records: &[T],
        key: impl Fn(&T) -> &[u8],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<Vec<T>>> {
        anyhow::ensure!(parallelism > 0, "parallelism must be at least 1, got 0");
        anyhow::ensure!(
            parallelism <= max_parallelism,
            "parallelism {parallelism} is above max_parallelism {max_parallelism}"
        );
        let mut out = vec![Vec::new(); parallelism as usize];
        for r in records {
            out[(stable_hash(key(r)) % parallelism) as usize].push(r.clone());
        }
        Ok(out)
    }
}
graders::impl_stage03!(ModuloRouting, modulo_routing);

/// **Mistake:** the range end is `ceil((i + 1) maxp / p)`, forgetting the `- 1` of an
/// inclusive range, so neighbouring subtasks share a key group.
/// **Verdict:** `key-group-range` fails: at parallelism 1 the range is `0..=maxp`, one
/// key group past the end.
mod range_end_off_by_one {
    pub use solution03::*;

    pub fn key_group_range(
        i: u32,
        p: u32,
        maxp: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        let inclusive = solution03::key_group_range(i, p, maxp)?;
        Ok(*inclusive.start()..=((i + 1) * maxp).div_ceil(p))
    }
}
graders::impl_stage03!(RangeEndOffByOne, range_end_off_by_one);

/// **Mistake:** floor division for both ends (`i maxp / p ..= (i + 1) maxp / p - 1`): the
/// ranges still tile, but they are not the inverse of `operator_index_for`, so a subtask
/// would own state for key groups that are routed elsewhere.
/// **Verdict:** `key-group-range` fails at parallelism 3, max_parallelism 8: subtask 0
/// owns `0..=1` instead of `0..=2`.
mod floor_range {
    pub use solution03::*;

    pub fn key_group_range(
        i: u32,
        p: u32,
        maxp: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        solution03::key_group_range(i, p, maxp)?;
        Ok(i * maxp / p..=(i + 1) * maxp / p - 1)
    }
}
graders::impl_stage03!(FloorRange, floor_range);

/// **Mistake:** the key group comes from `std`'s `RandomState` hasher: a new seed per
/// hasher (and per process), so a restarted job looks for a key in another key group.
/// **Verdict:** `key-group` fails: the key group is not `stable_hash(key) % maxp`.
mod random_state_hash {
    pub use solution03::*;

    pub fn key_group_for(key: &[u8], max_parallelism: u32) -> anyhow::Result<u32> {
        use std::hash::BuildHasher;
        anyhow::ensure!(
            max_parallelism > 0,
            "max_parallelism must be at least 1, got 0"
        );
        let hash = std::collections::hash_map::RandomState::new().hash_one(key);
        Ok((hash % u64::from(max_parallelism)) as u32)
    }
}
graders::impl_stage03!(RandomStateHash, random_state_hash);

/// **Mistake:** `rescale` moves whole old maps (old subtask `i` to new subtask `i % q`)
/// instead of moving each key to the new owner of its key group.
/// **Verdict:** `rescale` fails: after `1 -> 2` a key of the second half stays on subtask 0.
mod rescale_whole_maps {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn rescale<V>(
        state: Vec<BTreeMap<Vec<u8>, V>>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, V>>> {
        anyhow::ensure!(
            new_parallelism > 0,
            "new_parallelism must be at least 1, got 0"
        );
        anyhow::ensure!(
            new_parallelism <= max_parallelism,
            "new_parallelism {new_parallelism} is above max_parallelism {max_parallelism}"
        );
        let mut out: Vec<BTreeMap<Vec<u8>, V>> =
            (0..new_parallelism).map(|_| BTreeMap::new()).collect();
        for (i, map) in (0u32..).zip(state) {
            out[(i % new_parallelism) as usize].extend(map);
        }
        Ok(out)
    }
}
graders::impl_stage03!(RescaleWholeMaps, rescale_whole_maps);

/// **Mistake:** `parents` returns `first..last`, an exclusive range of old subtasks, so
/// the owner of the new range's last key group is not read.
/// **Verdict:** `parents` fails: `parents(0, 1, 1)` is empty.
mod parents_exclusive {
    pub use solution03::*;

    pub fn parents(j: u32, p: u32, q: u32, maxp: u32) -> anyhow::Result<Vec<u32>> {
        let all = solution03::parents(j, p, q, maxp)?;
        Ok((all[0]..all[all.len() - 1]).collect())
    }
}
graders::impl_stage03!(ParentsExclusive, parents_exclusive);

/// **Mistake (the shortcut):** `parallel_count` counts everything in one map, the
/// `p = 1` answer, and hands it to subtask 0: the merged counts are right, but no key
/// was counted where its state lives.
/// **Verdict:** `parallel-count` fails: at parallelism 2 a key owned by subtask 1 is
/// counted on subtask 0.
mod count_on_one_subtask {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn parallel_count(
        keys: &[Vec<u8>],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<BTreeMap<Vec<u8>, u64>>> {
        key_group_range(0, parallelism, max_parallelism)?;
        let mut out = vec![BTreeMap::new(); parallelism as usize];
        for key in keys {
            *out[0].entry(key.clone()).or_default() += 1;
        }
        Ok(out)
    }
}
graders::impl_stage03!(CountOnOneSubtask, count_on_one_subtask);

/// **Mistake:** `key_group_range` trusts its arguments: a parallelism of 0 divides by
/// zero (a panic) and a parallelism above `max_parallelism` yields empty ranges.
/// **Verdict:** `errors` fails: `key_group_range(0, 0, 8)` panics instead of returning an
/// error naming `parallelism`.
mod unchecked_parallelism {
    pub use solution03::*;

    pub fn key_group_range(
        i: u32,
        p: u32,
        maxp: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        // In u64, as the brief says: the one mistake here is trusting the arguments.
        let (i, p, maxp) = (u64::from(i), u64::from(p), u64::from(maxp));
        let start = (i * maxp).div_ceil(p) as u32;
        let end = (((i + 1) * maxp).div_ceil(p) - 1) as u32;
        Ok(start..=end)
    }
}
graders::impl_stage03!(UncheckedParallelism, unchecked_parallelism);

/// **Mistake:** `operator_index_for` deals key groups out round-robin
/// (`key_group % parallelism`) instead of cutting `[0, maxp)` into contiguous ranges, so a
/// subtask's key groups are no longer the range `key_group_range` gives it.
/// **Verdict:** `operator-index` fails: at parallelism 2, key group 1 goes to subtask 1,
/// but subtask 0 owns key groups `0..=maxp/2 - 1`.
mod operator_index_round_robin {
    pub use solution03::*;

    pub fn operator_index_for(
        key_group: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<u32> {
        solution03::operator_index_for(key_group, parallelism, max_parallelism)?;
        Ok(key_group % parallelism)
    }
}
graders::impl_stage03!(OperatorIndexRoundRobin, operator_index_round_robin);

/// **Mistake:** the formulas in `u32`, as the signatures are, where the brief says to
/// compute them in `u64`: `i * max_parallelism` and `key_group * parallelism` overflow
/// for a large `max_parallelism`.
/// **Verdict:** `key-group-range` fails on the fixed case `key_group_range(1, 3,
/// u32::MAX)` and `operator-index` on `(70_000, 70_000)`: "attempt to multiply with
/// overflow" in the debug build the grader runs (a wrong range or index in release).
mod formulas_in_u32 {
    pub use solution03::*;

    pub fn key_group_range(
        i: u32,
        p: u32,
        maxp: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        solution03::key_group_range(i, p, maxp)?;
        Ok((i * maxp).div_ceil(p)..=((i + 1) * maxp).div_ceil(p) - 1)
    }

    pub fn operator_index_for(
        key_group: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<u32> {
        solution03::operator_index_for(key_group, parallelism, max_parallelism)?;
        Ok(key_group * parallelism / max_parallelism)
    }
}
graders::impl_stage03!(FormulasInU32, formulas_in_u32);

/// **Mistake:** the formulas computed in `i64` ("signed 64 bits is plenty", the red
/// team's fifth-round w03-02): `key_group * parallelism` and `(i + 1) * maxp` reach
/// 2^64 at `p = maxp = u32::MAX`, past `i64::MAX`.
/// **Verdict:** `operator-index` fails: `operator_index_for(4000000000, 4000000000,
/// 4294967295)` overflows and panics (03-R24).
mod formulas_in_i64 {
    pub use solution03::*;

    pub fn key_group_range(
        i: u32,
        p: u32,
        maxp: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        solution03::key_group_range(i, p, maxp)?;
        let (i, p, maxp) = (i64::from(i), i64::from(p), i64::from(maxp));
        let ceil = |n: i64| (n + p - 1) / p;
        let (start, end) = (ceil(i * maxp), ceil((i + 1) * maxp) - 1);
        Ok(u32::try_from(start)?..=u32::try_from(end)?)
    }

    pub fn operator_index_for(
        key_group: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<u32> {
        solution03::operator_index_for(key_group, parallelism, max_parallelism)?;
        let index = i64::from(key_group) * i64::from(parallelism) / i64::from(max_parallelism);
        Ok(u32::try_from(index)?)
    }
}
graders::impl_stage03!(FormulasInI64, formulas_in_i64);

/// **Mistake:** the ranges' ceilings taken in floating point (`(i as f64 * maxp as f64 /
/// p as f64).ceil()`), "an f64 holds any u32": it does, but not every product of two.
/// **Verdict:** `key-group-range` fails on a chosen range where `i * maxp` is past 2^53:
/// `key_group_range(1043045808, 1687726631, 2147807088)` is one off.
mod ranges_in_f64 {
    pub use solution03::*;

    pub fn key_group_range(
        i: u32,
        p: u32,
        maxp: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        solution03::key_group_range(i, p, maxp)?;
        let ceil = |i: u32| (f64::from(i) * f64::from(maxp) / f64::from(p)).ceil() as u32;
        Ok(ceil(i)..=ceil(i + 1) - 1)
    }
}
graders::impl_stage03!(RangesInF64, ranges_in_f64);

/// **Mistake:** the owner's floor taken in floating point (`(g as f64 * p as f64 / maxp as
/// f64) as u32`), "an f64 holds any u32".
/// **Verdict:** `operator-index` fails on a chosen key group where `g * p` is past 2^53:
/// `operator_index_for(1376696246, 1359069928, 2151549891)` is one off.
mod owners_in_f64 {
    pub use solution03::*;

    pub fn operator_index_for(
        key_group: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<u32> {
        solution03::operator_index_for(key_group, parallelism, max_parallelism)?;
        Ok((f64::from(key_group) * f64::from(parallelism) / f64::from(max_parallelism)) as u32)
    }
}
graders::impl_stage03!(OwnersInF64, owners_in_f64);

/// **Mistake:** only the configuration is checked: an operator index at or above the
/// parallelism and a key group at or above `max_parallelism` go through the formulas,
/// where the brief calls them errors.
/// **Verdict:** `errors` fails on `key_group_range(2, 2, 8)`, which returns `8..=11`.
mod unchecked_indices {
    pub use solution03::*;

    pub fn key_group_range(
        i: u32,
        p: u32,
        maxp: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        solution03::key_group_range(0, p, maxp)?;
        let (i, p, maxp) = (u64::from(i), u64::from(p), u64::from(maxp));
        Ok((i * maxp).div_ceil(p) as u32..=(((i + 1) * maxp).div_ceil(p) - 1) as u32)
    }

    pub fn operator_index_for(
        key_group: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<u32> {
        solution03::operator_index_for(0, parallelism, max_parallelism)?;
        Ok((u64::from(key_group) * u64::from(parallelism) / u64::from(max_parallelism)) as u32)
    }
}
graders::impl_stage03!(UncheckedIndices, unchecked_indices);
