//! Correct but unusual stage-06 solutions the grader must accept: an aligner that
//! refuses a barrier out of turn when it arrives (even on a blocked input), not when it
//! is re-fed, with its own error messages and its own snapshot format.

use graders::stage06::{Barriers, drive};

use crate::accepted;

mod eager_turn_check {
    //! Barriers checked per input on arrival; a snapshot written as `completed=<c>`.
    use anyhow::{Result, bail, ensure};
    pub use solution06::{Aligned, CheckpointId, Element, inject_barriers};

    /// The reference aligner behind a per-input check of barrier order at arrival.
    pub struct BarrierAligner<T> {
        inner: solution06::BarrierAligner<T>,
        /// The last barrier each input delivered.
        last: Vec<CheckpointId>,
        completed: CheckpointId,
    }

    impl<T> BarrierAligner<T> {
        pub fn new(inputs: usize) -> Result<Self> {
            ensure!(inputs > 0, "an aligner needs inputs > 0");
            Ok(Self {
                inner: solution06::BarrierAligner::new(inputs)?,
                last: vec![0; inputs],
                completed: 0,
            })
        }
        pub fn is_blocked(&self, input: usize) -> bool {
            self.inner.is_blocked(input)
        }
        pub fn on_element(&mut self, input: usize, element: Element<T>) -> Result<Vec<Aligned<T>>> {
            let Some(last) = self.last.get_mut(input) else {
                bail!("no such input: {input}");
            };
            if let Element::Barrier(c) = element {
                ensure!(
                    c == *last + 1,
                    "out of order: barrier {c} after barrier {last}"
                );
                *last = c;
            }
            let out = self.inner.on_element(input, element)?;
            for o in &out {
                if let Aligned::Checkpoint(c) = o {
                    self.completed = *c;
                }
            }
            Ok(out)
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            Ok(format!("completed={}", self.completed).into_bytes())
        }
        pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
            let text = std::str::from_utf8(bytes)?;
            let Some(c) = text.strip_prefix("completed=") else {
                bail!("not an aligner snapshot");
            };
            let completed: CheckpointId = c.parse()?;
            // The reference aligner brought to `completed` through its public API alone:
            // every input delivers every barrier up to it.
            let mut aligner = Self::new(inputs)?;
            for c in 1..=completed {
                for input in 0..inputs {
                    aligner.inner.on_element(input, Element::Barrier(c))?;
                }
            }
            aligner.last = vec![completed; inputs];
            aligner.completed = completed;
            Ok(aligner)
        }
    }

    pub fn aligned_snapshots<T, S: Clone>(
        inputs: Vec<Vec<Element<T>>>,
        schedule: &[usize],
        init: S,
        mut fold: impl FnMut(&mut S, &T),
    ) -> Result<Vec<(CheckpointId, S)>> {
        let mut aligner = BarrierAligner::new(inputs.len())?;
        let mut pending: Vec<_> = inputs.into_iter().map(Vec::into_iter).collect();
        let (mut state, mut snapshots) = (init, Vec::new());
        for &input in schedule {
            let Some(element) = pending.get_mut(input).and_then(Iterator::next) else {
                bail!("the schedule takes from input {input}, which has nothing left");
            };
            for aligned in aligner.on_element(input, element)? {
                match aligned {
                    Aligned::Record(r) => fold(&mut state, &r),
                    Aligned::Checkpoint(c) => snapshots.push((c, state.clone())),
                }
            }
        }
        Ok(snapshots)
    }
}
graders::impl_stage06!(EagerTurnCheck, eager_turn_check);
accepted!(an_aligner_that_checks_turns_on_arrival_passes: Barriers, drive::<EagerTurnCheck>);
