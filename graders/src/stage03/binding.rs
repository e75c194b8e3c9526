//! How a driver reaches a stage-03 implementation: a small trait, and the macro that
//! implements it inside the implementation's own crate.
//!
//! Keys cross as `&str` in the notation of [`key_bytes`] (text, with `\xNN` for a byte
//! that is not UTF-8) and are handed to the implementation as the bytes they stand for;
//! maps come back keyed in the same notation ([`key_text`]), since JSON map keys must be
//! strings. Keys that are not UTF-8 are keys like any other (the API takes `&[u8]`), so
//! a solution that decodes them as text must meet some.

use std::borrow::Cow;
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
    /// `update(key, |_| Some(0))`: sets `key` to the default value, which is still a value.
    ///
    /// # Errors
    /// Whatever the implementation returns.
    fn zero(subtask: &mut Self::Subtask, key: &str) -> anyhow::Result<()>;
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

/// The bytes a grader key stands for: its text, but `\xNN` (two hex digits) is the byte
/// `NN` and `\\` a backslash. Borrowed when there is no backslash (nearly every key: the
/// oracles ask for a key's bytes once per record).
pub fn key_bytes(key: &str) -> Cow<'_, [u8]> {
    if !key.contains('\\') {
        return Cow::Borrowed(key.as_bytes());
    }
    let mut bytes = Vec::with_capacity(key.len());
    let raw = key.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        let escaped = match raw[i..] {
            [b'\\', b'\\', ..] => Some((b'\\', 2)),
            [b'\\', b'x', hi, lo, ..] if hi.is_ascii_hexdigit() && lo.is_ascii_hexdigit() => {
                let hex = [hi, lo];
                let hex = std::str::from_utf8(&hex).expect("ASCII hex digits");
                Some((u8::from_str_radix(hex, 16).expect("two hex digits"), 4))
            }
            _ => None,
        };
        let (byte, width) = escaped.unwrap_or((raw[i], 1));
        bytes.push(byte);
        i += width;
    }
    Cow::Owned(bytes)
}

/// The grader's notation of `bytes` (the inverse of [`key_bytes`]): UTF-8 as text, any
/// other byte as `\xNN`, a backslash doubled, so two different keys never read the same.
pub fn key_text(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(&chunk.valid().replace('\\', "\\\\"));
        for byte in chunk.invalid() {
            text.push_str(&format!("\\x{byte:02x}"));
        }
    }
    text
}

/// Converts maps keyed by bytes to maps keyed in the grader's notation ([`key_text`]).
pub fn by_string<V>(maps: Vec<BTreeMap<Vec<u8>, V>>) -> Vec<BTreeMap<String, V>> {
    maps.into_iter().map(by_string_one).collect()
}

/// Converts one map keyed by bytes to a map keyed in the grader's notation.
pub fn by_string_one<V>(map: BTreeMap<Vec<u8>, V>) -> BTreeMap<String, V> {
    map.into_iter().map(|(k, v)| (key_text(&k), v)).collect()
}

/// Converts maps keyed in the grader's notation to maps keyed by the bytes they stand for.
pub fn by_bytes<V>(maps: Vec<BTreeMap<String, V>>) -> Vec<BTreeMap<Vec<u8>, V>> {
    maps.into_iter()
        .map(|m| {
            m.into_iter()
                .map(|(k, v)| (key_bytes(&k).into_owned(), v))
                .collect()
        })
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
                $($imp)::+::stable_hash(&$crate::stage03::key_bytes(key))
            }
            fn key_group_for(key: &str, max_parallelism: u32) -> $crate::__anyhow::Result<u32> {
                $($imp)::+::key_group_for(&$crate::stage03::key_bytes(key), max_parallelism)
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
                // The records carry their keys' bytes, and come back in the grader's notation.
                let records: Vec<(Vec<u8>, u32)> = records
                    .iter()
                    .map(|(k, v)| ($crate::stage03::key_bytes(k).into_owned(), *v))
                    .collect();
                let streams = $($imp)::+::partition(
                    &records,
                    |r: &(Vec<u8>, u32)| r.0.as_slice(),
                    parallelism,
                    max_parallelism,
                )?;
                Ok(streams
                    .into_iter()
                    .map(|s| {
                        s.into_iter()
                            .map(|(k, v)| ($crate::stage03::key_text(&k), v))
                            .collect()
                    })
                    .collect())
            }
            fn parallel_count(
                keys: &[String],
                parallelism: u32,
                max_parallelism: u32,
            ) -> $crate::__anyhow::Result<Vec<$crate::stage03::SubtaskCounts>> {
                let keys: Vec<Vec<u8>> = keys.iter().map(|k| $crate::stage03::key_bytes(k).into_owned()).collect();
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
                subtask.update(&$crate::stage03::key_bytes(key), |c: Option<u64>| Some(c.unwrap_or(0) + 1))
            }
            fn remove(subtask: &mut Self::Subtask, key: &str) -> $crate::__anyhow::Result<()> {
                subtask.update(&$crate::stage03::key_bytes(key), |_: Option<u64>| None)
            }
            fn zero(subtask: &mut Self::Subtask, key: &str) -> $crate::__anyhow::Result<()> {
                subtask.update(&$crate::stage03::key_bytes(key), |_: Option<u64>| Some(0))
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

#[cfg(test)]
mod tests {
    use super::{key_bytes, key_text};

    #[test]
    fn keys_that_are_not_utf8_round_trip_through_the_notation() {
        for bytes in [
            &b"a"[..],
            b"",
            b"\xff",
            b"\xe9t\xe9",
            b"k\x80",
            b"a\\xff",
            "é".as_bytes(),
        ] {
            assert_eq!(&*key_bytes(&key_text(bytes)), bytes, "{bytes:?}");
        }
        assert_eq!(key_text(b"\xe9t\xe9"), "\\xe9t\\xe9");
        assert_eq!(&*key_bytes("\\xff0"), b"\xff0");
        // A backslash of the text is doubled, so it never reads as an escape.
        assert_eq!(key_text(b"a\\xff"), "a\\\\xff");
        assert_eq!(&*key_bytes("\\x"), b"\\x");
    }
}
