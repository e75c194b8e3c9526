//! Stage 04 variants of the fifth red team: a generator whose text snapshot goes through
//! an `f64`, and a correct combiner whose errors start with a capital letter.

use graders::harness::expect_rejected_for;
use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// **Mistake:** (w04-07) the generator's snapshot is text, its largest timestamp written
/// and read as an `f64` ("a number is a number"): past 2^53 an `f64` holds only even
/// integers, so a restore moves the watermark.
/// **Verdict:** `contract`: at `max_delay` 0, `on_event(2^53 + 3)` then a restore reads
/// `current_watermark()` 2^53 + 3, not 2^53 + 2 (04-R13).
mod generator_text_through_f64 {
    pub use solution04::*;

    pub struct BoundedOutOfOrderness {
        max_delay: u64,
        max_ts: Option<u64>,
    }

    impl BoundedOutOfOrderness {
        pub fn new(max_delay: u64) -> Self {
            Self {
                max_delay,
                max_ts: None,
            }
        }
        pub fn on_event(&mut self, ts: u64) {
            self.max_ts = Some(self.max_ts.map_or(ts, |max| max.max(ts)));
        }
        pub fn current_watermark(&self) -> Option<u64> {
            self.max_ts?.checked_sub(self.max_delay)?.checked_sub(1)
        }
        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            let max_ts = self
                .max_ts
                .map_or("-".to_owned(), |ts| (ts as f64).to_string());
            Ok(format!("{} {max_ts}", self.max_delay).into_bytes())
        }
        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            let text = std::str::from_utf8(bytes)?;
            let Some((max_delay, max_ts)) = text.split_once(' ') else {
                anyhow::bail!("not a snapshot: {text:?}");
            };
            let max_ts = match max_ts {
                "-" => None,
                ts => Some(ts.parse::<f64>()? as u64),
            };
            let restored = Self {
                max_delay: max_delay.parse()?,
                max_ts,
            };
            anyhow::ensure!(restored.snapshot()? == bytes, "not a snapshot: {text:?}");
            Ok(restored)
        }
    }
}
graders::impl_stage04!(GeneratorTextThroughF64, generator_text_through_f64);

/// **Control:** (c04-03) the reference, with error messages that start with a capital
/// letter: "Inputs: ..." contains `inputs` as the brief means it.
mod capitalised_errors {
    pub use solution04::*;

    fn capitalised(e: anyhow::Error) -> anyhow::Error {
        let message = format!("{e:#}");
        let mut letters = message.chars();
        let first = letters.next().map(|c| c.to_uppercase().to_string());
        anyhow::anyhow!("{}{}", first.unwrap_or_default(), letters.as_str())
    }

    pub struct CombinedWatermark(solution04::CombinedWatermark);

    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            solution04::CombinedWatermark::new(inputs)
                .map(Self)
                .map_err(capitalised)
        }
        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            self.0.on_watermark(input, ts).map_err(capitalised)
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
graders::impl_stage04!(CapitalisedErrors, capitalised_errors);

accepted!(stage04_capitalised_errors_pass: EventTime, drive::<CapitalisedErrors>);

/// The mutant above, the check that must reject it and the requirement it must name.
#[rstest]
#[case::generator_text_through_f64(drive::<GeneratorTextThroughF64>, "contract", "04-R13")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<EventTime>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
