//! Stage 04 mutants written from the brief's sentences alone, each breaking one rule: an
//! input index checked with an addition that overflows, and mistakes the grader already
//! rejected when they were written (a first watermark of 0 not emitted, reports counted
//! instead of inputs, an error that does not name `input`, "no watermark" read as 0 in
//! `split_late`, a snapshot without `max_delay`), and two from an unseen set whose
//! failures first named the wrong rule: a combiner that answers every call (once blamed on
//! 04-R9 where a smaller report came first) and a lateness test `ts < wm + 1` (a bare
//! panic, now 04-R16's failure).

use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

/// A combiner mutant: the reference behind a wrapper whose `on_watermark` is `$body`.
macro_rules! combiner {
    ($(#[$doc:meta])* $name:ident, $binding:ident, |$this:ident, $input:ident, $ts:ident| $body:block) => {
        $(#[$doc])*
        mod $name {
            #![allow(unused_imports)]
            use anyhow::{Result, bail, ensure};
            pub use solution04::*;
            pub struct CombinedWatermark {
                inner: solution04::CombinedWatermark,
                inputs: usize,
                reports: usize,
                /// Each input's last watermark (read by `regression_refused` only).
                #[allow(dead_code)]
                marks: Vec<Option<Timestamp>>,
            }
            impl CombinedWatermark {
                pub fn new(inputs: usize) -> Result<Self> {
                    Ok(Self { inner: solution04::CombinedWatermark::new(inputs)?, inputs, reports: 0, marks: vec![None; inputs] })
                }
                pub fn on_watermark(&mut self, $input: usize, $ts: Timestamp) -> Result<Option<Timestamp>> {
                    let $this = self;
                    $body
                }
                pub fn current(&self) -> Option<Timestamp> { self.inner.current() }
                pub fn snapshot(&self) -> Result<Vec<u8>> {
                    let mut bytes = format!("{} {} ", self.inputs, self.reports).into_bytes();
                    bytes.extend(self.inner.snapshot()?);
                    Ok(bytes)
                }
                pub fn restore(bytes: &[u8]) -> Result<Self> {
                    let text = std::str::from_utf8(bytes)?;
                    let mut parts = text.splitn(3, ' ');
                    let inputs = parts.next().unwrap_or("").parse()?;
                    let reports = parts.next().unwrap_or("").parse()?;
                    let json = parts.next().unwrap_or("");
                    let inner = solution04::CombinedWatermark::restore(json.as_bytes())?;
                    // The count written first is the inner combiner's: bytes that say
                    // otherwise are no snapshot.
                    let listed = serde_json::from_str::<serde_json::Value>(json)?["inputs"]
                        .as_array()
                        .map_or(0, Vec::len);
                    ensure!(listed == inputs, "not a snapshot: {inputs} inputs, {listed} listed");
                    Ok(Self { inner, inputs, reports, marks: vec![None; inputs] })
                }
            }
        }
        graders::impl_stage04!($binding, $name);
    };
}

combiner! {
    /// **Mistake:** the input index checked as `input + 1 > inputs`, which overflows
    /// (and panics in a debug build) for the largest index. **Verdict:** `errors` fails:
    /// `on_watermark(usize::MAX, 5)` panics instead of returning an error (04-R12).
    far_input_overflows, FarInputOverflows, |this, input, ts| {
        if input + 1 > this.inputs {
            bail!("input {input} does not exist");
        }
        this.inner.on_watermark(input, ts)
    }
}

combiner! {
    /// **Mistake:** the input kept in a `u32` ("no job has four billion inputs"):
    /// `input as u32` takes input `1 << 32` for input 0 (the fifteenth red team's
    /// w04-03). **Verdict:** `errors` fails: `on_watermark(1 << 32, 5)` on 2 inputs
    /// answers where an error naming `input` is due (04-R12).
    input_as_u32, InputAsU32, |this, input, ts| {
        let input = input as u32 as usize;
        this.inner.on_watermark(input, ts)
    }
}

combiner! {
    /// **Mistake:** "every input has reported" counted as "as many reports as inputs",
    /// so one input reporting twice stands for a silent one. **Verdict:** `combiner`
    /// fails: input 0 reports twice, input 1 never, and a combined watermark comes out
    /// (04-R8).
    reports_counted, ReportsCounted, |this, input, ts| {
        let out = this.inner.on_watermark(input, ts)?;
        this.reports += 1;
        if out.is_none() && this.reports >= this.inputs && this.inner.current().is_none() {
            return Ok(Some(ts));
        }
        Ok(out)
    }
}

combiner! {
    /// **Mistake:** the unknown input's error says "no such stream", not which argument.
    /// **Verdict:** `errors` fails: the message does not contain `input` (04-R12).
    stream_not_input, StreamNotInput, |this, input, ts| {
        if input >= this.inputs {
            bail!("no such stream: {input}");
        }
        this.inner.on_watermark(input, ts)
    }
}

combiner! {
    /// A correct variant: its own range check and error wording, its own snapshot
    /// format (a text prefix before the reference's bytes).
    own_range_check, OwnRangeCheck, |this, input, ts| {
        ensure!(input < this.inputs, "input {input} is out of range 0..{}", this.inputs);
        this.inner.on_watermark(input, ts)
    }
}
crate::accepted!(a_combiner_with_its_own_range_check_passes: EventTime, drive::<OwnRangeCheck>);

combiner! {
    /// **Mistake:** `on_watermark` answers with the combined watermark whenever there is
    /// one, as a getter would, not only in the call where it advances. **Verdict:**
    /// `combiner` fails on the first report that does not move the minimum (04-R7), even
    /// where that report is a smaller watermark than the input's last: the smaller value
    /// is ignored as it should be, so the promise was kept and the fault is the re-report.
    reports_every_call, ReportsEveryCall, |this, input, ts| {
        let advanced = this.inner.on_watermark(input, ts)?;
        Ok(advanced.or(this.inner.current()))
    }
}

combiner! {
    /// **Mistake:** a watermark smaller than the input's last is refused with an error
    /// ("a watermark must never go back"), where the brief says it changes nothing.
    /// **Verdict:** `combiner` fails: input 0 reports 1 then 0, and the second call is an
    /// error (04-R9, whether or not the other inputs have reported).
    regression_refused, RegressionRefused, |this, input, ts| {
        if let Some(last) = this.marks.get(input).copied().flatten() {
            ensure!(ts >= last, "input {input}'s watermark went back from {last} to {ts}");
        }
        let out = this.inner.on_watermark(input, ts)?;
        this.marks[input] = Some(ts);
        Ok(out)
    }
}

/// **Mistake:** `with_watermarks` remembers the last watermark emitted as a `u64`
/// starting at 0, and emits only a larger one: a first watermark of 0 never comes out.
/// **Verdict:** `with-watermarks` fails: arrivals `[1]` with `max_delay = 0` give no
/// `Watermark(0)` (04-R4).
mod first_zero_not_emitted {
    pub use solution04::*;
    pub fn with_watermarks<T: Clone>(
        events: &[Event<T>],
        max_delay: u64,
    ) -> Vec<StreamElement<Event<T>>> {
        let mut generator = BoundedOutOfOrderness::new(max_delay);
        let (mut last, mut out) = (0, Vec::new());
        for event in events {
            generator.on_event(event.ts);
            out.push(StreamElement::Record(event.clone()));
            if let Some(wm) = generator.current_watermark().filter(|wm| *wm > last) {
                out.push(StreamElement::Watermark(wm));
                last = wm;
            }
        }
        out
    }
}
graders::impl_stage04!(FirstZeroNotEmitted, first_zero_not_emitted);

/// **Mistake:** `split_late` starts from watermark 0 instead of "none", so a record at
/// time 0 before any watermark is late. **Verdict:** `lateness` fails (04-R6).
mod late_before_any_watermark {
    pub use solution04::*;
    pub fn split_late<T: Clone>(
        elements: &[StreamElement<Event<T>>],
    ) -> (Vec<Event<T>>, Vec<Event<T>>) {
        let (mut wm, mut on_time, mut late) = (0, Vec::new(), Vec::new());
        for element in elements {
            match element {
                StreamElement::Watermark(w) => wm = wm.max(*w),
                StreamElement::Record(e) if e.ts <= wm => late.push(e.clone()),
                StreamElement::Record(e) => on_time.push(e.clone()),
            }
        }
        (on_time, late)
    }
}
graders::impl_stage04!(LateBeforeAnyWatermark, late_before_any_watermark);

/// **Mistake:** `split_late` calls a record late when `ts < wm + 1`, the same rule as
/// `ts <= wm` until a watermark reaches `u64::MAX`. **Verdict:** `lateness` fails: the
/// addition overflows (04-R16, every timestamp up to `u64::MAX` is valid).
mod late_below_watermark_plus_one {
    pub use solution04::*;
    pub fn split_late<T: Clone>(
        elements: &[StreamElement<Event<T>>],
    ) -> (Vec<Event<T>>, Vec<Event<T>>) {
        let (mut wm, mut on_time, mut late) = (None::<u64>, Vec::new(), Vec::new());
        for element in elements {
            match element {
                StreamElement::Watermark(w) => wm = wm.max(Some(*w)),
                StreamElement::Record(e) if wm.is_some_and(|wm| e.ts < wm + 1) => {
                    late.push(e.clone())
                }
                StreamElement::Record(e) => on_time.push(e.clone()),
            }
        }
        (on_time, late)
    }
}
graders::impl_stage04!(LateBelowWatermarkPlusOne, late_below_watermark_plus_one);

/// Every mutant of this file, the check that must reject it, the requirement its smallest
/// failing case must name and the card its report must show. No card for an overflowing
/// bound check (a slip): see [`shows_no_coincidental_card`]. A first `W(0)` never emitted
/// is "nothing emitted yet" kept as 0.
#[rstest]
#[case::far_input_overflows(drive::<FarInputOverflows>, "errors", "04-R12", None)]
#[case::input_as_u32(drive::<InputAsU32>, "errors", "04-R12", None)]
#[case::reports_counted(drive::<ReportsCounted>, "combiner", "04-R8", Some("04-silent-inputs-do-not-count"))]
#[case::stream_not_input(drive::<StreamNotInput>, "errors", "04-R12", Some("04-any-error-will-do"))]
#[case::first_zero_not_emitted(drive::<FirstZeroNotEmitted>, "with-watermarks", "04-R4", Some("04-zero-is-no-watermark"))]
#[case::late_before_any_watermark(drive::<LateBeforeAnyWatermark>, "lateness", "04-R6", Some("04-zero-is-no-watermark"))]
#[case::reports_every_call(drive::<ReportsEveryCall>, "combiner", "04-R7", None)]
#[case::regression_refused(drive::<RegressionRefused>, "combiner", "04-R9", None)]
#[case::late_below_watermark_plus_one(drive::<LateBelowWatermarkPlusOne>, "lateness", "04-R16", Some("04-delay-arithmetic-cannot-overflow"))]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report = graders::harness::expect_rejected_for::<EventTime>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}

/// Mutants whose smallest cases look like another mistake's card: an index check whose
/// `input + 1` overflows panics on `usize::MAX`, as `04-inputs-are-trusted`'s unchecked
/// index panics. No card may be shown.
#[rstest]
#[case::far_input_overflows(drive::<FarInputOverflows>, "errors", "04-R12")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<EventTime>(drive, check, requirement);
}
