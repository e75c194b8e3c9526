//! The bounded-out-of-orderness watermark generator.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::Timestamp;

/// Generates the bounded-out-of-orderness watermark `max_ts - max_delay - 1` (04-R1), which
/// assumes that records arrive at most `max_delay` behind the largest timestamp seen so
/// far.
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
        // TODO(stage 04): remember the largest timestamp seen.
        let _ = ts;
        todo!()
    }

    /// `max_ts - max_delay - 1` (04-R1), or `None` until `max_ts > max_delay` (04-R2);
    /// nothing overflows or underflows, up to `u64::MAX` (04-R16).
    pub fn current_watermark(&self) -> Option<Timestamp> {
        // TODO(stage 04): the formula, without underflowing near 0.
        todo!()
    }

    /// The generator's state as bytes: everything a restored generator needs to continue
    /// exactly as this one would (04-R13).
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        // TODO(stage 04): everything a restored generator needs (serde_json).
        todo!()
    }

    /// The generator that [`snapshot`](Self::snapshot) saved.
    ///
    /// # Errors
    /// When `bytes` is not a generator snapshot (04-R15).
    pub fn restore(bytes: &[u8]) -> Result<Self> {
        // TODO(stage 04): the inverse of `snapshot`.
        let _ = bytes;
        todo!()
    }
}
