//! Stage 06 mutant whose `restore` reads a second layout that its `snapshot` never
//! writes (the sixteenth red team's w06-04): the probe of one state in other layouts
//! (`graders::stage06::layouts`) must reject it, and still pass the correct variants
//! that read other layouts only as a derived `Deserialize` does (`restore_plain_derive`,
//! `zero_left_out`).

use graders::stage06::layouts::LAYOUTS;
use graders::stage06::{Barriers, Case, Observation, drive};
use rstest::rstest;

/// **Mistake:** the snapshot writes the next checkpoint, `{"next": n}`, and `restore`
/// still reads "snapshots from before `next`", the `{"completed": n}` its `snapshot`
/// no longer writes, by a second struct tried when the first fails (the sixteenth red
/// team's w06-04): bytes that are not its snapshot restore.
/// **Verdict:** `configuration`: `{"completed":1}` restores an aligner whose own
/// snapshot is `{"next":2}`, no derived reading of those bytes (06-R14).
mod legacy_completed_read {
    use anyhow::{Context, Result};
    use serde::{Deserialize, Serialize};
    pub use solution06::{Aligned, CheckpointId, Element, aligned_snapshots, inject_barriers};

    pub struct BarrierAligner<T>(solution06::BarrierAligner<T>);

    /// The snapshot: the next checkpoint the aligner expects.
    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Durable {
        next: CheckpointId,
    }

    /// The earlier snapshot: the checkpoint completed last (the reference's layout).
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct LegacyDurable {
        completed: CheckpointId,
    }

    impl<T> BarrierAligner<T> {
        pub fn new(inputs: usize) -> Result<Self> {
            Ok(Self(solution06::BarrierAligner::new(inputs)?))
        }
        pub fn is_blocked(&self, input: usize) -> bool {
            self.0.is_blocked(input)
        }
        pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
            self.0.on_element(input, e)
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            let reference: serde_json::Value = serde_json::from_slice(&self.0.snapshot()?)?;
            let completed = reference["completed"].as_u64().context("no completed")?;
            Ok(serde_json::to_vec(&Durable {
                next: completed + 1,
            })?)
        }
        pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
            let value: serde_json::Value = serde_json::from_slice(bytes)?;
            anyhow::ensure!(value.is_object(), "not a snapshot");
            let completed = match serde_json::from_value::<Durable>(value.clone()) {
                Ok(durable) => {
                    anyhow::ensure!(durable.next >= 1, "not a snapshot");
                    durable.next - 1
                }
                // Snapshots from before `next` said which checkpoint completed last.
                Err(error) => {
                    let legacy: LegacyDurable = serde_json::from_value(value).map_err(|_| error)?;
                    legacy.completed
                }
            };
            let reference = format!("{{\"completed\":{completed}}}");
            Ok(Self(solution06::BarrierAligner::restore(
                inputs,
                reference.as_bytes(),
            )?))
        }
    }
}
graders::impl_stage06!(LegacyCompletedRead, legacy_completed_read);

/// A correct variant (the twentieth red team's c06-17): the snapshot is the reference's
/// with a format version beside it, `{"version":1,"completed":c}`, and `restore` is a
/// derive whose `#[serde(default = "version_one")]` reads a version left out as 1: it
/// reads the reference's `{"completed":1}` as its own, into the state those bytes say.
mod versioned {
    use anyhow::Result;
    use serde::{Deserialize, Serialize};
    pub use solution06::{Aligned, CheckpointId, Element, aligned_snapshots, inject_barriers};

    pub struct BarrierAligner<T>(solution06::BarrierAligner<T>);

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Durable {
        #[serde(default = "version_one")]
        version: u32,
        completed: CheckpointId,
    }

    fn version_one() -> u32 {
        1
    }

    impl<T> BarrierAligner<T> {
        pub fn new(inputs: usize) -> Result<Self> {
            Ok(Self(solution06::BarrierAligner::new(inputs)?))
        }
        pub fn is_blocked(&self, input: usize) -> bool {
            self.0.is_blocked(input)
        }
        pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
            self.0.on_element(input, e)
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            let reference: serde_json::Value = serde_json::from_slice(&self.0.snapshot()?)?;
            let completed = serde_json::from_value(reference["completed"].clone())?;
            Ok(serde_json::to_vec(&Durable {
                version: 1,
                completed,
            })?)
        }
        pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
            let durable: Durable = serde_json::from_slice(bytes)?;
            anyhow::ensure!(durable.version == 1, "version {} is not 1", durable.version);
            let reference = format!("{{\"completed\":{}}}", durable.completed);
            Ok(Self(solution06::BarrierAligner::restore(
                inputs,
                reference.as_bytes(),
            )?))
        }
    }
}
graders::impl_stage06!(Versioned, versioned);
crate::accepted!(an_aligner_whose_derive_reads_a_version_left_out_as_1_passes: Barriers, drive::<Versioned>);

/// The first layout of the probe is the reference's own snapshot of its state, so that
/// the reference is never handed its own layout as another.
#[test]
fn the_first_layout_is_the_reference_s_snapshot_of_the_state() {
    let mut aligner = solution06::BarrierAligner::<()>::new(2).unwrap();
    aligner
        .on_element(0, solution06::Element::Barrier(1))
        .unwrap();
    aligner
        .on_element(1, solution06::Element::Barrier(1))
        .unwrap();
    assert_eq!(aligner.snapshot().unwrap(), LAYOUTS[0].1.as_bytes());
}

/// Every mutant of this file, the check that must reject it and the requirement its
/// smallest failing case must name (no card: a new mistake).
#[rstest]
#[case::legacy_completed_read(drive::<LegacyCompletedRead>, "configuration", "06-R14")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    if let Err(why) = graders::harness::expect_rejected_for::<Barriers>(drive, check, requirement) {
        crate::fail(&why);
    }
}
