//! A stage 04 combiner whose snapshot is the hex of its JSON, where the digit
//! forgeries find no number to change (the fifth red team's w04-08), and which trusts
//! the combined watermark it reads; and the same format read strictly, which must pass.

use graders::harness::expect_rejected_for;
use graders::stage04::{Case, EventTime, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// The reference's combiner with the hex snapshot; `restore` decodes strictly, then
/// reads the JSON with the reference's checks where `$checked`, or as a derived
/// `Deserialize` takes it where not.
macro_rules! hex_combiner {
    (checked: $checked:expr) => {
        pub use solution04::*;

        pub struct CombinedWatermark(solution04::CombinedWatermark);

        impl CombinedWatermark {
            pub fn new(inputs: usize) -> anyhow::Result<Self> {
                solution04::CombinedWatermark::new(inputs).map(Self)
            }
            pub fn on_watermark(&mut self, input: usize, ts: u64) -> anyhow::Result<Option<u64>> {
                self.0.on_watermark(input, ts)
            }
            pub fn current(&self) -> Option<u64> {
                self.0.current()
            }
            pub fn snapshot(&self) -> anyhow::Result<Vec<u8>> {
                let json = self.0.snapshot()?;
                Ok(json
                    .iter()
                    .flat_map(|b| format!("{b:02x}").into_bytes())
                    .collect())
            }
            pub fn restore(bytes: &[u8]) -> anyhow::Result<Self> {
                anyhow::ensure!(bytes.len().is_multiple_of(2), "not a snapshot: odd hex");
                let lower = |b: &u8| b.is_ascii_digit() || (b'a'..=b'f').contains(b);
                anyhow::ensure!(
                    bytes.iter().all(lower),
                    "not a snapshot: not lower-case hex"
                );
                let json = bytes
                    .chunks(2)
                    .map(|pair| {
                        u8::from_str_radix(std::str::from_utf8(pair)?, 16).map_err(Into::into)
                    })
                    .collect::<anyhow::Result<Vec<u8>>>()?;
                if $checked {
                    return solution04::CombinedWatermark::restore(&json).map(Self);
                }
                let restored: solution04::CombinedWatermark = serde_json::from_slice(&json)?;
                let inputs = serde_json::to_value(&restored)?["inputs"].clone();
                anyhow::ensure!(
                    inputs.as_array().is_some_and(|inputs| !inputs.is_empty()),
                    "not a snapshot: no inputs"
                );
                Ok(Self(restored))
            }
        }
    };
}

/// **Mistake:** (w04-08) the snapshot is the hex of the combiner's JSON, "plain ASCII,
/// safe in any store", and `restore` takes the combined watermark it reads ("it was
/// written by `snapshot`, so it is the minimum").
/// **Verdict:** `errors`: its snapshot after inputs 3 and 5 reported, with a hex digit
/// changed so that the combined watermark reads 2, restores a combiner at 2 whose inputs
/// are at 3 and 5, which no run makes (04-R15).
pub mod combiner_hex_trusts_combined {
    hex_combiner!(checked: false);
}
graders::impl_stage04!(CombinerHexTrustsCombined, combiner_hex_trusts_combined);

/// **Control:** the same hex format, its JSON read with every check of the reference.
pub mod combiner_hex_snapshot {
    hex_combiner!(checked: true);
}
graders::impl_stage04!(CombinerHexSnapshot, combiner_hex_snapshot);

accepted!(stage04_combiner_hex_snapshot_passes: EventTime, drive::<CombinerHexSnapshot>);

/// The mutant above, the check that must reject it and the requirement it must name.
#[rstest]
#[case::combiner_hex_trusts_combined(drive::<CombinerHexTrustsCombined>, "errors", "04-R15")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    expect_rejected_for::<EventTime>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
}
