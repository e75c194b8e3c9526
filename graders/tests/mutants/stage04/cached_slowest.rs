//! A stage 04 combiner that caches which input is the slowest, from the red team of
//! 2026-12-05: every single call on a forged restore answers as some real combiner does,
//! and only the call after shows that the cache was trusted.

use graders::harness::expect_rejected_for;
use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

/// **Mistake:** (the red team's w04-07) the combiner keeps the index of its slowest input
/// and scans the inputs again only when that input reports ("only the slowest input can
/// move the minimum"); `restore` checks that the index is an input and that the combined
/// watermark is the minimum, but not that the input it names holds that minimum.
/// **Verdict:** `errors`: its snapshot after inputs 3 and 5 reported, with the slowest
/// input changed to 1, restores a combiner that answers each single call as one at 3 and
/// 3 does, but after `on_watermark(1, 0)`, `on_watermark(0, 40)` reports 5 (04-R15).
mod combiner_trusts_cached_slowest {
    pub use solution04::*;

    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct CombinedWatermark {
        inputs: Vec<Option<u64>>,
        combined: Option<u64>,
        /// The slowest input, once every input has reported.
        argmin: usize,
    }

    impl CombinedWatermark {
        pub fn new(inputs: usize) -> anyhow::Result<Self> {
            anyhow::ensure!(inputs > 0, "inputs must be at least 1, got 0");
            Ok(Self {
                inputs: vec![None; inputs],
                combined: None,
                argmin: 0,
            })
        }

        pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
            let count = self.inputs.len();
            let Some(slot) = self.inputs.get_mut(input) else {
                anyhow::bail!("input must be below the number of inputs {count}, got {input}");
            };
            *slot = Some(slot.map_or(ts, |old| old.max(ts)));
            if self.combined.is_some() && input != self.argmin {
                // Another input than the slowest moved: the minimum stays where it is.
                return Ok(None);
            }
            let Some((argmin, minimum)) = self.scan() else {
                return Ok(None);
            };
            self.argmin = argmin;
            if Some(minimum) > self.combined {
                self.combined = Some(minimum);
                return Ok(Some(minimum));
            }
            Ok(None)
        }

        pub fn current(&self) -> Option<u64> {
            self.combined
        }

        /// The slowest input and its watermark, `None` while one input is silent.
        fn scan(&self) -> Option<(usize, u64)> {
            let mut best: Option<(usize, u64)> = None;
            for (i, w) in self.inputs.iter().enumerate() {
                let w = (*w)?;
                if best.is_none_or(|(_, b)| w < b) {
                    best = Some((i, w));
                }
            }
            best
        }

        pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
            Ok(serde_json::to_vec(self)?)
        }

        pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
            let restored: Self = serde_json::from_slice(bytes)?;
            anyhow::ensure!(!restored.inputs.is_empty(), "not a snapshot: no inputs");
            anyhow::ensure!(
                restored.argmin < restored.inputs.len(),
                "not a snapshot: no input {}",
                restored.argmin
            );
            anyhow::ensure!(
                restored.combined == restored.scan().map(|(_, m)| m),
                "not a snapshot: combined is not the minimum"
            );
            Ok(restored)
        }
    }
}
graders::impl_stage04!(CombinerTrustsCachedSlowest, combiner_trusts_cached_slowest);

/// The mutant above, the check that must reject it and the requirement it must name.
#[rstest]
#[case::combiner_trusts_cached_slowest(drive::<CombinerTrustsCachedSlowest>, "errors", "04-R15")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<EventTime>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
