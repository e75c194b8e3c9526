//! Stage 04 mutants whose `restore` reads the first JSON value and never asks whether
//! bytes follow it: a snapshot with anything after it restores, where the brief calls
//! bytes that are not a snapshot an error (04-R15).

use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

/// **Mistake:** the generator's `restore` reads its snapshot with a streaming
/// deserializer and takes the first value it finds.
/// **Verdict:** `errors`: its own snapshot of `new(2)` with ` trailing` after it restores.
mod generator_ignores_trailing {
    use anyhow::Result;
    pub use solution04::*;

    pub struct BoundedOutOfOrderness(solution04::BoundedOutOfOrderness);

    impl BoundedOutOfOrderness {
        pub fn new(max_delay: Timestamp) -> Self {
            Self(solution04::BoundedOutOfOrderness::new(max_delay))
        }
        pub fn on_event(&mut self, ts: Timestamp) {
            self.0.on_event(ts);
        }
        pub fn current_watermark(&self) -> Option<Timestamp> {
            self.0.current_watermark()
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            self.0.snapshot()
        }
        pub fn restore(bytes: &[u8]) -> Result<Self> {
            let first = serde_json::Deserializer::from_slice(bytes)
                .into_iter::<solution04::BoundedOutOfOrderness>()
                .next()
                .ok_or_else(|| anyhow::anyhow!("no snapshot"))??;
            Ok(Self(first))
        }
    }
}
graders::impl_stage04!(GeneratorIgnoresTrailing, generator_ignores_trailing);

/// The mutant, the check that must reject it and the requirement its failure names.
#[rstest]
#[case::generator_ignores_trailing(drive::<GeneratorIgnoresTrailing>, "errors", "04-R15")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    graders::harness::expect_rejected_for::<EventTime>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
