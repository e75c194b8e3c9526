//! Stage 05 mutants at the top of time: window ends computed as `start + size`, which
//! pass past `u64::MAX` for the last windows; open windows keyed by their end, which two
//! windows cut short at `u64::MAX` share; `window_sums` that stops at `W(MAX)`; a sum kept
//! in an `i32`, which the top stream's large value breaks (mistakes
//! of unseen sets, accepted before the plan asked about timestamps there).

use graders::stage05::{Case, Observation, Windows, drive};
use rstest::rstest;

use super::flawed::Flaw;

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

/// **Mistake:** `assign` counts the windows of a record first, `(size - 1 + slide) /
/// slide` ("a record is in at most ceil(size / slide) windows", the fourteenth red
/// team's w05-09), then walks back that many slides: under the largest size the sum
/// overflows and panics.
/// **Verdict:** `assign` fails: `Sliding::new(u64::MAX, 2).assign(0)` panics (05-R21).
mod sliding_count_overflows {
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
            let per_record = (self.size - 1 + self.slide) / self.slide;
            let last = ts / self.slide;
            let first = last.saturating_sub(per_record - 1);
            (first..=last)
                .map(|k| k * self.slide)
                .filter(|start| start.saturating_add(self.size) > ts)
                .map(|start| Window {
                    start,
                    end: start.saturating_add(self.size),
                })
                .collect()
        }
    }
}
graders::impl_stage05!(
    SlidingCountOverflows,
    SlidingCountOverflowsOperator,
    sliding_count_overflows
);

/// **Mistake:** the open aggregates are keyed by the window's end, the timestamp that
/// fires it ("one assigner's windows never share an end"): at the top of time, where
/// ends are cut short at `u64::MAX`, two sliding windows of different starts share one,
/// and their aggregates merge into the first.
/// **Verdict:** `firing`: over `Sliding::new(1 << 63, 1 << 62)`, `W(MAX-1)` fires
/// `[2^63, MAX)` with every record counted twice and never `[3 * 2^62, MAX)` (05-R3).
mod keyed_by_end {
    use std::collections::BTreeMap;

    use anyhow::Result;
    use serde::{Serialize, de::DeserializeOwned};
    pub use solution05::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Snapshot<K> {
        watermark: Option<Timestamp>,
        open: Vec<(Window, K, i64, u64)>,
    }

    /// The window first seen with one end, and its `(sum, count)` per key.
    type Open<K> = (Window, BTreeMap<K, (i64, u64)>);

    pub struct WindowOperator<K, A> {
        assigner: A,
        /// By end.
        open: BTreeMap<Timestamp, Open<K>>,
        watermark: Option<Timestamp>,
    }

    impl<K: Ord + Clone + Serialize + DeserializeOwned, A: WindowAssigner> WindowOperator<K, A> {
        pub fn new(assigner: A) -> Self {
            Self {
                assigner,
                open: BTreeMap::new(),
                watermark: None,
            }
        }
        fn fired(&self, end: Timestamp) -> bool {
            self.watermark.is_some_and(|wm| end - 1 <= wm)
        }
        fn add(&mut self, window: Window, key: K, sum: i64, count: u64) {
            let (_, per_key) = self
                .open
                .entry(window.end)
                .or_insert_with(|| (window, BTreeMap::new()));
            let aggregate = per_key.entry(key).or_default();
            aggregate.0 += sum;
            aggregate.1 += count;
        }
        pub fn on_record(&mut self, key: K, ts: Timestamp, value: i64) -> Option<Late<K>> {
            let open: Vec<Window> = self
                .assigner
                .assign(ts)
                .into_iter()
                .filter(|w| !self.fired(w.end))
                .collect();
            if open.is_empty() {
                return Some(Late(Event::new(ts, (key, value))));
            }
            for window in open {
                self.add(window, key.clone(), value, 1);
            }
            None
        }
        pub fn on_watermark(&mut self, wm: Timestamp) -> Vec<WindowResult<K>> {
            if self.watermark.is_some_and(|current| wm <= current) {
                return Vec::new();
            }
            self.watermark = Some(wm);
            let due: Vec<Timestamp> = self
                .open
                .keys()
                .copied()
                .filter(|end| self.fired(*end))
                .collect();
            let mut fired = Vec::new();
            for end in due {
                let (window, per_key) = self.open.remove(&end).expect("due");
                fired.extend(per_key.into_iter().map(|(key, (sum, count))| WindowResult {
                    key,
                    window,
                    sum,
                    count,
                }));
            }
            fired
        }
        pub fn state_size(&self) -> usize {
            self.open.values().map(|(_, per_key)| per_key.len()).sum()
        }
        pub fn current_watermark(&self) -> Option<Timestamp> {
            self.watermark
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            let open = self
                .open
                .values()
                .flat_map(|(w, per_key)| per_key.iter().map(|(k, a)| (*w, k.clone(), a.0, a.1)))
                .collect();
            Ok(serde_json::to_vec(&Snapshot {
                watermark: self.watermark,
                open,
            })?)
        }
        pub fn restore(assigner: A, bytes: &[u8]) -> Result<Self> {
            let snapshot: Snapshot<K> = serde_json::from_slice(bytes)?;
            let mut operator = Self::new(assigner);
            operator.watermark = snapshot.watermark;
            let mut seen = std::collections::BTreeSet::new();
            for (window, key, sum, count) in snapshot.open {
                // What no snapshot holds, refused as the reference does: the mistake of
                // this mutant is elsewhere.
                anyhow::ensure!(count > 0, "an aggregate of no record");
                anyhow::ensure!(!operator.fired(window.end), "an open window that fired");
                anyhow::ensure!(
                    seen.insert((window, key.clone())),
                    "an aggregate listed twice"
                );
                operator.add(window, key, sum, count);
            }
            Ok(operator)
        }
    }

