//! Stage 05 mutants of a red-team round whose mistakes show only past a size the grader
//! never reached: an aggregate's count in a `u8` (past 255 records), the results of one
//! call put in order by an unstable sort (past the few results a small sort keeps in
//! place), and a sliding `assign` that reserves `size / slide` windows whatever the
//! timestamp (past the ratio of 4 the assigners had).

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

use super::flawed::Flaw;

flawed!(
    /// **Mistake:** the count of an aggregate is kept in a `u8` ("a window never sees 256
    /// records of one key").
    /// **Verdict:** `firing` fails on the long stream: the 256th record of `a` in
    /// `[0, 10)` overflows the count, and `on_record` panics (05-R10); in a build without
    /// overflow checks the count wraps, and the window fires with count 44, not 300
    /// (05-R3).
    count_in_u8, CountInU8, CountInU8Operator, Flaw::CountInU8
);
flawed!(
    /// **Mistake:** the windows due are gathered newest first, then put in order with
    /// `sort_unstable_by_key(|r| r.window)`: the windows come out by start, but an
    /// unstable sort keeps no order among the keys of one window.
    /// **Verdict:** `firing` fails on the long stream: `W(MAX)` fires 260 results whose
    /// keys are out of order within a window (05-R12).
    sorted_unstable_by_window, SortedUnstableByWindow, SortedUnstableByWindowOperator,
    Flaw::SortedUnstableByWindow
);

/// **Mistake:** `Sliding::assign` reserves `size.div_ceil(slide)` windows ("at most that
/// many hold a timestamp") before it walks them, whatever the timestamp: for a size of
/// many slides it asks for more memory than there is.
/// **Verdict:** `assign` fails: `Sliding::new(1 << 63, 1).assign(0)`, one window, panics
/// with a capacity overflow (05-R21).
mod reserves_size_over_slide {
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
            let mut windows = Vec::with_capacity(self.size.div_ceil(self.slide) as usize);
            let mut start = ts - ts % self.slide;
            while start.saturating_add(self.size) > ts {
                windows.push(Window {
                    start,
                    end: start.saturating_add(self.size),
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
    ReservesSizeOverSlide,
    ReservesSizeOverSlideOperator,
    reserves_size_over_slide
);

/// The unstable sort, the check that rejects it, the requirement its failure names and
/// the card shown: keys out of order within a window, as when they come out in arrival
/// order (the card restates the rule: by window, then by key).
#[rstest]
#[case::sorted_unstable_by_window(drive::<SortedUnstableByWindow>, "firing", "05-R12", "05-keys-in-arrival-order")]
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

/// The other mutants of this file, the check that rejects each and the requirement its
/// failure names; no card: a width or a reservation chosen too small or too large is a
/// slip, not a belief about windows.
#[rstest]
#[case::count_in_u8(drive::<CountInU8>, "firing", "05-R10")]
#[case::reserves_size_over_slide(drive::<ReservesSizeOverSlide>, "assign", "05-R21")]
fn is_rejected_without_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Windows>(drive, check, requirement);
}
