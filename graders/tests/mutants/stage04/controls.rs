//! Stage 04 controls: correct solutions that take choices the brief leaves open, which
//! the grader must accept without a card.

use crate::accepted;

/// Correct, built another way: the generator keeps its watermark rather than `max_ts`
/// (raised with checked arithmetic; `restore` refuses a watermark no `max_ts` makes,
/// which `derived_fields::generator_watermark_trusted` does not), the combiner keeps its
/// inputs in a map with its own snapshot format, and every error is worded its own way
/// (still naming the argument).
mod kept_apart {
    pub use solution04::{Event, StreamElement, split_late, with_watermarks};
    use std::collections::BTreeMap;

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct BoundedOutOfOrderness {
        max_delay: u64,
        watermark: Option<u64>,
    }
    impl BoundedOutOfOrderness {
        pub fn new(max_delay: u64) -> Self {
            Self {
                max_delay,
                watermark: None,
            }
        }
        pub fn on_event(&mut self, ts: u64) {
            let candidate = ts
                .checked_sub(self.max_delay)
                .and_then(|d| d.checked_sub(1));
            self.watermark = self.watermark.max(candidate);
        }
        pub fn current_watermark(&self) -> Option<u64> {
            self.watermark
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            Ok(serde_json::to_vec(self)?)
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            let generator: Self = serde_json::from_slice(bytes)?;
            let made = generator.watermark.is_none_or(|w| {
                w.checked_add(generator.max_delay)
                    .and_then(|sum| sum.checked_add(1))
                    .is_some()
            });
            anyhow::ensure!(
                made,
                "not a generator snapshot: no max_ts makes that watermark"
            );
            Ok(generator)
        }
    }

    pub struct CombinedWatermark {
        count: usize,
        marks: BTreeMap<usize, u64>,
        reported: Option<u64>,
    }
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            anyhow::ensure!(
                inputs > 0,
                "a combiner needs at least one input (inputs = 0)"
            );
            Ok(Self {
                count: inputs,
                marks: BTreeMap::new(),
                reported: None,
            })
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            anyhow::ensure!(
                input < self.count,
                "no such input: {input} of {}",
                self.count
            );
            let mark = self.marks.entry(input).or_insert(ts);
            *mark = (*mark).max(ts);
            if self.marks.len() < self.count {
                return Ok(None);
            }
            let min = self.marks.values().copied().min();
            if min > self.reported {
                self.reported = min;
                return Ok(min);
            }
            Ok(None)
        }
        pub fn current(&self) -> Option<u64> {
            self.reported
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            let marks: Vec<(usize, u64)> = self.marks.iter().map(|(k, v)| (*k, *v)).collect();
            let mut bytes = b"CW1".to_vec();
            bytes.extend(serde_json::to_vec(&(self.count, marks, self.reported))?);
            Ok(bytes)
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            let json = bytes
                .strip_prefix(b"CW1")
                .ok_or_else(|| anyhow::anyhow!("not a combiner snapshot"))?;
            let (count, marks, reported): (usize, Vec<(usize, u64)>, Option<u64>) =
                serde_json::from_slice(json)?;
            anyhow::ensure!(
                count > 0 && marks.iter().all(|&(input, _)| input < count),
                "not a combiner snapshot: an input it does not have"
            );
            let restored = Self {
                count,
                marks: marks.into_iter().collect(),
                reported,
            };
            // What a combiner reported last is the minimum of its inputs', once all have
            // reported; and only bytes `snapshot` writes (each input once, in order).
            let minimum = if restored.marks.len() < count {
                None
            } else {
                restored.marks.values().copied().min()
            };
            anyhow::ensure!(
                reported == minimum && restored.snapshot()? == bytes,
                "not a combiner snapshot"
            );
            Ok(restored)
        }
    }
}
graders::impl_stage04!(KeptApart, kept_apart);
accepted!(stage04_kept_apart_passes: graders::stage04::EventTime, graders::stage04::drive::<KeptApart>);

/// Correct, computing instead of storing: `with_watermarks` computes each watermark from
/// the prefix's maximum, `split_late` folds the largest watermark with `Option::max`.
mod recomputed {
    pub use solution04::{BoundedOutOfOrderness, CombinedWatermark, Event, StreamElement};

    pub fn with_watermarks<T: Clone>(
        events: &[Event<T>],
        max_delay: u64,
    ) -> Vec<StreamElement<Event<T>>> {
        let mut out = Vec::new();
        let mut emitted: Option<u64> = None;
        for (i, event) in events.iter().enumerate() {
            out.push(StreamElement::Record(event.clone()));
            let max_ts = events[..=i].iter().map(|e| e.ts).max().unwrap_or(0);
            let wm = (max_ts > max_delay).then(|| max_ts - max_delay - 1);
            if wm > emitted {
                emitted = wm;
                out.push(StreamElement::Watermark(wm.unwrap_or_default()));
            }
        }
        out
    }

    pub fn split_late<T: Clone>(
        elements: &[StreamElement<Event<T>>],
    ) -> (Vec<Event<T>>, Vec<Event<T>>) {
        let mut largest: Option<u64> = None;
        let mut on_time = Vec::new();
        let mut late = Vec::new();
        for element in elements {
            match element {
                StreamElement::Watermark(wm) => largest = largest.max(Some(*wm)),
                StreamElement::Record(e) => match largest {
                    Some(wm) if e.ts <= wm => late.push(e.clone()),
                    _ => on_time.push(e.clone()),
                },
            }
        }
        (on_time, late)
    }
}
graders::impl_stage04!(Recomputed, recomputed);
accepted!(stage04_recomputed_passes: graders::stage04::EventTime, graders::stage04::drive::<Recomputed>);