    pub fn window_sums<K, A>(
        elements: &[StreamElement<KeyedEvent<K>>],
        assigner: A,
    ) -> (Vec<WindowResult<K>>, Vec<KeyedEvent<K>>)
    where
        K: Ord + Clone + Serialize + DeserializeOwned,
        A: WindowAssigner,
    {
        let mut operator = WindowOperator::new(assigner);
        let (mut fired, mut late) = (Vec::new(), Vec::new());
        for element in elements {
            match element {
                StreamElement::Record(e) => late.extend(
                    operator
                        .on_record(e.value.0.clone(), e.ts, e.value.1)
                        .map(|l| l.0),
                ),
                StreamElement::Watermark(wm) => fired.extend(operator.on_watermark(*wm)),
            }
        }
        (fired, late)
    }
}
graders::impl_stage05!(KeyedByEnd, KeyedByEndOperator, keyed_by_end);

/// **Mistake:** `window_sums` stops at `W(MAX)`, "the end of the input": records after
/// it are never offered to the operator, so the late ones are missing from the side
/// output.
/// **Verdict:** `window-sums`: after `[a@1=5, W(MAX)]`, the late records `a@MAX-1=3` and
/// `b@0=-2` are not returned (05-R17).
mod window_sums_stops_at_max {
    pub use solution05::*;

    pub fn window_sums<K: Ord + Clone, A: WindowAssigner>(
        elements: &[StreamElement<KeyedEvent<K>>],
        assigner: A,
    ) -> (Vec<WindowResult<K>>, Vec<KeyedEvent<K>>) {
        let mut operator = WindowOperator::new(assigner);
        let (mut fired, mut late) = (Vec::new(), Vec::new());
        for element in elements {
            match element {
                StreamElement::Record(e) => late.extend(
                    operator
                        .on_record(e.value.0.clone(), e.ts, e.value.1)
                        .map(|l| l.0),
                ),
                StreamElement::Watermark(wm) => {
                    fired.extend(operator.on_watermark(*wm));
                    if *wm == Timestamp::MAX {
                        break;
                    }
                }
            }
        }
        (fired, late)
    }
}
graders::impl_stage05!(
    WindowSumsStopsAtMax,
    WindowSumsStopsAtMaxOperator,
    window_sums_stops_at_max
);

flawed!(
    /// **Mistake:** the aggregate's sum is kept in an `i32` ("values are small"): a value
    /// of `-3 * 2^40` truncates to 0.
    /// **Verdict:** `firing`: `b`'s window at the top of time sums to 0, not
    /// -3298534883328 (05-R3).
    sum_in_i32, SumInI32, SumInI32Operator, Flaw::SumInI32
);

/// The operator mutants at the top of time, the check that rejects each and the
/// requirement its failure names; no card is shown (a belief about the top of `u64`
/// that no card of the small streams explains).
#[rstest]
#[case::keyed_by_end(drive::<KeyedByEnd>, "firing", "05-R3")]
#[case::window_sums_stops_at_max(drive::<WindowSumsStopsAtMax>, "window-sums", "05-R17")]
#[case::sum_in_i32(drive::<SumInI32>, "firing", "05-R3")]
#[case::sliding_count_overflows(drive::<SlidingCountOverflows>, "assign", "05-R21")]
fn is_rejected_without_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Windows>(drive, check, requirement);
}

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
