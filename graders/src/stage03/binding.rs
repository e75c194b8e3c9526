//! How a driver reaches a stage-03 implementation: a small trait, and the macro that
//! implements it inside the implementation's own crate.
//!
//! Keys cross as `&str` and are handed to the implementation as their bytes; maps come
//! back keyed by `String` (lossily decoded), since JSON map keys must be strings.

use std::collections::BTreeMap;

/// The counts one subtask holds.
pub type SubtaskCounts = BTreeMap<String, u64>;

/// The surface of stage 03 that the driver calls. Implemented by `impl_stage03!`.
pub trait Implementation {
    /// The implementation's `KeyedSubtask<u64>`.
    type Subtask;

    /// `stable_hash(key)`.
    fn stable_hash(key: &str) -> u32;
    /// `key_group_for(key, maxp)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn key_group_for(key: &str, max_parallelism: u32) -> anyhow::Result<u32>;
    /// `operator_index_for(g, p, maxp)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn operator_index_for(
        key_group: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<u32>;
    /// `key_group_range(i, p, maxp)` as `(start, end)`, both inclusive.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn key_group_range(
        index: u32,
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<(u32, u32)>;
    /// `partition(records, |r| r.0.as_bytes(), p, maxp)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn partition(
        records: &[(String, u32)],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<Vec<(String, u32)>>>;
    /// `parallel_count(keys as bytes, p, maxp)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn parallel_count(
        keys: &[String],
        parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<SubtaskCounts>>;
    /// `rescale(state, q, maxp)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn rescale(
        state: Vec<SubtaskCounts>,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<SubtaskCounts>>;
    /// `parents(j, p, q, maxp)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn parents(
        new_index: u32,
        old_parallelism: u32,
        new_parallelism: u32,
        max_parallelism: u32,
    ) -> anyhow::Result<Vec<u32>>;

    /// `KeyedSubtask::new(i, p, maxp)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn subtask(index: u32, parallelism: u32, max_parallelism: u32)
    -> anyhow::Result<Self::Subtask>;
    /// `update(key, |c| Some(c.unwrap_or(0) + 1))`: counts one occurrence of `key`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn count(subtask: &mut Self::Subtask, key: &str) -> anyhow::Result<()>;
    /// `update(key, |_| None)`: removes `key`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn remove(subtask: &mut Self::Subtask, key: &str) -> anyhow::Result<()>;
    /// `key_groups()` as `(start, end)`, both inclusive.
    fn key_groups(subtask: &Self::Subtask) -> (u32, u32);
    /// `state().snapshot()`.
    fn counts(subtask: &Self::Subtask) -> SubtaskCounts;
    /// `snapshot()`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn snapshot(subtask: &Self::Subtask) -> anyhow::Result<Vec<u8>>;
    /// `KeyedSubtask::restore(i, p, maxp, snapshots)`.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn restore(
        index: u32,
        parallelism: u32,
        max_parallelism: u32,
        snapshots: &[Vec<u8>],
    ) -> anyhow::Result<Self::Subtask>;
}

/// Converts maps keyed by bytes to maps keyed by (lossily decoded) strings.
pub fn by_string<V>(maps: Vec<BTreeMap<Vec<u8>, V>>) -> Vec<BTreeMap<String, V>> {
    maps.into_iter().map(by_string_one).collect()
}

/// Converts one map keyed by bytes to a map keyed by (lossily decoded) strings.
pub fn by_string_one<V>(map: BTreeMap<Vec<u8>, V>) -> BTreeMap<String, V> {
    map.into_iter()
        .map(|(k, v)| (String::from_utf8_lossy(&k).into_owned(), v))
        .collect()
}

/// Converts maps keyed by strings to maps keyed by their bytes.
pub fn by_bytes<V>(maps: Vec<BTreeMap<String, V>>) -> Vec<BTreeMap<Vec<u8>, V>> {
    maps.into_iter()
        .map(|m| m.into_iter().map(|(k, v)| (k.into_bytes(), v)).collect())
        .collect()
}

