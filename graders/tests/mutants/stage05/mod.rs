//! Stage 05 mutants: windows fired at the wrong watermark, twice or never purged,
//! sliding records in one window, late records counted, the watermark left out of the
//! snapshot, and the batch answer without watermarks.

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

use crate::accepted;

/// The methods a wrapper mutant of the operator (the reference as `self.0`) hands on
/// unchanged, each written once here: a mutant writes only the methods it gets wrong.
/// Used inside the wrapper's `impl<K, A> WindowOperator<K, A>`.
macro_rules! delegate_to_inner {
    (@ current_watermark) => {
        pub fn current_watermark(&self) -> Option<Timestamp> {
            self.0.current_watermark()
        }
    };
    (@ on_record) => {
        pub fn on_record(&mut self, key: K, ts: Timestamp, value: i64) -> Option<Late<K>> {
            self.0.on_record(key, ts, value)
        }
    };
    (@ on_watermark) => {
        pub fn on_watermark(&mut self, wm: Timestamp) -> Vec<WindowResult<K>> {
            self.0.on_watermark(wm)
        }
    };
    (@ state_size) => {
        pub fn state_size(&self) -> usize {
            self.0.state_size()
        }
    };
    (@ snapshot) => {
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            self.0.snapshot()
        }
    };
    ($($method:ident),+ $(,)?) => {
        $(delegate_to_inner!(@ $method);)+
    };
}

#[macro_use]
mod window_operator;
#[macro_use]
mod flawed;
mod edges;
mod watermark_at_firing;

graders::impl_stage05!(
    WatermarkAtFiring,
    WatermarkAtFiringOperator,
    watermark_at_firing
);

use self::window_operator::OnFire;

/// The reference's hooks, to check that the scaffolding itself passes.
mod hooks_as_reference {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end.saturating_sub(1) <= wm,
        true,
        |_, _, counted| !counted,
        OnFire::Purge,
        true
    );
}
graders::impl_stage05!(
    HooksAsReference,
    HooksAsReferenceOperator,
    hooks_as_reference
);

accepted!(the_mutant_scaffolding_passes_with_the_reference_hooks: Windows, drive::<HooksAsReference>);

/// **Mistake:** a window fires when the watermark reaches its `end` rather than its last
/// timestamp `end - 1` (`end <= wm`): one watermark too late.
/// **Verdict:** `firing` fails: with `Sliding::new(3, 1)`, window `[1, 4)` does not fire
/// at `W(3)`, the call where `3 >= end - 1` first holds.
mod fires_at_end {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end <= wm,
        true,
        |_, _, counted| !counted,
        OnFire::Purge,
        true
    );
}
graders::impl_stage05!(FiresAtEnd, FiresAtEndOperator, fires_at_end);

/// **Mistake:** firing emits a window's results but neither drops nor marks the window, so
/// every later watermark fires it again.
/// **Verdict:** `firing` fails: the final `W(MAX)` fires a window that already fired.
mod fires_twice {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end.saturating_sub(1) <= wm,
        true,
        |_, _, counted| !counted,
        OnFire::Nothing,
        true
    );
}
graders::impl_stage05!(FiresTwice, FiresTwiceOperator, fires_twice);

/// **Mistake:** a fired window is only marked as fired, its aggregates are never dropped:
/// results are right, but state grows forever.
/// **Verdict:** `state` fails: after the final watermark `state_size()` is not 0.
mod never_purges {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end - 1 <= wm,
        true,
        |_, _, counted| !counted,
        OnFire::Mark,
        true
    );
}
graders::impl_stage05!(NeverPurges, NeverPurgesOperator, never_purges);

/// **Mistake:** `on_record` ignores the watermark: a record whose windows all fired
/// recreates them (counted, never reported late), and they fire again.
/// **Verdict:** `lateness` fails: a record behind every fired window is not returned as
/// `Late`.
mod counts_late_records {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end - 1 <= wm,
        false,
        |_, _, _| false,
        OnFire::Purge,
        true
    );
}
graders::impl_stage05!(
    CountsLateRecords,
    CountsLateRecordsOperator,
    counts_late_records
);

/// **Mistake:** stage 04's rule used for windows: a record is late as soon as
/// `ts <= watermark`, even when one of its (sliding or longer) windows is still open.
/// **Verdict:** `lateness` fails: a record behind the watermark whose window has not
/// fired is returned as `Late` instead of counted.
mod late_by_timestamp {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end - 1 <= wm,
        true,
        |ts, wm, counted| !counted || wm.is_some_and(|wm| ts <= wm),
        OnFire::Purge,
        true
    );
}
graders::impl_stage05!(LateByTimestamp, LateByTimestampOperator, late_by_timestamp);

