//! Stage 06 mutants written from the brief's sentences alone, each breaking one rule at
//! an edge the older catalogue left thin: two inputs holding back at once, a restore
//! with another number of inputs, empty snapshot bytes, an aligner of more than 64
//! inputs, blocked inputs kept as `u32`s (an input past `u32::MAX` wraps to one that
//! exists), a schedule past one input's end but not past all elements.

use graders::stage06::{Barriers, Case, Observation, drive};
use rstest::rstest;

use crate::accepted;

use super::flawed;

/// A mutant crate around the per-input aligner of `per_input.rs`.
macro_rules! per_input_mutant {
    ($(#[$doc:meta])* $name:ident, $merged:literal) => {
        $(#[$doc])*
        #[allow(unused_imports)]
        mod $name {
            pub use solution06::{Aligned, CheckpointId, Element, aligned_snapshots, inject_barriers};
            pub type BarrierAligner<T> = super::super::per_input::PerInput<T, $merged>;
        }
    };
}

per_input_mutant! {
    /// **Mistake:** one buffer per input, released input by input (input 0's held
    /// elements, then input 1's): the arrival order across inputs is lost.
    /// **Verdict:** `contract` fails: 3 inputs, inputs 0 and 1 blocked holding `b3 a4 b5`,
    /// then input 2's `Barrier(1)` gives `[Checkpoint(1), a4, b3, b5]` (06-R7).
    per_input_buffers, false
}
graders::impl_stage06!(PerInputBuffers, per_input_buffers);

per_input_mutant! {
    /// A correct variant: one buffer per input, merged back by arrival number on release,
    /// re-fed by recursion, its snapshot the completed checkpoint as decimal text.
    per_input_merged, true
}
graders::impl_stage06!(PerInputMerged, per_input_merged);
accepted!(per_input_buffers_merged_by_arrival_pass: Barriers, drive::<PerInputMerged>);

/// A wrapper of the reference aligner: `$body` is the module's own items.
macro_rules! wrapper {
    ($(#[$doc:meta])* $name:ident { $($body:tt)* }) => {
        $(#[$doc])*
        mod $name {
            #![allow(dead_code, unused_imports)]
            use anyhow::{Result, bail, ensure};
            pub use solution06::{Aligned, CheckpointId, Element, aligned_snapshots, inject_barriers};
            $($body)*
        }
    };
}

wrapper! {
    /// **Mistake:** the snapshot records the number of inputs too, and `restore` goes on
    /// with the recorded number, not its `inputs` argument (rescaling is forgotten).
    /// **Verdict:** `crash` fails: an aligner of 2 inputs completes checkpoint 1,
    /// `restore(3, ..)` refuses input 2's `Barrier(2)` (06-R13).
    restore_keeps_inputs {
        pub struct BarrierAligner<T> { inner: solution06::BarrierAligner<T>, inputs: usize }
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)?, inputs })
            }
            pub fn is_blocked(&self, input: usize) -> bool { self.inner.is_blocked(input) }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                self.inner.on_element(input, e)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                let mut bytes = format!("{} ", self.inputs).into_bytes();
                bytes.extend(self.inner.snapshot()?);
                Ok(bytes)
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                ensure!(inputs > 0, "inputs must be at least 1");
                let Some(space) = bytes.iter().position(|b| *b == b' ') else {
                    bail!("not an aligner snapshot");
                };
                let stored: usize = std::str::from_utf8(&bytes[..space])?.parse()?;
                let inner = solution06::BarrierAligner::restore(stored, &bytes[space + 1..])?;
                Ok(Self { inner, inputs: stored })
            }
        }
    }
}
graders::impl_stage06!(RestoreKeepsInputs, restore_keeps_inputs);

wrapper! {
    /// **Mistake:** "no snapshot yet": `restore` of empty bytes gives a fresh aligner,
    /// although no snapshot is empty.
    /// **Verdict:** `configuration` fails: `restore(2, b"")` is `Ok` (06-R14).
    restore_empty_fresh {
        pub use solution06::BarrierAligner as Inner;
        pub struct BarrierAligner<T>(Inner<T>);
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> { Ok(Self(Inner::new(inputs)?)) }
            pub fn is_blocked(&self, input: usize) -> bool { self.0.is_blocked(input) }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                self.0.on_element(input, e)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> { self.0.snapshot() }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                if bytes.is_empty() {
                    return Self::new(inputs);
                }
                Ok(Self(Inner::restore(inputs, bytes)?))
            }
        }
    }
}
graders::impl_stage06!(RestoreEmptyFresh, restore_empty_fresh);

