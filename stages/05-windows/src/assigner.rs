//! Window assigners: which windows a timestamp belongs to.

use anyhow::{Result, bail};
use stage04::Timestamp;

use crate::Window;

/// Maps a record's timestamp to the windows it belongs to, in increasing order.
pub trait WindowAssigner {
    /// Every window that contains `ts`.
    fn assign(&self, ts: Timestamp) -> Vec<Window>;
}

/// Consecutive, non-overlapping windows of `size`: `[0, size)`, `[size, 2 size)`, ...
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tumbling {
    size: Timestamp,
}

impl Tumbling {
    /// Tumbling windows of `size`.
    ///
    /// # Errors
    /// When `size` is 0: a window must hold at least one timestamp.
    pub fn new(size: Timestamp) -> Result<Self> {
        if size == 0 {
            bail!("size must be at least 1, got 0");
        }
        Ok(Self { size })
    }

    /// The length of each window.
    pub fn size(&self) -> Timestamp {
        self.size
    }
}

impl WindowAssigner for Tumbling {
    fn assign(&self, ts: Timestamp) -> Vec<Window> {
        // TODO(stage 05): the one window of `size` that contains `ts`.
        let _ = ts;
        todo!()
    }
}

/// Windows of `size` starting every `slide`: `[k slide, k slide + size)` for `k >= 0`.
///
/// They overlap when `slide < size`, so a record counts in several windows. Windows start
/// at 0 or later (event time has no negative part), so a record near 0 has fewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sliding {
    size: Timestamp,
    slide: Timestamp,
}

impl Sliding {
    /// Windows of `size` every `slide`.
    ///
    /// # Errors
    /// When `size` is 0, or `slide` is 0 or larger than `size` (a record between two
    /// windows would belong to none, and could never be counted or reported late).
    pub fn new(size: Timestamp, slide: Timestamp) -> Result<Self> {
        if size == 0 {
            bail!("size must be at least 1, got 0");
        }
        if slide == 0 || slide > size {
            bail!("slide must be between 1 and size {size}, got {slide}");
        }
        Ok(Self { size, slide })
    }

    /// The length of each window.
    pub fn size(&self) -> Timestamp {
        self.size
    }

    /// The distance between the starts of consecutive windows.
    pub fn slide(&self) -> Timestamp {
        self.slide
    }
}

impl WindowAssigner for Sliding {
    fn assign(&self, ts: Timestamp) -> Vec<Window> {
        // TODO(stage 05): every window [k * slide, k * slide + size) with k >= 0 that
        // contains `ts`, in increasing order of start.
        let _ = ts;
        todo!()
    }
}
