//! Stage 06 mutants of red-team rounds whose mistakes show only past a size the grader
//! never reached: a checkpoint counter between a `u32` and a `u64`, which only a
//! snapshot restored far along shows (the grader's largest probes, near `u64::MAX`, cut to
//! a `u32` happen to be refused as they must); a cadence near `usize::MAX`, where
//! `inject_barriers` sizes its output by a sum that overflows; an alignment buffer bounded
//! past what the enumerated shapes hold back; a cap on the inputs past the widest
//! alignment of 257 (the sixth red team's w06-03), which the aligner of 65,537 inputs
//! meets.

use graders::stage06::{Barriers, Case, Observation, drive};
use rstest::rstest;

/// **Mistake:** the checkpoint counter is a `u32` ("four billion checkpoints is
/// plenty"): `restore` reads the snapshot's count `as u32`, and the barrier of checkpoint
/// `u32::MAX` is refused, since no `u32` id follows it. Written over the reference, whose
/// snapshot it keeps.
/// **Verdict:** `crash`: restored from its snapshot with the counter set to say
/// `2^32 - 2` checkpoints completed, `Barrier(2^32 - 1)` is refused; at `2^32`, the
/// restored aligner expects checkpoint 1 and refuses `Barrier(2^32 + 1)` (06-R13).
mod checkpoint_counter_u32 {
    use anyhow::{Result, bail};
    pub use solution06::{Aligned, CheckpointId, Element, aligned_snapshots, inject_barriers};

    pub struct BarrierAligner<T> {
        inner: solution06::BarrierAligner<T>,
        inputs: usize,
    }

    impl<T> BarrierAligner<T> {
        pub fn new(inputs: usize) -> Result<Self> {
            Ok(Self {
                inner: solution06::BarrierAligner::new(inputs)?,
                inputs,
            })
        }
        pub fn is_blocked(&self, input: usize) -> bool {
            self.inner.is_blocked(input)
        }
        pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
            if let Element::Barrier(id) = e
                && input < self.inputs
                && id >= CheckpointId::from(u32::MAX)
            {
                bail!("input {input} delivered barrier {id}: no checkpoint id follows it");
            }
            self.inner.on_element(input, e)
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            self.inner.snapshot()
        }
        pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
            // What the reference refuses, refused: the mistake is the width alone.
            solution06::BarrierAligner::<T>::restore(inputs, bytes)?;
            let value: serde_json::Value = serde_json::from_slice(bytes)?;
            let completed = value["completed"].as_u64().unwrap_or_default() as u32;
            let bytes = format!("{{\"completed\":{completed}}}");
            Ok(Self {
                inner: solution06::BarrierAligner::restore(inputs, bytes.as_bytes())?,
                inputs,
            })
        }
    }
}
graders::impl_stage06!(CheckpointCounterU32, checkpoint_counter_u32);

/// **Mistake:** `inject_barriers` sizes its stream with a hand-written ceiling division,
/// `(len + barrier_every - 1) / barrier_every` barriers ("one per chunk, the last may be
/// partial"), a sum that overflows near `usize::MAX`: a debug build panics there, though
/// any `barrier_every` from 1 is valid (a red team's w06-02).
/// **Verdict:** `inject-barriers`: `inject_barriers` of one record with
/// `barrier_every = usize::MAX` panics (`len + barrier_every` overflows before the
/// `- 1`) where the record alone is due (06-R1).
mod ceil_div_overflows {
    use anyhow::{Result, bail};
    pub use solution06::{Aligned, BarrierAligner, CheckpointId, Element, aligned_snapshots};

    #[allow(clippy::manual_div_ceil)]
    pub fn inject_barriers<T: Clone>(
        records: &[T],
        barrier_every: usize,
    ) -> Result<Vec<Element<T>>> {
        if barrier_every == 0 {
            bail!("barrier_every must be at least 1, got 0");
        }
        // One chunk per checkpoint (the last may be partial): ceil(len / barrier_every).
        let chunks = (records.len() + barrier_every - 1) / barrier_every;
        let mut stream = Vec::with_capacity(records.len() + chunks);
        for (index, record) in records.iter().enumerate() {
            stream.push(Element::Record(record.clone()));
            if (index + 1) % barrier_every == 0 {
                stream.push(Element::Barrier(
                    ((index + 1) / barrier_every) as CheckpointId,
                ));
            }
        }
        Ok(stream)
    }
}
graders::impl_stage06!(CeilDivOverflows, ceil_div_overflows);

/// **Mistake:** (w06-03 of the sixth red team) `new` and `restore` refuse more than 1,024
/// inputs ("a guard against a typo"): the brief makes only 0 inputs an error.
/// **Verdict:** `alignment`: `BarrierAligner::new(65537)` fails, so the first element,
/// a record of an unblocked input, does not come straight back (06-R4).
mod at_most_1024_inputs {
    use anyhow::{Result, ensure};
    pub use solution06::{Aligned, Element, aligned_snapshots, inject_barriers};

    const MAX_INPUTS: usize = 1024;

    pub struct BarrierAligner<T>(solution06::BarrierAligner<T>);

    impl<T> BarrierAligner<T> {
        pub fn new(inputs: usize) -> Result<Self> {
            ensure!(
                inputs <= MAX_INPUTS,
                "inputs: {inputs} is more than {MAX_INPUTS}"
            );
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
            ensure!(
                inputs <= MAX_INPUTS,
                "inputs: {inputs} is more than {MAX_INPUTS}"
            );
            solution06::BarrierAligner::restore(inputs, bytes).map(Self)
        }
    }
}
graders::impl_stage06!(AtMost1024Inputs, at_most_1024_inputs);

/// The mutants of this file, the check that must reject each and the requirement its
/// smallest failing case must name (no card: a width chosen too small is a slip).
#[rstest]
#[case::checkpoint_counter_u32(drive::<CheckpointCounterU32>, "crash", "06-R13")]
#[case::at_most_1024_inputs(drive::<AtMost1024Inputs>, "alignment", "06-R4")]
#[case::ceil_div_overflows(drive::<CeilDivOverflows>, "inject-barriers", "06-R1")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    if let Err(why) = graders::harness::expect_rejected_for::<Barriers>(drive, check, requirement) {
        crate::fail(&why);
    }
}