/// A mutant whose blocked inputs are kept as the bits of a `$word`, its shifts wrapping
/// as in a release build: input `i` and input `i + BITS` share a bit. An input past the
/// last is not blocked (so it is the bits alone that mix inputs up, not the cast of an
/// input that does not exist, which `blocked_inputs_as_u32` makes).
macro_rules! bitmask {
    ($(#[$doc:meta])* $name:ident: $word:ty) => {
        wrapper! {
            $(#[$doc])*
            $name {
                pub struct BarrierAligner<T> { inner: solution06::BarrierAligner<T>, inputs: usize, mask: $word }
                impl<T> BarrierAligner<T> {
                    pub fn new(inputs: usize) -> Result<Self> {
                        Ok(Self { inner: solution06::BarrierAligner::new(inputs)?, inputs, mask: 0 })
                    }
                    pub fn is_blocked(&self, input: usize) -> bool {
                        input < self.inputs
                            && self.mask & (1 as $word).wrapping_shl(input as u32) != 0
                    }
                    pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                        let out = self.inner.on_element(input, e)?;
                        self.mask = (0..self.inputs)
                            .filter(|&i| self.inner.is_blocked(i))
                            .fold(0, |m, i| m | (1 as $word).wrapping_shl(i as u32));
                        Ok(out)
                    }
                    pub fn snapshot(&self) -> Result<Vec<u8>> { self.inner.snapshot() }
                    pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                        Ok(Self { inner: solution06::BarrierAligner::restore(inputs, bytes)?, inputs, mask: 0 })
                    }
                }
            }
        }
    };
}

bitmask! {
    /// **Mistake:** the blocked inputs kept as bits of a `u64`: an aligner of more than
    /// 64 inputs mixes input 64 up with input 0.
    /// **Verdict:** `alignment` fails on 65 inputs: after input 0's `Barrier(1)`,
    /// `is_blocked(64)` is `true` (06-R3).
    bitmask_inputs: u64
}
graders::impl_stage06!(BitmaskInputs, bitmask_inputs);

bitmask! {
    /// **Mistake:** the blocked inputs kept as bits of a `u128`, by a learner who knew a
    /// `u64` is too small for 65 inputs: an aligner of more than 128 inputs mixes input 128
    /// up with input 0.
    /// **Verdict:** `alignment` fails on 129 inputs: after input 0's `Barrier(1)`,
    /// `is_blocked(128)` is `true` (06-R3).
    bitmask_inputs_128: u128
}
graders::impl_stage06!(BitmaskInputs128, bitmask_inputs_128);

wrapper! {
    /// **Mistake:** the blocked inputs kept as `u32`s (`BTreeSet<u32>`, `input as u32`:
    /// "no job has four billion inputs"), the red team's w06-01: `is_blocked` of an input
    /// that does not exist, past `u32::MAX`, answers for the input it wraps to.
    /// **Verdict:** `alignment` fails: after input 0's `Barrier(1)` of 2 inputs,
    /// `is_blocked(4294967296)` (`1 << 32`) is `true` (06-R3).
    blocked_inputs_as_u32 {
        use std::collections::BTreeSet;
        pub struct BarrierAligner<T> {
            inner: solution06::BarrierAligner<T>,
            inputs: usize,
            blocked: BTreeSet<u32>,
        }
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                let inner = solution06::BarrierAligner::new(inputs)?;
                Ok(Self { inner, inputs, blocked: BTreeSet::new() })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.blocked.contains(&(input as u32))
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                let out = self.inner.on_element(input, e)?;
                self.blocked = (0..self.inputs)
                    .filter(|&i| self.inner.is_blocked(i))
                    .map(|i| i as u32)
                    .collect();
                Ok(out)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> { self.inner.snapshot() }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                let inner = solution06::BarrierAligner::restore(inputs, bytes)?;
                let blocked = (0..inputs).filter(|&i| inner.is_blocked(i)).map(|i| i as u32).collect();
                Ok(Self { inner, inputs, blocked })
            }
        }
    }
}
graders::impl_stage06!(BlockedInputsAsU32, blocked_inputs_as_u32);

