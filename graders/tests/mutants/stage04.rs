//! Stage 04 mutants: watermarks off by one or below zero, repeated, combined by the
//! maximum, lateness at the wrong boundary, state missing from a snapshot.

use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

use crate::rejects;

/// A `BoundedOutOfOrderness` whose watermark is `$formula(max_ts, max_delay)` and whose
/// snapshot is the reference's, unless `$skip` leaves `max_ts` out of it.
macro_rules! generator {
    ($formula:expr, $($skip:meta)?) => {
        #[derive(serde::Serialize, serde::Deserialize)]
        pub struct BoundedOutOfOrderness {
            max_delay: u64,
            $(#[$skip])?
            max_ts: Option<u64>,
        }
        impl BoundedOutOfOrderness {
            pub fn new(max_delay: u64) -> Self {
                Self { max_delay, max_ts: None }
            }
            pub fn on_event(&mut self, ts: u64) {
                self.max_ts = self.max_ts.max(Some(ts));
            }
            pub fn current_watermark(&self) -> Option<u64> {
                let formula: fn(u64, u64) -> Option<u64> = $formula;
                formula(self.max_ts?, self.max_delay)
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                Ok(serde_json::to_vec(self)?)
            }
            pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
                Ok(serde_json::from_slice(bytes)?)
            }
        }
    };
}

/// **Mistake:** the watermark is computed with `saturating_sub`, so near time 0 it is
/// `Some(0)` instead of `None`: a promise that timestamp 0 is complete, made too early.
/// **Verdict:** `generator` fails: after one record at a timestamp `<= max_delay`, the
/// watermark is `Some(0)`.
mod saturating_watermark {
    pub use solution04::*;
    generator!(|max_ts, d| Some(max_ts.saturating_sub(d).saturating_sub(1)),);
}
graders::impl_stage04!(SaturatingWatermark, saturating_watermark);

/// **Mistake:** the watermark as one subtraction that may fail,
/// `max_ts.checked_sub(max_delay + 1)`: right for every small bound, but `max_delay + 1`
/// overflows at `u64::MAX`.
/// **Verdict:** `generator` fails on the fixed case with `max_delay = u64::MAX`: "attempt
/// to add with overflow" in the debug build the grader runs (in release it wraps to 0,
/// and every record's own timestamp becomes the watermark).
mod delay_plus_one_overflows {
    pub use solution04::*;
    generator!(|max_ts, d| max_ts.checked_sub(d + 1),);
}
graders::impl_stage04!(DelayPlusOneOverflows, delay_plus_one_overflows);

/// **Mistake:** the watermark is `max_ts - max_delay`, without the `- 1`: it promises that
/// a record exactly `max_delay` behind will not come, though it is within the bound.
/// **Verdict:** `generator` fails at `max_delay` 0: after a record at 0, the watermark
/// is `Some(0)`, expected `None` (and after a record at 1 it would be 1, not 0).
mod watermark_without_minus_one {
    pub use solution04::*;
    generator!(|max_ts, d| max_ts.checked_sub(d),);
}
graders::impl_stage04!(WithoutMinusOne, watermark_without_minus_one);

/// **Mistake:** the largest timestamp is not part of the snapshot (`#[serde(skip)]` on a
/// field thought of as a cache): a restored generator starts again from no watermark.
/// **Verdict:** `crash` fails: right after the restore, `current_watermark()` is `None`.
mod max_ts_not_in_snapshot {
    pub use solution04::*;
    generator!(
        |max_ts, d| max_ts.checked_sub(d)?.checked_sub(1),
        serde(skip)
    );
}
graders::impl_stage04!(MaxTsNotInSnapshot, max_ts_not_in_snapshot);

/// **Mistake:** `with_watermarks` emits the current watermark after every record, also
/// when it did not advance.
/// **Verdict:** `with-watermarks` fails: after an older record the same watermark is
/// emitted again.
mod repeats_watermarks {
    pub use solution04::*;

