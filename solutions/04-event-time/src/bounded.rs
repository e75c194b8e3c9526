//! The bounded-out-of-orderness watermark generator.

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::Timestamp;

/// Generates watermarks for a stream whose records arrive at most `max_delay` behind the
/// largest timestamp seen so far.
///
/// Its state is the largest timestamp seen: a restored generator that forgot it would
/// start again from `None` and emit watermarks the stream already passed, or, worse, fail
/// to see that a record is late.
///
/// Its snapshot names both fields, and `restore` wants both, and nothing else: serde would
/// read a missing `Option` field as `None`, so `{"max_delay": 3}` (bytes no generator
/// wrote) would restore a fresh generator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundedOutOfOrderness {
    max_delay: Timestamp,
    #[serde(deserialize_with = "present")]
    max_ts: Option<Timestamp>,
}

/// Reads a field as its type does: with `deserialize_with`, serde reports a missing field
/// as an error rather than reading a missing `Option` as `None`.
fn present<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer)
}

impl BoundedOutOfOrderness {
    /// A generator that has seen no record yet.
    pub fn new(max_delay: Timestamp) -> Self {
        Self {
            max_delay,
            max_ts: None,
        }
    }

    /// Takes a record's timestamp into account.
    pub fn on_event(&mut self, ts: Timestamp) {
        self.max_ts = Some(self.max_ts.map_or(ts, |max| max.max(ts)));
    }

    /// `max_ts - max_delay - 1`, or `None` until `max_ts > max_delay`.
    ///
    /// The `- 1` is because a record at exactly `max_ts - max_delay` is still on time: the
    /// watermark promises only the timestamps strictly below it. `checked_sub` is the
    /// `None` case: near time 0 there is no timestamp yet that is surely complete.
    pub fn current_watermark(&self) -> Option<Timestamp> {
        self.max_ts?.checked_sub(self.max_delay)?.checked_sub(1)
    }

    /// The generator's state (the bound and the largest timestamp seen) as bytes.
    ///
    /// # Errors
    /// Never in practice; the signature is the one every stateful type shares.
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        serde_json::to_vec(self).context("serialising a watermark generator")
    }

    /// The generator that [`snapshot`](Self::snapshot) saved.
    ///
    /// # Errors
    /// When `bytes` is not a generator snapshot.
    pub fn restore(bytes: &[u8]) -> Result<Self> {
        serde_json::from_slice(bytes).context("restoring a watermark generator: not a snapshot")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_and_the_none_below_the_bound() {
        let mut generator = BoundedOutOfOrderness::new(3);
        assert_eq!(generator.current_watermark(), None);
        generator.on_event(3);
        assert_eq!(
            generator.current_watermark(),
            None,
            "3 - 3 - 1 would be negative"
        );
        generator.on_event(4);
        assert_eq!(generator.current_watermark(), Some(0));
        generator.on_event(2);
        assert_eq!(
            generator.current_watermark(),
            Some(0),
            "an older record changes nothing"
        );
        generator.on_event(10);
        assert_eq!(generator.current_watermark(), Some(6));
        let restored = BoundedOutOfOrderness::restore(&generator.snapshot().unwrap()).unwrap();
        assert_eq!(restored, generator);
    }

    #[test]
    fn restore_refuses_what_no_generator_wrote() {
        let fresh = BoundedOutOfOrderness::new(3);
        assert_eq!(
            BoundedOutOfOrderness::restore(&fresh.snapshot().unwrap()).unwrap(),
            fresh
        );
        assert_eq!(
            BoundedOutOfOrderness::restore(br#"{"max_delay":3,"max_ts":null}"#).unwrap(),
            fresh,
            "a fresh generator's snapshot"
        );
        for junk in [
            &br#"{"max_delay":3}"#[..],
            br#"{"max_ts":5}"#,
            br#"{"max_delay":3,"max_ts":null,"late":1}"#,
            b"{}",
            b"[]",
            b"null",
            b"[3]",
            br#"{"max_delay":3,"max_ts":null} trailing"#,
            b"",
        ] {
            assert!(
                BoundedOutOfOrderness::restore(junk).is_err(),
                "{}",
                String::from_utf8_lossy(junk)
            );
        }
    }

    #[test]
    fn zero_delay_trails_by_one() {
        let mut generator = BoundedOutOfOrderness::new(0);
        generator.on_event(0);
        assert_eq!(generator.current_watermark(), None);
        generator.on_event(1);
        assert_eq!(generator.current_watermark(), Some(0));
    }
}
