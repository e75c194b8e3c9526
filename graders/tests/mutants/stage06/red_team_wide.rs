//! A stage 06 mutant of a red-team round whose number outgrows its type only past what
//! the other cases reach: a snapshot's checkpoint read as a `u128` and cast back to a
//! `u64` (a snapshot whose numbers are past `u64::MAX`).

use graders::stage06::{Barriers, Case, Observation, drive};
use rstest::rstest;

/// **Mistake:** the snapshot's completed checkpoint is read as a `u128` ("room for ids
/// past `u64`") with a derived `Deserialize`, and cast back with `as u64` (a red team's
/// w06-04). Written over the reference, whose snapshot it keeps.
/// **Verdict:** `configuration`: `{"completed":18446744073709551616}` (`2^64`) restores
/// as a fresh aligner, where no checkpoint id is past `u64::MAX` (06-R14).
mod completed_read_as_u128 {
    use anyhow::{Context, Result};
    pub use solution06::{Aligned, CheckpointId, Element, aligned_snapshots, inject_barriers};

    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Wide {
        completed: u128,
    }

    pub struct BarrierAligner<T>(solution06::BarrierAligner<T>);

    impl<T> BarrierAligner<T> {
        pub fn new(inputs: usize) -> Result<Self> {
            solution06::BarrierAligner::new(inputs).map(Self)
        }
        pub fn is_blocked(&self, input: usize) -> bool {
            self.0.is_blocked(input)
        }
        pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
            self.0.on_element(input, e)
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            self.0.snapshot()
        }
        pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
            let wide: Wide = serde_json::from_slice(bytes)
                .context("restoring a barrier aligner: not a snapshot")?;
            let narrowed = format!("{{\"completed\":{}}}", wide.completed as CheckpointId);
            solution06::BarrierAligner::restore(inputs, narrowed.as_bytes()).map(Self)
        }
    }
}
graders::impl_stage06!(CompletedReadAsU128, completed_read_as_u128);

/// Every mutant of this file, the check that must reject it and the requirement its
/// smallest failing case must name; no card: slips of width, which no belief explains.
#[rstest]
#[case::completed_read_as_u128(drive::<CompletedReadAsU128>, "configuration", "06-R14")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<Barriers>(drive, check, requirement);
}