    pub fn with_watermarks<T: Clone>(
        events: &[Event<T>],
        max_delay: Timestamp,
    ) -> Vec<StreamElement<Event<T>>> {
        let mut generator = BoundedOutOfOrderness::new(max_delay);
        let mut out = Vec::new();
        for event in events {
            generator.on_event(event.ts);
            out.push(StreamElement::Record(event.clone()));
            out.extend(generator.current_watermark().map(StreamElement::Watermark));
        }
        out
    }
}
graders::impl_stage04!(RepeatsWatermarks, repeats_watermarks);

/// **Mistake (the shortcut):** `with_watermarks` looks at the whole input, which a stream
/// cannot: it emits the final watermark once, after the last record.
/// **Verdict:** `with-watermarks` fails: the watermark after an early record is missing.
mod final_watermark_only {
    pub use solution04::*;

    pub fn with_watermarks<T: Clone>(
        events: &[Event<T>],
        max_delay: Timestamp,
    ) -> Vec<StreamElement<Event<T>>> {
        let mut out: Vec<_> = events.iter().cloned().map(StreamElement::Record).collect();
        let max_ts = events.iter().map(|e| e.ts).max();
        if let Some(wm) = max_ts.and_then(|m| m.checked_sub(max_delay)?.checked_sub(1)) {
            out.push(StreamElement::Watermark(wm));
        }
        out
    }
}
graders::impl_stage04!(FinalWatermarkOnly, final_watermark_only);

/// **Mistake:** a record is late only when its timestamp is strictly `<` the watermark:
/// a record at exactly `W` slips through, though `W` promised it would not come.
/// **Verdict:** `lateness` fails: with `max_delay` 0, a record at 3 after `W(3)` is
/// called on time.
mod late_strictly_below {
    pub use solution04::*;

    pub fn split_late<T: Clone>(
        elements: &[StreamElement<Event<T>>],
    ) -> (Vec<Event<T>>, Vec<Event<T>>) {
        let mut seen: Option<Timestamp> = None;
        let (mut on_time, mut late) = (Vec::new(), Vec::new());
        for element in elements {
            match element {
                StreamElement::Watermark(wm) => seen = seen.max(Some(*wm)),
                StreamElement::Record(e) if seen.is_some_and(|wm| e.ts < wm) => {
                    late.push(e.clone())
                }
                StreamElement::Record(e) => on_time.push(e.clone()),
            }
        }
        (on_time, late)
    }
}
graders::impl_stage04!(LateStrictlyBelow, late_strictly_below);

