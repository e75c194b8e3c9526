//! Stage 04 mutants of the generator and the streams: watermarks off by one or below
//! zero, repeated, lateness at the wrong boundary, state missing from a snapshot.

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

/// **Mistake:** the watermark is `max_ts - max_delay`, without the `- 1` (the `None`
/// while `max_ts <= max_delay` kept): it promises that a record exactly `max_delay`
/// behind will not come, though it is within the bound.
/// **Verdict:** `generator` fails at `max_delay` 0: after a record at 1, the watermark
/// is `Some(1)`, expected `Some(0)`.
mod watermark_without_minus_one {
    pub use solution04::*;
    generator!(|max_ts, d| (max_ts > d).then(|| max_ts - d),);
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
