//! Stage 06 mutants written from the brief's sentences alone that the grader already
//! rejected when they were written: a snapshot mid-alignment, a restore that comes back
//! blocked, a single input that skips the turn check, a lazy release, a blocked input's
//! next barrier refused, an unnamed `inputs` error, a barrier after a partial chunk; and
//! a correct `inject_barriers` by whole chunks.

use graders::stage06::{Barriers, Case, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// A wrapper of the reference aligner that overrides `$items` (the rest forwards).
macro_rules! wrapper {
    ($(#[$doc:meta])* $name:ident { $($body:tt)* }) => {
        $(#[$doc])*
        mod $name {
            #![allow(dead_code, unused_imports)]
            use anyhow::{Result, bail};
            pub use solution06::{Aligned, CheckpointId, Element, aligned_snapshots, inject_barriers};
            use solution06::BarrierAligner as Inner;
            pub struct BarrierAligner<T> { inner: Inner<T>, inputs: usize, extra: Vec<Aligned<T>>, done: CheckpointId }
            impl<T> BarrierAligner<T> {
                fn wrap(inner: Inner<T>, inputs: usize) -> Self {
                    Self { inner, inputs, extra: Vec::new(), done: 0 }
                }
                pub fn is_blocked(&self, input: usize) -> bool { self.inner.is_blocked(input) }
                /// The last completed checkpoint, read back from the reference's JSON.
                fn completed(&self) -> CheckpointId {
                    let bytes = self.inner.snapshot().unwrap_or_default();
                    let text = String::from_utf8_lossy(&bytes);
                    text.trim_matches(|c: char| !c.is_ascii_digit()).parse().unwrap_or(0)
                }
                $($body)*
            }
        }
    };
}

wrapper! {
    /// **Mistake:** mid-alignment, `snapshot` records the checkpoint being aligned as the
    /// last completed one. **Verdict:** `contract` fails: after `B1` on input 0 of 2 and a
    /// restore, input 0's `Barrier(1)` is refused (06-R13).
    snapshot_ahead {
        pub fn new(n: usize) -> Result<Self> { Ok(Self::wrap(Inner::new(n)?, n)) }
        pub fn on_element(&mut self, i: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> { self.inner.on_element(i, e) }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            let aligning = (0..self.inputs).any(|i| self.inner.is_blocked(i));
            let c = self.completed() + u64::from(aligning);
            Ok(format!("{{\"completed\":{c}}}").into_bytes())
        }
        pub fn restore(n: usize, b: &[u8]) -> Result<Self> { Ok(Self::wrap(Inner::restore(n, b)?, n)) }
    }
}
graders::impl_stage06!(SnapshotAhead, snapshot_ahead);

wrapper! {
    /// **Mistake:** the snapshot keeps which inputs are blocked, and `restore` blocks them
    /// again. **Verdict:** `contract` fails: `is_blocked(0)` is `true` right after a
    /// restore mid-alignment (06-R13).
    restore_blocked {
        pub fn new(n: usize) -> Result<Self> { Ok(Self::wrap(Inner::new(n)?, n)) }
        pub fn on_element(&mut self, i: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> { self.inner.on_element(i, e) }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            let blocked: String = (0..self.inputs).map(|i| if self.inner.is_blocked(i) { '1' } else { '0' }).collect();
            let mut bytes = format!("{blocked} ").into_bytes();
            bytes.extend(self.inner.snapshot()?);
            Ok(bytes)
        }
        pub fn restore(n: usize, b: &[u8]) -> Result<Self> {
            let Some(space) = b.iter().position(|x| *x == b' ') else { bail!("not a snapshot") };
            let mut a = Self::wrap(Inner::restore(n, &b[space + 1..])?, n);
            let next = a.completed() + 1;
            for (i, flag) in b[..space].iter().enumerate() {
                if *flag == b'1' && i < n { a.inner.on_element(i, Element::Barrier(next))?; }
            }
            Ok(a)
        }
    }
}
graders::impl_stage06!(RestoreBlocked, restore_blocked);

wrapper! {
    /// **Mistake:** "with a single input there is nothing to align": every barrier of a
    /// single input is its checkpoint, whatever its number. **Verdict:** `contract`
    /// fails: `new(1)`, then `on_element(0, B2)` answers `Ok([Checkpoint(2)])` (06-R12).
    single_no_turn {
        pub fn new(n: usize) -> Result<Self> { Ok(Self::wrap(Inner::new(n)?, n)) }
        pub fn on_element(&mut self, i: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
            match e {
                Element::Barrier(c) if self.inputs == 1 && i == 0 => {
                    self.done = c;
                    Ok(vec![Aligned::Checkpoint(c)])
                }
                e => self.inner.on_element(i, e),
            }
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> {
            Ok(format!("{{\"completed\":{}}}", self.done.max(self.completed())).into_bytes())
        }
        pub fn restore(n: usize, b: &[u8]) -> Result<Self> { Ok(Self::wrap(Inner::restore(n, b)?, n)) }
    }
}
graders::impl_stage06!(SingleNoTurn, single_no_turn);

wrapper! {
    /// **Mistake:** the call of the last barrier returns `Checkpoint(c)` alone; the held
    /// elements come out at the start of the next call. **Verdict:** `alignment` fails:
    /// `[Checkpoint(1)]` where `[Checkpoint(1), b2]` is due (06-R7).
    lazy_release {
        pub fn new(n: usize) -> Result<Self> { Ok(Self::wrap(Inner::new(n)?, n)) }
        pub fn on_element(&mut self, i: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
            let mut out = std::mem::take(&mut self.extra);
            let now = self.inner.on_element(i, e)?;
            match now.iter().position(|o| matches!(o, Aligned::Checkpoint(_))) {
                Some(k) => {
                    let mut now = now;
                    self.extra = now.split_off(k + 1);
                    out.extend(now);
                }
                None => out.extend(now),
            }
            Ok(out)
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> { self.inner.snapshot() }
        pub fn restore(n: usize, b: &[u8]) -> Result<Self> { Ok(Self::wrap(Inner::restore(n, b)?, n)) }
    }
}
graders::impl_stage06!(LazyRelease, lazy_release);

wrapper! {
    /// **Mistake:** a blocked input cannot deliver another barrier before the checkpoint
    /// completes, so its next barrier is refused. **Verdict:** `alignment` fails: input
    /// 0's `Barrier(2)` while it waits for checkpoint 1 is refused (06-R9).
    blocked_barrier_refused {
        pub fn new(n: usize) -> Result<Self> { Ok(Self::wrap(Inner::new(n)?, n)) }
        pub fn on_element(&mut self, i: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
            if matches!(e, Element::Barrier(_)) && self.inner.is_blocked(i) {
                bail!("input {i} is blocked: its barrier comes too early");
            }
            self.inner.on_element(i, e)
        }
        pub fn snapshot(&self) -> Result<Vec<u8>> { self.inner.snapshot() }
        pub fn restore(n: usize, b: &[u8]) -> Result<Self> { Ok(Self::wrap(Inner::restore(n, b)?, n)) }
    }
}
graders::impl_stage06!(BlockedBarrierRefused, blocked_barrier_refused);

wrapper! {
    /// **Mistake:** `new(0)` refused with a message that does not name the argument.
    /// **Verdict:** `configuration` fails: "an aligner needs at least one input" does not
    /// name `inputs` (06-R10).
    unnamed_zero {
        pub fn new(n: usize) -> Result<Self> {
            if n == 0 { bail!("an aligner needs at least one input"); }
            Ok(Self::wrap(Inner::new(n)?, n))
        }
        pub fn on_element(&mut self, i: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> { self.inner.on_element(i, e) }
        pub fn snapshot(&self) -> Result<Vec<u8>> { self.inner.snapshot() }
        pub fn restore(n: usize, b: &[u8]) -> Result<Self> { Ok(Self::wrap(Inner::restore(n, b)?, n)) }
    }
}
graders::impl_stage06!(UnnamedZero, unnamed_zero);

/// `inject_barriers` by chunks of `barrier_every`: `$whole` keeps the barrier to whole
/// chunks (correct), otherwise a partial last chunk gets one too.
macro_rules! chunked {
    ($(#[$doc:meta])* $name:ident, $whole:literal) => {
        $(#[$doc])*
        mod $name {
            pub use solution06::*;
            pub fn inject_barriers<T: Clone>(records: &[T], every: usize) -> anyhow::Result<Vec<Element<T>>> {
                anyhow::ensure!(every > 0, "barrier_every must be positive");
                let mut out = Vec::new();
                for (c, chunk) in records.chunks(every).enumerate() {
                    out.extend(chunk.iter().cloned().map(Element::Record));
                    if !$whole || chunk.len() == every {
                        out.push(Element::Barrier(c as u64 + 1));
                    }
                }
                Ok(out)
            }
        }
    };
}
chunked! {
    /// **Mistake:** a barrier after every chunk, also after a partial last one.
    /// **Verdict:** `inject-barriers` fails: `[x]` with `barrier_every = 2` gets `B1` (06-R1).
    partial_chunk_barrier, false
}
graders::impl_stage06!(PartialChunkBarrier, partial_chunk_barrier);
chunked!(whole_chunks, true);
graders::impl_stage06!(WholeChunks, whole_chunks);
accepted!(inject_by_whole_chunks_passes: Barriers, drive::<WholeChunks>);

/// Every mutant of this file, the check that must reject it, the requirement its smallest
/// failing case must name and the card its report must show. No card where the first
/// failure reads as another mistake's: a snapshot ahead of its checkpoint as a restore
/// from scratch, a single input without a turn check as any barrier accepted, a lazy
/// release as held-back elements re-fed wrongly.
#[rstest]
#[case::snapshot_ahead(drive::<SnapshotAhead>, "contract", "06-R13", None)]
#[case::restore_blocked(drive::<RestoreBlocked>, "contract", "06-R13", Some("06-blocked-inputs-are-state"))]
#[case::single_no_turn(drive::<SingleNoTurn>, "contract", "06-R12", None)]
#[case::lazy_release(drive::<LazyRelease>, "alignment", "06-R7", None)]
#[case::blocked_barrier_refused(drive::<BlockedBarrierRefused>, "alignment", "06-R9", Some("06-blocked-input-sends-no-barrier"))]
#[case::unnamed_zero(drive::<UnnamedZero>, "configuration", "06-R10", Some("06-any-error-will-do"))]
#[case::partial_chunk_barrier(drive::<PartialChunkBarrier>, "inject-barriers", "06-R1", Some("06-barrier-after-the-last-chunk"))]
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