/// A `CombinedWatermark` whose candidate is `$combine(per-input watermarks)`, reported when
/// it advances.
macro_rules! combiner {
    ($combine:expr) => {
        #[derive(serde::Serialize, serde::Deserialize)]
        pub struct CombinedWatermark {
            inputs: Vec<Option<u64>>,
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
                let combine: fn(&[Option<u64>]) -> Option<u64> = $combine;
                let candidate = combine(&self.inputs);
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
    };
}

/// **Mistake:** the combined watermark is the maximum of the inputs', as if the fastest
/// input spoke for all: records of a slower input would all be late.
/// **Verdict:** `combiner` fails: with inputs at 3 and 5, it reports 5, expected 3.
mod combined_by_max {
    pub use solution04::*;
    combiner!(|inputs| if inputs.iter().all(Option::is_some) {
        inputs.iter().flatten().max().copied()
    } else {
        None
    });
}
graders::impl_stage04!(CombinedByMax, combined_by_max);

/// **Mistake:** an input's watermark is the latest it reported, not the largest, so a
/// smaller value later takes the promise back and holds the minimum down.
/// **Verdict:** `combiner` fails on the fixed run `(0, 5), (1, 4), (0, 2), (1, 6)`: the
/// last call returns `None`, expected `Some(5)`.
mod latest_input_watermark {
    pub use solution04::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct CombinedWatermark {
        inputs: Vec<Option<u64>>,
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
            self.inputs[input] = Some(ts);
            let candidate = if self.inputs.iter().all(Option::is_some) {
                self.inputs.iter().flatten().min().copied()
            } else {
                None
            };
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
graders::impl_stage04!(LatestInputWatermark, latest_input_watermark);

/// **Mistake:** inputs that have not reported are left out of the minimum, so the first
/// input's watermark is reported before the others have said anything.
/// **Verdict:** `combiner` fails: the very first `on_watermark` returns `Some`.
mod min_over_reported {
    pub use solution04::*;
    combiner!(|inputs| inputs.iter().flatten().min().copied());
}
graders::impl_stage04!(MinOverReported, min_over_reported);

/// **Mistake:** `CombinedWatermark::new(0)` is accepted: an operator with no inputs whose
/// watermark can never be computed (and `on_watermark` on it would index out of bounds).
/// **Verdict:** `errors` fails: `CombinedWatermark::new(0)` returned `Ok`.
mod zero_inputs_accepted {
    pub use solution04::*;

    pub struct CombinedWatermark(Option<solution04::CombinedWatermark>);
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            Ok(Self(solution04::CombinedWatermark::new(inputs).ok()))
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            self.0.as_mut().expect("an input").on_watermark(input, ts)
        }
        pub fn current(&self) -> Option<u64> {
            self.0
                .as_ref()
                .and_then(solution04::CombinedWatermark::current)
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.0.as_ref().expect("an input").snapshot()
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            Ok(Self(Some(solution04::CombinedWatermark::restore(bytes)?)))
        }
    }
}
graders::impl_stage04!(ZeroInputsAccepted, zero_inputs_accepted);

/// **Mistake:** the combined watermark is kept twice, in the field `on_watermark`
/// compares against and in a second one that `current()` reads, and only the first is
/// ever updated: "`on_watermark` returns it, so `current()` needs no care".
/// **Verdict:** `combiner` fails: after the first step that reports a watermark,
/// `current()` is `None`.
mod combined_not_stored {
    pub use solution04::*;

    pub struct CombinedWatermark {
        inner: solution04::CombinedWatermark,
        blank: Option<u64>,
    }
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            Ok(Self {
                inner: solution04::CombinedWatermark::new(inputs)?,
                blank: None,
            })
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            self.inner.on_watermark(input, ts)
        }
        pub fn current(&self) -> Option<u64> {
            self.blank
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.inner.snapshot()
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            Ok(Self {
                inner: solution04::CombinedWatermark::restore(bytes)?,
                blank: None,
            })
        }
    }
}
graders::impl_stage04!(CombinedNotStored, combined_not_stored);

/// Every mutant of this file and the check that must reject it (the mutant's doc
/// comment says why).
#[rstest]
#[case::saturating_watermark(drive::<SaturatingWatermark>, "generator", "04-watermark-from-max-minus-delay")]
#[case::watermark_without_minus_one(drive::<WithoutMinusOne>, "generator", "04-watermark-from-max-minus-delay")]
#[case::max_ts_not_in_snapshot(drive::<MaxTsNotInSnapshot>, "crash", "04-snapshot-without-progress")]
#[case::repeats_watermarks(drive::<RepeatsWatermarks>, "with-watermarks", "04-watermark-after-every-record")]
#[case::final_watermark_only(drive::<FinalWatermarkOnly>, "with-watermarks", "04-watermarks-from-the-whole-input")]
#[case::late_strictly_below(drive::<LateStrictlyBelow>, "lateness", "04-late-means-strictly-behind")]
#[case::combined_by_max(drive::<CombinedByMax>, "combiner", "04-fastest-input-wins")]
#[case::min_over_reported(drive::<MinOverReported>, "combiner", "04-silent-inputs-do-not-count")]
#[case::zero_inputs_accepted(drive::<ZeroInputsAccepted>, "errors", "04-zero-inputs-are-harmless")]
#[case::combined_not_stored(drive::<CombinedNotStored>, "combiner", "04-current-kept-apart")]
#[case::delay_plus_one_overflows(drive::<DelayPlusOneOverflows>, "generator", "04-delay-arithmetic-cannot-overflow")]
#[case::latest_input_watermark(drive::<LatestInputWatermark>, "combiner", "04-an-input-is-where-it-last-said")]
fn is_rejected(#[case] drive: fn(&Case) -> Observation, #[case] check: &str, #[case] card: &str) {
    crate::cards::shows(&rejects::<EventTime>(drive, check), card);
}
