//! Stage 04 mutants of the contract's edges: records reordered or regrouped, the latest
//! watermark taken for the largest, an unknown input that panics, 0 taken for "no
//! watermark", the combined watermark left out of the snapshot, unreadable bytes taken
//! for a fresh instance.

/// **Mistake:** `with_watermarks` sorts the records by event time first ("the stream is
/// about event time"), then generates: the records no longer come in arrival order.
/// **Verdict:** `with-watermarks` fails: for arrivals `[1, 0]` the records come out as
/// `[0, 1]`.
mod with_watermarks_sorted {
    pub use solution04::*;

    pub fn with_watermarks<T: Clone>(
        events: &[Event<T>],
        max_delay: u64,
    ) -> Vec<StreamElement<Event<T>>> {
        let mut sorted = events.to_vec();
        sorted.sort_by_key(|e| e.ts);
        solution04::with_watermarks(&sorted, max_delay)
    }
}
graders::impl_stage04!(WithWatermarksSorted, with_watermarks_sorted);

/// **Mistake:** `split_late` gathers the late records in a set ordered by timestamp (to
/// "deduplicate" them), so they come out sorted, not in stream order.
/// **Verdict:** `lateness` fails: the late records `4` then `2` come out as `[2, 4]`.
mod late_records_sorted {
    pub use solution04::*;

    pub fn split_late<T: Clone + Ord>(
        elements: &[StreamElement<Event<T>>],
    ) -> (Vec<Event<T>>, Vec<Event<T>>) {
        let (on_time, late) = solution04::split_late(elements);
        let mut late: Vec<(u64, T)> = late.into_iter().map(|e| (e.ts, e.value)).collect();
        late.sort();
        (
            on_time,
            late.into_iter()
                .map(|(ts, value)| Event { ts, value })
                .collect(),
        )
    }
}
graders::impl_stage04!(LateRecordsSorted, late_records_sorted);

/// **Mistake:** `split_late` judges a record by the latest watermark before it, not the
/// largest: a watermark that goes back (the stream is not always `with_watermarks`'s)
/// takes the earlier promise back.
/// **Verdict:** `lateness` fails on `[W(6), W(2), R(4)]`: the record at 4 is called on
/// time.
mod latest_watermark_decides {
    pub use solution04::*;

    pub fn split_late<T: Clone>(
        elements: &[StreamElement<Event<T>>],
    ) -> (Vec<Event<T>>, Vec<Event<T>>) {
        let mut watermark = None;
        let (mut on_time, mut late) = (Vec::new(), Vec::new());
        for element in elements {
            match element {
                StreamElement::Watermark(wm) => watermark = Some(*wm),
                StreamElement::Record(e) if watermark.is_some_and(|wm| e.ts <= wm) => {
                    late.push(e.clone())
                }
                StreamElement::Record(e) => on_time.push(e.clone()),
            }
        }
        (on_time, late)
    }
}
graders::impl_stage04!(LatestWatermarkDecides, latest_watermark_decides);

/// **Mistake:** `on_watermark` indexes its inputs directly: an input that does not exist
/// panics (index out of bounds) instead of returning an error.
/// **Verdict:** `errors` fails: `on_watermark(2, 5)` on 2 inputs panics.
mod unknown_input_panics {
    pub use solution04::*;

    pub struct CombinedWatermark(solution04::CombinedWatermark, Vec<()>);
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            Ok(Self(
                solution04::CombinedWatermark::new(inputs)?,
                vec![(); inputs],
            ))
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            let () = self.1[input];
            self.0.on_watermark(input, ts)
        }
        pub fn current(&self) -> Option<u64> {
            self.0.current()
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            Ok(serde_json::to_vec(&(self.1.len(), self.0.snapshot()?))?)
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            let (inputs, inner): (usize, Vec<u8>) = serde_json::from_slice(bytes)?;
            Ok(Self(
                solution04::CombinedWatermark::restore(&inner)?,
                vec![(); inputs],
            ))
        }
    }
}
graders::impl_stage04!(UnknownInputPanics, unknown_input_panics);