/// **Mistake:** the snapshot holds the open windows but not the current watermark: a
/// restored operator takes a late record into a window that already fired, and fires it
/// again.
/// **Verdict:** `crash` fails: after the restore, a record the uninterrupted run reports
/// as late is counted.
mod watermark_not_in_snapshot {
    use super::OnFire;
    pub use solution05::*;
    window_operator!(
        |end, wm| end - 1 <= wm,
        true,
        |_, _, counted| !counted,
        OnFire::Purge,
        false
    );
}
graders::impl_stage05!(
    WatermarkNotInSnapshot,
    WatermarkNotInSnapshotOperator,
    watermark_not_in_snapshot
);

/// **Mistake:** a sliding record goes to one window only, the latest one that contains
/// it, as if sliding windows were tumbling windows shifted by the slide.
/// **Verdict:** `assign` fails: `Sliding::new(3, 1).assign(1)` is `[[1, 4)]` instead of
/// `[[0, 3), [1, 4)]`.
mod sliding_one_window {
    pub use solution05::*;

    #[derive(Debug, Clone, Copy)]
    pub struct Sliding(solution05::Sliding);
    impl Sliding {
        pub fn new(size: u64, slide: u64) -> anyhow::Result<Self> {
            Ok(Self(solution05::Sliding::new(size, slide)?))
        }
    }
    impl WindowAssigner for Sliding {
        fn assign(&self, ts: u64) -> Vec<Window> {
            self.0.assign(ts).pop().into_iter().collect()
        }
    }
}
graders::impl_stage05!(
    SlidingOneWindow,
    SlidingOneWindowOperator,
    sliding_one_window
);

/// **Mistake (the shortcut):** `window_sums` groups every record by key and window, the
/// batch answer, without running the operator: no watermark fires anything, and no
/// record is ever late.
/// **Verdict:** `window-sums` fails: a late record is counted in a window result.
mod batch_window_sums {
    pub use solution05::*;

    pub fn window_sums<K: Ord + Clone, A: WindowAssigner>(
        elements: &[StreamElement<KeyedEvent<K>>],
        assigner: A,
    ) -> (Vec<WindowResult<K>>, Vec<KeyedEvent<K>>) {
        let mut groups: std::collections::BTreeMap<(Window, K), (i64, u64)> = Default::default();
        for element in elements {
            if let StreamElement::Record(e) = element {
                for window in assigner.assign(e.ts) {
                    let g = groups.entry((window, e.value.0.clone())).or_default();
                    g.0 += e.value.1;
                    g.1 += 1;
                }
            }
        }
        let fired = groups
            .into_iter()
            .map(|((window, key), (sum, count))| WindowResult {
                key,
                window,
                sum,
                count,
            })
            .collect();
        (fired, Vec::new())
    }
}
graders::impl_stage05!(BatchWindowSums, BatchWindowSumsOperator, batch_window_sums);

/// **Mistake:** `Sliding::new` only refuses a slide of 0, so a slide larger than the size
/// (gaps between windows) is accepted: a record in a gap belongs to no window and is
/// silently never counted nor reported late.
/// **Verdict:** `errors` fails: `Sliding::new(2, 3)` returns `Ok`.
mod slide_beyond_size_accepted {
    pub use solution05::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Sliding {
        size: Timestamp,
        slide: Timestamp,
    }

    impl Sliding {
        pub fn new(size: Timestamp, slide: Timestamp) -> anyhow::Result<Self> {
            anyhow::ensure!(size > 0, "size must be at least 1, got 0");
            anyhow::ensure!(slide > 0, "slide must be at least 1, got 0");
            Ok(Self { size, slide })
        }
    }

    impl WindowAssigner for Sliding {
        fn assign(&self, ts: Timestamp) -> Vec<Window> {
            let last_start = ts - ts % self.slide;
            let mut starts: Vec<Timestamp> =
                std::iter::successors(Some(last_start), |s| s.checked_sub(self.slide))
                    .take_while(|s| s.saturating_add(self.size) > ts)
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
}
graders::impl_stage05!(
    SlideBeyondSize,
    SlideBeyondSizeOperator,
    slide_beyond_size_accepted
);

/// A correct variant (from a red-team round): `Sliding::new` checks the slide before the
/// size, so `Sliding::new(0, 0)` is refused for its slide ("slide must be at least 1, got
/// 0"), in words without `size`: a size of 0 and a slide of 0 at once may be named by
/// either.
mod slide_checked_before_size {
    pub use solution05::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Sliding(solution05::Sliding);

