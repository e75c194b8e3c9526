//! Stage 04 mutants of a red-team round whose mistakes show only past a size the grader
//! never reached: the inputs that reported counted in a `u8` (past 256 inputs), and a
//! generator whose `max_ts` is the largest of its last 16 timestamps (past 16 records);
//! a cap on the inputs past the widest run of 257 (the sixth red team's w04-02), which
//! the combiner of 65,537 inputs meets.

use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

/// **Mistake:** the combiner counts the inputs that have reported in a `u8` ("no operator
/// has 256 inputs"), and reports nothing until the count reaches the number of inputs;
/// `restore` counts them again from the snapshot, `as u8`.
/// **Verdict:** `combiner` fails on the run of 257 inputs: the 256th input's first
/// report overflows the count (a panic in a debug build; wrapped to 0 otherwise, so the
/// last report never completes the inputs), and no combined watermark comes out (04-R8).
mod reported_count_u8 {
    pub use solution04::*;

    pub struct CombinedWatermark {
        inner: solution04::CombinedWatermark,
        seen: Vec<bool>,
        reported: u8,
    }
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            Ok(Self {
                inner: solution04::CombinedWatermark::new(inputs)?,
                seen: vec![false; inputs],
                reported: 0,
            })
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            let answer = self.inner.on_watermark(input, ts)?;
            if !self.seen[input] {
                self.seen[input] = true;
                self.reported += 1;
            }
            if usize::from(self.reported) < self.seen.len() {
                return Ok(None);
            }
            Ok(answer)
        }
        pub fn current(&self) -> Option<u64> {
            self.inner.current()
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.inner.snapshot()
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            let inner = solution04::CombinedWatermark::restore(bytes)?;
            let value: serde_json::Value = serde_json::from_slice(bytes)?;
            let seen: Vec<bool> = value["inputs"]
                .as_array()
                .map(|inputs| inputs.iter().map(|i| !i.is_null()).collect())
                .unwrap_or_default();
            let reported = seen.iter().filter(|s| **s).count() as u8;
            Ok(Self {
                inner,
                seen,
                reported,
            })
        }
    }
}
graders::impl_stage04!(ReportedCountU8, reported_count_u8);

/// **Mistake:** (w04-02 of the sixth red team) `new` refuses more than 1,024 inputs ("a
/// guard against a typo"): the brief makes only 0 inputs an error.
/// **Verdict:** `combiner`: `CombinedWatermark::new(65537)` fails, though only 0 inputs
/// is an error (04-R11).
mod at_most_1024_inputs {
    pub use solution04::*;

    const MAX_INPUTS: usize = 1024;

    pub struct CombinedWatermark(solution04::CombinedWatermark);
    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            anyhow::ensure!(
                inputs <= MAX_INPUTS,
                "inputs: {inputs} is more than {MAX_INPUTS}"
            );
            solution04::CombinedWatermark::new(inputs).map(Self)
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            self.0.on_watermark(input, ts)
        }
        pub fn current(&self) -> Option<u64> {
            self.0.current()
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            self.0.snapshot()
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            solution04::CombinedWatermark::restore(bytes).map(Self)
        }
    }
}
graders::impl_stage04!(AtMost1024Inputs, at_most_1024_inputs);

/// **Mistake:** the generator keeps its last 16 timestamps and takes their maximum for
/// `max_ts` ("out-of-order data is only ever a little out of order"), so a large
/// timestamp 16 records back is forgotten and the watermark goes back.
/// **Verdict:** `generator` fails on the long stream of 300 records: after record 17 the
/// watermark drops from `Some(297)` below it, though `max_ts` is still 300 (04-R1).
mod generator_max_of_last_16 {
    pub use solution04::*;

    use std::collections::VecDeque;

    const RECENT: usize = 16;

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct BoundedOutOfOrderness {
        max_delay: u64,
        recent: VecDeque<u64>,
    }
    impl BoundedOutOfOrderness {
        pub fn new(max_delay: u64) -> Self {
            Self {
                max_delay,
                recent: VecDeque::new(),
            }
        }
        pub fn on_event(&mut self, ts: u64) {
            if self.recent.len() == RECENT {
                self.recent.pop_front();
            }
            self.recent.push_back(ts);
        }
        pub fn current_watermark(&self) -> Option<u64> {
            let max_ts = self.recent.iter().copied().max()?;
            max_ts.checked_sub(self.max_delay)?.checked_sub(1)
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            Ok(serde_json::to_vec(self)?)
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(restored.recent.len() <= RECENT, "too many timestamps");
            Ok(restored)
        }
    }
}
graders::impl_stage04!(GeneratorMaxOfLast16, generator_max_of_last_16);

/// The mutants of this file, the check that must reject each and the requirement its
/// smallest failing case must name. No card: a width or a history chosen too small is a
/// slip, not a belief about watermarks.
#[rstest]
#[case::reported_count_u8(drive::<ReportedCountU8>, "combiner", "04-R8")]
#[case::at_most_1024_inputs(drive::<AtMost1024Inputs>, "combiner", "04-R11")]
#[case::generator_max_of_last_16(drive::<GeneratorMaxOfLast16>, "generator", "04-R1")]
fn is_rejected_without_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<EventTime>(drive, check, requirement);
}
