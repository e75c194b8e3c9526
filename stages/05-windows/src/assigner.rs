//! Window assigners: which windows a timestamp belongs to.

use anyhow::{Result, bail};
use stage04::Timestamp;

use crate::Window;

/// Maps a record's timestamp to the windows it belongs to, in increasing order of start
/// (05-R8).
pub trait WindowAssigner {
    /// Every window that contains `ts`, in increasing order of start (05-R8). Near
    /// `u64::MAX` a window that would end past it ends at `u64::MAX`: `assign` never wraps
    /// or panics (05-R21).
    fn assign(&self, ts: Timestamp) -> Vec<Window>;
}

/// Consecutive, non-overlapping windows of `size`: `[0, size)`, `[size, 2 size)`, ...
/// (05-R9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tumbling {
    size: Timestamp,
}

impl Tumbling {
    /// Tumbling windows of `size`.
    ///
    /// # Errors
    /// When `size` is 0, with a message that names `size` (05-R19): a window of no length
    /// would hold no timestamp.
    pub fn new(size: Timestamp) -> Result<Self> {
        if size == 0 {
            bail!("size must be at least 1, got 0");
        }
        Ok(Self { size })
    }

    /// The length of its windows, `end - start`.
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

/// Windows of `size` starting every `slide`: `[k slide, k slide + size)` for `k >= 0`
/// (05-R9).
///
/// They overlap when `slide < size`, so a record counts in several windows. Windows start
/// at 0 or later (event time has no negative part), so a record near 0 has fewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sliding {
    size: Timestamp,
    slide: Timestamp,
}

impl Sliding {
    /// Sliding windows of `size`, one starting every `slide` (05-R9).
    ///
    /// # Errors
    /// When `size` is 0, with a message that names `size` (`Sliding::new(0, 0)`, whose
    /// slide is wrong too, may name `slide` instead) (05-R19); when `slide` is 0 or
    /// larger than `size`, with a message that names `slide` (05-R20): with a slide above
    /// the size, a record between two windows would belong to none, and could never be
    /// counted or reported late.
    pub fn new(size: Timestamp, slide: Timestamp) -> Result<Self> {
        if size == 0 {
            bail!("size must be at least 1, got 0");
        }
        if slide == 0 || slide > size {
            bail!("slide must be between 1 and size {size}, got {slide}");
        }
        Ok(Self { size, slide })
    }

    /// The length of its windows, `end - start`.
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
