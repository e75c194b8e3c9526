//! Correct but unusual stage-06 solutions the grader must accept: an aligner that stops
//! for good at its first error, one whose snapshot is 8 raw bytes, and one that
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

mod fail_stop {
    //! An aligner that, once it refused a call, refuses every later `on_element` and
    //! `snapshot`: the brief leaves what follows an error open, so this is allowed.
    use anyhow::{Result, bail};
    pub use solution06::{Aligned, Element, aligned_snapshots, inject_barriers};

    /// The reference aligner that stops for good at its first error.
    pub struct BarrierAligner<T> {
        inner: solution06::BarrierAligner<T>,
        failed: bool,
    }

    impl<T> BarrierAligner<T> {
        pub fn new(inputs: usize) -> Result<Self> {
            Self::wrap(solution06::BarrierAligner::new(inputs)?)
        }
        fn wrap(inner: solution06::BarrierAligner<T>) -> Result<Self> {
            Ok(Self {
                inner,
                failed: false,
            })
        }
        pub fn is_blocked(&self, input: usize) -> bool {
            self.inner.is_blocked(input)
        }
        pub fn on_element(&mut self, input: usize, element: Element<T>) -> Result<Vec<Aligned<T>>> {
            if self.failed {
                bail!("this aligner refused an earlier call and accepts nothing more");
            }
            let out = self.inner.on_element(input, element);
            self.failed = out.is_err();
            out
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            if self.failed {
                bail!("this aligner refused an earlier call: its state is not a checkpoint");
            }
            self.inner.snapshot()
        }
        pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
            Self::wrap(solution06::BarrierAligner::restore(inputs, bytes)?)
        }
    }
}
graders::impl_stage06!(FailStop, fail_stop);
accepted!(an_aligner_that_stops_at_its_first_error_passes: Barriers, drive::<FailStop>);

mod raw_bytes {
    //! An aligner whose snapshot is the last completed checkpoint as 8 little-endian
    //! bytes, restored by feeding every barrier up to it to a fresh reference aligner.
    use anyhow::{Context, Result};
    pub use solution06::{Aligned, CheckpointId, Element, aligned_snapshots, inject_barriers};

    /// The reference aligner with a snapshot format of its own.
    pub struct BarrierAligner<T> {
        inner: solution06::BarrierAligner<T>,
        completed: CheckpointId,
    }

    impl<T> BarrierAligner<T> {
        pub fn new(inputs: usize) -> Result<Self> {
            Ok(Self {
                inner: solution06::BarrierAligner::new(inputs)?,
                completed: 0,
            })
        }
        pub fn is_blocked(&self, input: usize) -> bool {
            self.inner.is_blocked(input)
        }
        pub fn on_element(&mut self, input: usize, element: Element<T>) -> Result<Vec<Aligned<T>>> {
            let out = self.inner.on_element(input, element)?;
            for o in &out {
                if let Aligned::Checkpoint(c) = o {
                    self.completed = *c;
                }
            }
            Ok(out)
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            Ok(self.completed.to_le_bytes().to_vec())
        }
        pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
            let raw: [u8; 8] = bytes.try_into().context("an aligner snapshot is 8 bytes")?;
            let completed = CheckpointId::from_le_bytes(raw);
            let mut aligner = Self::new(inputs)?;
            for c in 1..=completed {
                for input in 0..inputs {
                    aligner.on_element(input, Element::Barrier(c))?;
                }
            }
            Ok(aligner)
        }
    }
}
graders::impl_stage06!(RawBytes, raw_bytes);
accepted!(an_aligner_with_a_raw_bytes_snapshot_passes: Barriers, drive::<RawBytes>);

mod capitalised {
    //! Correct: every error message starts with a capital letter ("Input 2 does not
    //! exist"), which names the argument in another case of its letters, as the brief
    //! allows (the seventeenth red team's c06-05 and c06-07: the unknown-input check took
    //! `Input` for no name, where `new(0)`'s took `Inputs` for one).
    use anyhow::Result;
    pub use solution06::{Aligned, Element, aligned_snapshots, inject_barriers};

    /// `error`, its first letter a capital.
    fn capitalised(error: anyhow::Error) -> anyhow::Error {
        let text = error.to_string();
        let mut chars = text.chars();
        let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
        anyhow::anyhow!("{}{}", first.unwrap_or_default(), chars.as_str())
    }

    /// The reference aligner, its errors capitalised.
    pub struct BarrierAligner<T>(solution06::BarrierAligner<T>);

    impl<T> BarrierAligner<T> {
        pub fn new(inputs: usize) -> Result<Self> {
            solution06::BarrierAligner::new(inputs)
                .map(Self)
                .map_err(capitalised)
        }
        pub fn is_blocked(&self, input: usize) -> bool {
            self.0.is_blocked(input)
        }
        pub fn on_element(&mut self, input: usize, element: Element<T>) -> Result<Vec<Aligned<T>>> {
            self.0.on_element(input, element).map_err(capitalised)
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            self.0.snapshot().map_err(capitalised)
        }
        pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
            solution06::BarrierAligner::restore(inputs, bytes)
                .map(Self)
                .map_err(capitalised)
        }
    }
}
graders::impl_stage06!(Capitalised, capitalised);
accepted!(an_aligner_with_capitalised_errors_passes: Barriers, drive::<Capitalised>);
