//! Stage 03 mutants that depart from one formula or rule of the brief in a plausible
//! way: another reduction of the hash, another hash, owners rounded, streams regrouped,
//! errors that name nothing.

/// **Mistake:** the key group reduces the hash into `0..max_parallelism` with a
/// multiply-shift (`hash * maxp >> 32`, the "fast range" trick), not `% maxp`.
/// **Verdict:** `key-group` fails: at `max_parallelism` 2 a key's group is not
/// `stable_hash(key) % 2`.
mod key_group_multiply_shift {
    pub use solution03::*;

    pub fn key_group_for(key: &[u8], max_parallelism: u32) -> anyhow::Result<u32> {
        anyhow::ensure!(max_parallelism > 0, "max_parallelism must be at least 1");
        Ok(((u64::from(stable_hash(key)) * u64::from(max_parallelism)) >> 32) as u32)
    }
}
graders::impl_stage03!(KeyGroupMultiplyShift, key_group_multiply_shift);

/// **Mistake:** `stable_hash` "tidied" into FNV-1 (multiply, then xor), the other
/// variant of the family, where the brief gives FNV-1a and says to keep it.
/// **Verdict:** `key-group` fails: `stable_hash("a")` is not the given hash.
mod stable_hash_fnv1 {
    pub use solution03::*;

    pub fn stable_hash(key: &[u8]) -> u32 {
        key.iter().fold(0x811c_9dc5_u32, |hash, &byte| {
            hash.wrapping_mul(0x0100_0193) ^ u32::from(byte)
        })
    }

    pub fn key_group_for(key: &[u8], max_parallelism: u32) -> anyhow::Result<u32> {
        anyhow::ensure!(max_parallelism > 0, "max_parallelism must be at least 1");
        Ok(stable_hash(key) % max_parallelism)
    }
}
graders::impl_stage03!(StableHashFnv1, stable_hash_fnv1);

/// **Mistake:** `operator_index_for` rounds `g * p / maxp` to the nearest subtask
/// (`(2 g p + maxp) / (2 maxp)`), and `partition` routes with it.
/// **Verdict:** `operator-index` fails at parallelism 2, `max_parallelism` 3: key group 1
/// goes to subtask 1; `partition` fails too, blamed on `operator_index_for` (03-R19),
/// not on the routing.
mod operator_index_rounds {
    pub use solution03::*;

    pub fn operator_index_for(
        key_group: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<u32> {
        solution03::operator_index_for(key_group, parallelism, max_parallelism)?;
        let (g, p, maxp) = (
            u64::from(key_group),
            u64::from(parallelism),
            u64::from(max_parallelism),
        );
        Ok(((2 * g * p + maxp) / (2 * maxp)).min(p - 1) as u32)
    }

    pub fn partition<T: Clone>(
        records: &[T],
        key: impl Fn(&T) -> &[u8],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<Vec<T>>> {
        key_group_range(0, parallelism, max_parallelism)?;
        let mut out = vec![Vec::new(); parallelism as usize];
        for record in records {
            let group = key_group_for(key(record), max_parallelism)?;
            out[operator_index_for(group, parallelism, max_parallelism)? as usize]
                .push(record.clone());
        }
        Ok(out)
    }
}
graders::impl_stage03!(OperatorIndexRounds, operator_index_rounds);

/// **Mistake:** `partition` buckets records by key group first, then hands each subtask
/// its buckets in group order: each key's records stay in order, the stream does not.
/// **Verdict:** `partition` fails: a subtask's records are the right ones in the wrong
/// order.
mod partition_by_group_buckets {
    pub use solution03::*;
    use std::collections::BTreeMap;

    pub fn partition<T: Clone>(
        records: &[T],
        key: impl Fn(&T) -> &[u8],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<Vec<T>>> {
        key_group_range(0, parallelism, max_parallelism)?;
        let mut buckets: BTreeMap<u32, Vec<T>> = BTreeMap::new();
        for record in records {
            let group = key_group_for(key(record), max_parallelism)?;
            buckets.entry(group).or_default().push(record.clone());
        }
        let mut out = vec![Vec::new(); parallelism as usize];
        for (group, bucket) in buckets {
            out[operator_index_for(group, parallelism, max_parallelism)? as usize].extend(bucket);
        }
        Ok(out)
    }
}
graders::impl_stage03!(PartitionByGroupBuckets, partition_by_group_buckets);

/// **Mistake:** every invalid argument is refused, but with one message for all of them,
/// "invalid configuration", where the brief asks the message to name the argument.
/// **Verdict:** `errors` fails: `key_group_range(0, 0, 8)`'s error does not say which
/// argument is wrong.
mod errors_unnamed {
    pub use solution03::*;

    pub fn key_group_range(
        i: u32,
        p: u32,
        maxp: u32,
    ) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
        solution03::key_group_range(i, p, maxp)
            .map_err(|_| anyhow::anyhow!("invalid configuration"))
    }
}
graders::impl_stage03!(ErrorsUnnamed, errors_unnamed);