/// **Mistake:** the combined watermark starts at 0 rather than `None` ("no watermark yet
/// is watermark 0"), so a combined watermark of 0 never counts as advancing.
/// **Verdict:** `contract` fails: one input reporting 0 returns `None`, expected
/// `Some(0)`.
mod zero_is_no_watermark {
    pub use solution04::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct CombinedWatermark {
        inputs: Vec<Option<u64>>,
        combined: u64,
    }
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            anyhow::ensure!(inputs > 0, "inputs must be at least 1, got 0");
            Ok(Self {
                inputs: vec![None; inputs],
                combined: 0,
            })
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            anyhow::ensure!(input < self.inputs.len(), "unknown input {input}");
            self.inputs[input] = self.inputs[input].max(Some(ts));
            let min = self.inputs.iter().copied().collect::<Option<Vec<u64>>>();
            match min.and_then(|m| m.into_iter().min()) {
                Some(c) if c > self.combined => {
                    self.combined = c;
                    Ok(Some(c))
                }
                _ => Ok(None),
            }
        }
        pub fn current(&self) -> Option<u64> {
            (self.combined > 0).then_some(self.combined)
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            Ok(serde_json::to_vec(self)?)
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            Ok(serde_json::from_slice(bytes)?)
        }
    }
}
graders::impl_stage04!(ZeroIsNoWatermark, zero_is_no_watermark);

/// **Mistake:** the combiner's snapshot holds the inputs' watermarks only, since "the
/// combined one is their minimum anyway": a restored combiner reports that minimum again.
/// **Verdict:** `crash` fails: after a restore, the next step reports the combined
/// watermark a second time.
mod combined_not_in_snapshot {
    pub use solution04::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct CombinedWatermark {
        inputs: Vec<Option<u64>>,
        #[serde(skip)]
        combined: Option<u64>,
    }
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            anyhow::ensure!(inputs > 0, "inputs must be at least 1, got 0");
            Ok(Self {
                inputs: vec![None; inputs],
                combined: None,
            })
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            anyhow::ensure!(input < self.inputs.len(), "unknown input {input}");
            self.inputs[input] = self.inputs[input].max(Some(ts));
            let candidate = self.inputs.iter().copied().collect::<Option<Vec<u64>>>();
            let candidate = candidate.and_then(|m| m.into_iter().min());
            if candidate > self.combined {
                self.combined = candidate;
                return Ok(candidate);
            }
            Ok(None)
        }
        pub fn current(&self) -> Option<u64> {
            self.combined
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            Ok(serde_json::to_vec(self)?)
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            Ok(serde_json::from_slice(bytes)?)
        }
    }
}
graders::impl_stage04!(CombinedNotInSnapshot, combined_not_in_snapshot);

/// **Mistake:** `restore` of bytes that do not parse starts a fresh generator (the
/// `unwrap_or` reflex), where the brief calls them an error.
/// **Verdict:** `errors` fails: `BoundedOutOfOrderness::restore(b"not a snapshot")`
/// returns a generator.
mod garbage_restores_fresh {
    pub use solution04::*;

    pub struct BoundedOutOfOrderness(solution04::BoundedOutOfOrderness);
    impl BoundedOutOfOrderness {
        pub fn new(max_delay: u64) -> Self {
            Self(solution04::BoundedOutOfOrderness::new(max_delay))
        }
        pub fn on_event(&mut self, ts: u64) {
            self.0.on_event(ts);
        }
        pub fn current_watermark(&self) -> Option<u64> {
            self.0.current_watermark()
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.0.snapshot()
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            Ok(Self(
                solution04::BoundedOutOfOrderness::restore(bytes)
                    .unwrap_or_else(|_| solution04::BoundedOutOfOrderness::new(0)),
            ))
        }
    }
}
graders::impl_stage04!(GarbageRestoresFresh, garbage_restores_fresh);
