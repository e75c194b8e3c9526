//! Timestamped records and the stream elements that carry them and the watermarks.

use serde::{Deserialize, Serialize};

/// Event time, in milliseconds or any unit the job chooses; it starts at 0.
pub type Timestamp = u64;

/// A record with the event time at which it happened.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Event<T> {
    /// When the event happened (not when it arrived).
    pub ts: Timestamp,
    /// The payload.
    pub value: T,
}

impl<T> Event<T> {
    /// An event of `value` at time `ts`.
    pub fn new(ts: Timestamp, value: T) -> Self {
        Self { ts, value }
    }
}

/// What flows in an event-time stream: records, and watermarks between them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum StreamElement<T> {
    /// A data record.
    Record(T),
    /// No record with a timestamp `<=` this one follows.
    Watermark(Timestamp),
}
