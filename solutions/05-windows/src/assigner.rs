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
        let start = ts - ts % self.size;
        vec![Window {
            start,
            end: start.saturating_add(self.size),
        }]
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
        // The latest window containing `ts` starts at the last multiple of `slide`; walk
        // back one slide at a time while the window still reaches `ts`.
        let last_start = ts - ts % self.slide;
        let mut starts: Vec<Timestamp> =
            std::iter::successors(Some(last_start), |start| start.checked_sub(self.slide))
                .take_while(|start| start.saturating_add(self.size) > ts)
                .collect();
        starts.reverse();
        starts
            .into_iter()
            .map(|start| Window {
                start,
                end: start.saturating_add(self.size),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(start: Timestamp, end: Timestamp) -> Window {
        Window { start, end }
    }

    #[test]
    fn tumbling_has_one_window() {
        let tumbling = Tumbling::new(5).unwrap();
        assert_eq!(tumbling.assign(0), [w(0, 5)]);
        assert_eq!(tumbling.assign(4), [w(0, 5)]);
        assert_eq!(tumbling.assign(5), [w(5, 10)]);
    }

    #[test]
    fn sliding_has_every_window_containing_ts() {
        let sliding = Sliding::new(6, 2).unwrap();
        assert_eq!(sliding.assign(0), [w(0, 6)]);
        assert_eq!(sliding.assign(5), [w(0, 6), w(2, 8), w(4, 10)]);
        assert_eq!(sliding.assign(6), [w(2, 8), w(4, 10), w(6, 12)]);
        for ts in 0..40 {
            let windows = Sliding::new(5, 2).unwrap().assign(ts);
            let expected: Vec<Window> = (0..=ts)
                .step_by(2)
                .map(|s| w(s, s + 5))
                .filter(|x| x.contains(ts))
                .collect();
            assert_eq!(windows, expected, "ts={ts}");
        }
    }

    #[test]
    fn invalid_sizes_are_named() {
        assert!(Tumbling::new(0).unwrap_err().to_string().contains("size"));
        assert!(Sliding::new(0, 1).unwrap_err().to_string().contains("size"));
        assert!(
            Sliding::new(4, 0)
                .unwrap_err()
                .to_string()
                .contains("slide")
        );
        assert!(
            Sliding::new(4, 5)
                .unwrap_err()
                .to_string()
                .contains("slide")
        );
    }
}
