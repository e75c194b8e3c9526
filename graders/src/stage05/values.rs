//! The grader's mirrors of stage 05's values: assigners, stream elements, results.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An assigner of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AssignerSpec {
    /// `Tumbling::new(size)`.
    Tumbling(u64),
    /// `Sliding::new(size, slide)`.
    Sliding(u64, u64),
}

impl fmt::Display for AssignerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssignerSpec::Tumbling(size) => write!(f, "Tumbling::new({size})"),
            AssignerSpec::Sliding(size, slide) => write!(f, "Sliding::new({size}, {slide})"),
        }
    }
}

/// A timestamp as reports show it: one at the top of `u64` as `MAX` or `MAX-k`, which a
/// reader can count with, where twenty digits cannot be told apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Time(pub u64);

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match u64::MAX - self.0 {
            0 => f.write_str("MAX"),
            below @ 1..=64 => write!(f, "MAX-{below}"),
            _ => write!(f, "{}", self.0),
        }
    }
}

/// A keyed record `(key, ts, value)`, as `on_record` takes it and `Late` returns it.
pub type LateRecord = (String, u64, i64);

/// A stream element as the grader sees it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Element {
    /// `Record(Event { ts, value: (key, value) })`.
    Record(String, u64, i64),
    /// `Watermark(wm)`.
    Watermark(u64),
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Element::Record(key, ts, value) => write!(f, "{key}@{}={value}", Time(*ts)),
            Element::Watermark(wm) => write!(f, "W({})", Time(*wm)),
        }
    }
}

/// A `WindowResult` as the grader sees it. Field order gives the required result order:
/// by window (`start`, then `end`), then key.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Fired {
    /// `window.start`.
    pub start: u64,
    /// `window.end`.
    pub end: u64,
    /// `key`.
    pub key: String,
    /// `sum`.
    pub sum: i64,
    /// `count`.
    pub count: u64,
}

impl fmt::Debug for Fired {
    // Reports list many results: the short form reads better than the derived one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Fired {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{}, {}) sum {} count {}",
            self.key,
            Time(self.start),
            Time(self.end),
            self.sum,
            self.count
        )
    }
}