    impl Sliding {
        pub fn new(size: Timestamp, slide: Timestamp) -> anyhow::Result<Self> {
            anyhow::ensure!(slide > 0, "slide must be at least 1, got 0");
            anyhow::ensure!(size > 0, "size must be at least 1, got 0");
            anyhow::ensure!(slide <= size, "slide {slide} must not exceed size {size}");
            Ok(Self(solution05::Sliding::new(size, slide)?))
        }
    }

    impl WindowAssigner for Sliding {
        fn assign(&self, ts: Timestamp) -> Vec<Window> {
            self.0.assign(ts)
        }
    }
}
graders::impl_stage05!(
    SlideCheckedBeforeSize,
    SlideCheckedBeforeSizeOperator,
    slide_checked_before_size
);

accepted!(stage05_slide_checked_before_size_passes: Windows, drive::<SlideCheckedBeforeSize>);

/// Correct: every error message starts with a capital letter ("Size must be at least 1,
/// got 0"), which still contains the argument's name in another case of its letters, as
/// the brief allows (the seventeenth red team's c05-03 and c05-06: `Sliding::new(0, 1)`'s
/// check took `Size` for no name, where `Tumbling::new(0)`'s took it for one).
mod capitalised_messages {
    pub use solution05::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Tumbling(solution05::Tumbling);

    impl Tumbling {
        pub fn new(size: Timestamp) -> anyhow::Result<Self> {
            anyhow::ensure!(size > 0, "Size must be at least 1, got 0");
            Ok(Self(solution05::Tumbling::new(size)?))
        }
    }

    impl WindowAssigner for Tumbling {
        fn assign(&self, ts: Timestamp) -> Vec<Window> {
            self.0.assign(ts)
        }
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct Sliding(solution05::Sliding);

    impl Sliding {
        pub fn new(size: Timestamp, slide: Timestamp) -> anyhow::Result<Self> {
            anyhow::ensure!(size > 0, "Size must be at least 1, got 0");
            anyhow::ensure!(
                (1..=size).contains(&slide),
                "Slide must be between 1 and the window's length {size}, got {slide}"
            );
            Ok(Self(solution05::Sliding::new(size, slide)?))
        }
    }

    impl WindowAssigner for Sliding {
        fn assign(&self, ts: Timestamp) -> Vec<Window> {
            self.0.assign(ts)
        }
    }
}
graders::impl_stage05!(
    CapitalisedMessages,
    CapitalisedMessagesOperator,
    capitalised_messages
);

accepted!(stage05_capitalised_messages_pass: Windows, drive::<CapitalisedMessages>);

/// Every mutant of this file and the check that must reject it (the mutant's doc
/// comment says why).
#[rstest]
#[case::fires_at_end(drive::<FiresAtEnd>, "firing", "05-R2", "05-fires-at-the-end")]
#[case::fires_twice(drive::<FiresTwice>, "firing", "05-R2", "05-firing-keeps-the-window")]
#[case::watermark_at_firing(drive::<WatermarkAtFiring>, "firing", "05-R14", "05-watermark-only-when-firing")]
#[case::never_purges(drive::<NeverPurges>, "state", "05-R5", "05-fired-state-is-kept")]
#[case::late_by_timestamp(drive::<LateByTimestamp>, "lateness", "05-R7", "05-late-by-timestamp")]
#[case::watermark_not_in_snapshot(drive::<WatermarkNotInSnapshot>, "crash", "05-R15", "05-watermark-is-not-state")]
#[case::sliding_one_window(drive::<SlidingOneWindow>, "assign", "05-R8", "05-one-window-per-record")]
#[case::batch_window_sums(drive::<BatchWindowSums>, "window-sums", "05-R17", "05-sums-are-a-group-by")]
#[case::slide_beyond_size_accepted(drive::<SlideBeyondSize>, "errors", "05-R20", "05-any-slide-works")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = graders::harness::expect_rejected_for::<Windows>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}
mod configuration_and_top;
mod list_operator;
mod narrow_numbers;
mod partly_late;
mod read_leniently;
mod red_team;
mod red_team_layouts;
mod red_team_registry;
mod red_team_sizes;
mod restore_bytes;
mod top_of_time;
mod wordings;
