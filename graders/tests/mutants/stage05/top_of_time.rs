//! Stage 05 mutants at the top of time: window ends computed as `start + size`, which
//! pass past `u64::MAX` for the last windows (an unseen set's two accepted mistakes,
//! before the `assign` check asked about timestamps there).

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

/// **Mistake:** the tumbling window's end is `start.wrapping_add(size)`: near `u64::MAX`
/// it wraps to a small number, a window that ends before it starts. **Verdict:**
/// `assign` fails: `Tumbling::new(1 << 63).assign(u64::MAX - 2)` ends at 0 (05-R21).
mod tumbling_end_wraps {
    pub use solution05::*;
    #[derive(Clone, Copy)]
    pub struct Tumbling(Timestamp);
    impl Tumbling {
        pub fn new(size: Timestamp) -> anyhow::Result<Self> {
            anyhow::ensure!(size > 0, "size must be at least 1, got 0");
            Ok(Self(size))
        }
    }
    impl WindowAssigner for Tumbling {
        fn assign(&self, ts: Timestamp) -> Vec<Window> {
            let start = ts / self.0 * self.0;
            vec![Window {
                start,
                end: start.wrapping_add(self.0),
            }]
        }
    }
}
graders::impl_stage05!(
    TumblingEndWraps,
    TumblingEndWrapsOperator,
    tumbling_end_wraps
);

/// **Mistake:** the sliding windows are walked back from the latest start while
/// `start + size > ts`, with a plain `+`: for a window that would end past `u64::MAX`
/// the addition overflows and panics. **Verdict:** `assign` fails:
/// `Sliding::new(1 << 63, 1 << 62).assign(u64::MAX - 2)` panics (05-R21).
mod sliding_end_overflows {
    pub use solution05::*;
    #[derive(Clone, Copy)]
    pub struct Sliding {
        size: Timestamp,
        slide: Timestamp,
    }
    impl Sliding {
        pub fn new(size: Timestamp, slide: Timestamp) -> anyhow::Result<Self> {
            solution05::Sliding::new(size, slide)?;
            Ok(Self { size, slide })
        }
    }
    impl WindowAssigner for Sliding {
        fn assign(&self, ts: Timestamp) -> Vec<Window> {
            let mut windows = Vec::new();
            let mut start = ts - ts % self.slide;
            while start + self.size > ts {
                windows.push(Window {
                    start,
                    end: start + self.size,
                });
                match start.checked_sub(self.slide) {
                    Some(earlier) => start = earlier,
                    None => break,
                }
            }
            windows.reverse();
            windows
        }
    }
}
graders::impl_stage05!(
    SlidingEndOverflows,
    SlidingEndOverflowsOperator,
    sliding_end_overflows
);

/// Each mutant, the check that rejects it, the requirement its failure names and its card.
#[rstest]
#[case::tumbling_end_wraps(drive::<TumblingEndWraps>, "assign", "05-R21", "05-window-end-cannot-overflow")]
#[case::sliding_end_overflows(drive::<SlidingEndOverflows>, "assign", "05-R21", "05-window-end-cannot-overflow")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = graders::harness::expect_rejected_for::<Windows>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}