/// Implements [`Implementation`] as `$binding` for the stage-03 API at the path `$imp`.
#[macro_export]
macro_rules! impl_stage03 {
    ($binding:ident, $($imp:ident)::+) => {
        #[doc(hidden)]
        pub struct $binding;

        impl $crate::stage03::Implementation for $binding {
            type Subtask = $($imp)::+::KeyedSubtask<u64>;

            fn stable_hash(key: &str) -> u32 {
                $($imp)::+::stable_hash(key.as_bytes())
            }
            fn key_group_for(key: &str, max_parallelism: u32) -> $crate::__anyhow::Result<u32> {
                $($imp)::+::key_group_for(key.as_bytes(), max_parallelism)
            }
            fn operator_index_for(
                key_group: u32,
                parallelism: u32,
                max_parallelism: u32,
            ) -> $crate::__anyhow::Result<u32> {
                $($imp)::+::operator_index_for(key_group, parallelism, max_parallelism)
            }
            fn key_group_range(
                index: u32,
                parallelism: u32,
                max_parallelism: u32,
            ) -> $crate::__anyhow::Result<(u32, u32)> {
                $($imp)::+::key_group_range(index, parallelism, max_parallelism)
                    .map(|r| (*r.start(), *r.end()))
            }
            fn partition(
                records: &[(String, u32)],
                parallelism: u32,
                max_parallelism: u32,
            ) -> $crate::__anyhow::Result<Vec<Vec<(String, u32)>>> {
                $($imp)::+::partition(
                    records,
                    |r: &(String, u32)| r.0.as_bytes(),
                    parallelism,
                    max_parallelism,
                )
            }
            fn parallel_count(
                keys: &[String],
                parallelism: u32,
                max_parallelism: u32,
            ) -> $crate::__anyhow::Result<Vec<$crate::stage03::SubtaskCounts>> {
                let keys: Vec<Vec<u8>> = keys.iter().map(|k| k.as_bytes().to_vec()).collect();
                $($imp)::+::parallel_count(&keys, parallelism, max_parallelism)
                    .map($crate::stage03::by_string)
            }
            fn rescale(
                state: Vec<$crate::stage03::SubtaskCounts>,
                new_parallelism: u32,
                max_parallelism: u32,
            ) -> $crate::__anyhow::Result<Vec<$crate::stage03::SubtaskCounts>> {
                $($imp)::+::rescale(
                    $crate::stage03::by_bytes(state),
                    new_parallelism,
                    max_parallelism,
                )
                .map($crate::stage03::by_string)
            }
            fn parents(
                new_index: u32,
                old_parallelism: u32,
                new_parallelism: u32,
                max_parallelism: u32,
            ) -> $crate::__anyhow::Result<Vec<u32>> {
                $($imp)::+::parents(new_index, old_parallelism, new_parallelism, max_parallelism)
            }
            fn subtask(
                index: u32,
                parallelism: u32,
                max_parallelism: u32,
            ) -> $crate::__anyhow::Result<Self::Subtask> {
                $($imp)::+::KeyedSubtask::new(index, parallelism, max_parallelism)
            }
            fn count(subtask: &mut Self::Subtask, key: &str) -> $crate::__anyhow::Result<()> {
                subtask.update(key.as_bytes(), |c: Option<u64>| Some(c.unwrap_or(0) + 1))
            }
            fn remove(subtask: &mut Self::Subtask, key: &str) -> $crate::__anyhow::Result<()> {
                subtask.update(key.as_bytes(), |_: Option<u64>| None)
            }
            fn key_groups(subtask: &Self::Subtask) -> (u32, u32) {
                let range = subtask.key_groups();
                (*range.start(), *range.end())
            }
            fn counts(subtask: &Self::Subtask) -> $crate::stage03::SubtaskCounts {
                $crate::stage03::by_string_one(subtask.state().snapshot())
            }
            fn snapshot(subtask: &Self::Subtask) -> $crate::__anyhow::Result<Vec<u8>> {
                subtask.snapshot()
            }
            fn restore(
                index: u32,
                parallelism: u32,
                max_parallelism: u32,
                snapshots: &[Vec<u8>],
            ) -> $crate::__anyhow::Result<Self::Subtask> {
                $($imp)::+::KeyedSubtask::restore(index, parallelism, max_parallelism, snapshots)
            }
        }
    };
}