aligner_mutant! {
    /// **Mistake:** the blocked inputs counted in a `u8` (who would run more than 255
    /// inputs?): with 257 inputs, one barrier already makes the count equal the inputs'.
    /// **Verdict:** `alignment` fails on 257 inputs: input 0's `Barrier(1)` answers
    /// `Checkpoint(1)` while 256 inputs have not delivered theirs (06-R6).
    count_as_u8, super::flawed::COUNT_AS_U8
}
graders::impl_stage06!(CountAsU8, count_as_u8);

aligner_mutant! {
    /// **Mistake:** the barrier of checkpoint `u64::MAX` is aligned like any other, and
    /// `next += 1` overflows ("no job takes 2^64 checkpoints"), though restored bytes can
    /// say one took `2^64 - 2`.
    /// **Verdict:** `configuration`: restored at `u64::MAX - 1`, `Barrier(u64::MAX)` on
    /// both inputs panics (06-R12).
    barrier_max_overflows, super::flawed::BARRIER_MAX_OVERFLOWS
}
graders::impl_stage06!(BarrierMaxOverflows, barrier_max_overflows);

/// **Mistake:** `aligned_snapshots` checks the schedule's length against all elements
/// together, then skips an arrival from an input that has run dry.
/// **Verdict:** `configuration` fails: inputs `[a0]`, `[b0]` with arrivals `0 0` is
/// `Ok` (06-R17).
mod past_end_in_total {
    use anyhow::{Result, ensure};
    pub use solution06::*;
    pub fn aligned_snapshots<T, S: Clone>(
        inputs: Vec<Vec<Element<T>>>,
        schedule: &[usize],
        init: S,
        mut fold: impl FnMut(&mut S, &T),
    ) -> Result<Vec<(CheckpointId, S)>> {
        let total: usize = inputs.iter().map(Vec::len).sum();
        ensure!(
            schedule.len() <= total,
            "the schedule is longer than the inputs"
        );
        let mut aligner = BarrierAligner::new(inputs.len())?;
        let mut pending: Vec<_> = inputs.into_iter().map(Vec::into_iter).collect();
        let (mut state, mut snapshots) = (init, Vec::new());
        for &input in schedule {
            let Some(elements) = pending.get_mut(input) else {
                anyhow::bail!("no input {input}");
            };
            let Some(element) = elements.next() else {
                continue;
            };
            for out in aligner.on_element(input, element)? {
                match out {
                    Aligned::Record(r) => fold(&mut state, &r),
                    Aligned::Checkpoint(c) => snapshots.push((c, state.clone())),
                }
            }
        }
        Ok(snapshots)
    }
}
graders::impl_stage06!(PastEndInTotal, past_end_in_total);

/// Every mutant of this file, the check that must reject it, the requirement its smallest
/// failing case must name and the card its report must show. No card for the bitmask of
/// inputs, inputs as `u32`s or their count in a `u8`, slips of representation that no
/// belief explains.
#[rstest]
#[case::per_input_buffers(drive::<PerInputBuffers>, "contract", "06-R7", Some("06-buffer-order-does-not-matter"))]
#[case::restore_keeps_inputs(drive::<RestoreKeepsInputs>, "crash", "06-R13", Some("06-inputs-are-state"))]
#[case::restore_empty_fresh(drive::<RestoreEmptyFresh>, "configuration", "06-R14", Some("06-unreadable-snapshot-is-fresh"))]
#[case::bitmask_inputs(drive::<BitmaskInputs>, "alignment", "06-R3", None)]
#[case::bitmask_inputs_128(drive::<BitmaskInputs128>, "alignment", "06-R3", None)]
#[case::blocked_inputs_as_u32(drive::<BlockedInputsAsU32>, "alignment", "06-R3", None)]
#[case::count_as_u8(drive::<CountAsU8>, "alignment", "06-R6", None)]
#[case::barrier_max_overflows(drive::<BarrierMaxOverflows>, "configuration", "06-R12", None)]
#[case::past_end_in_total(drive::<PastEndInTotal>, "configuration", "06-R17", Some("06-schedule-past-the-end-is-the-end"))]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report = graders::harness::expect_rejected_for::<Barriers>(drive, check, requirement)
        .unwrap_or_else(|why| crate::fail(&why));
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}
