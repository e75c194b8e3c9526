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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoundedOutOfOrderness {
    max_delay: Timestamp,
    max_ts: Option<Timestamp>,
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
    fn zero_delay_trails_by_one() {
        let mut generator = BoundedOutOfOrderness::new(0);
        generator.on_event(0);
        assert_eq!(generator.current_watermark(), None);
        generator.on_event(1);
        assert_eq!(generator.current_watermark(), Some(0));
    }
}
