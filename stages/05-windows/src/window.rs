//! A window: a half-open interval of event time.

use serde::{Deserialize, Serialize};
use stage04::Timestamp;

/// The event-time interval `[start, end)`.
///
/// Ordered by `start`, then `end`: the order of the windows in the results of one
/// `on_watermark` call (05-R12). For the windows of one assigner (all of one size) it is
/// also the order in which they fire (05-R2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Window {
    /// The first timestamp in the window.
    pub start: Timestamp,
    /// The first timestamp after the window.
    pub end: Timestamp,
}

impl Window {
    /// The largest timestamp the window holds, `end - 1`: the watermark that fires it.
    pub fn max_timestamp(&self) -> Timestamp {
        self.end.saturating_sub(1)
    }

    /// Whether `ts` lies in `[start, end)`.
    pub fn contains(&self, ts: Timestamp) -> bool {
        self.start <= ts && ts < self.end
    }
}
