//! Stage 06 mutants of the second red team, written from the brief alone: an index check
//! that overflows, restores that read `{}` as a fresh aligner or ignore bytes after the
//! snapshot, snapshots that count the checkpoint being aligned as done or forget the one
//! restored, a trailing barrier left out, snapshots that write the number of inputs or
//! what is held back (the seventh red team's); and correct variants (a snapshot of
//! nothing written as `{}`, a schedule checked before it runs), which must pass.

use graders::stage06::{Barriers, Case, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// A module around the reference aligner: `$fields` beside it, `$body` its own items.
macro_rules! around {
    ($(#[$doc:meta])* $name:ident { $($field:ident: $ty:ty),* } { $($body:tt)* }) => {
        $(#[$doc])*
        mod $name {
            #![allow(dead_code, unused_imports)]
            use anyhow::{Result, bail, ensure};
            pub use solution06::{Aligned, CheckpointId, Element, aligned_snapshots, inject_barriers};

            pub struct BarrierAligner<T> {
                inner: solution06::BarrierAligner<T>,
                $($field: $ty),*
            }

            /// The reference's snapshot bytes of an aligner that completed `completed`.
            fn reference_bytes(completed: CheckpointId) -> Vec<u8> {
                format!("{{\"completed\":{completed}}}").into_bytes()
            }

            /// The checkpoint a reference snapshot says completed last.
            fn completed_in(bytes: &[u8]) -> Result<CheckpointId> {
                let value: serde_json::Value = serde_json::from_slice(bytes)?;
                value["completed"].as_u64().ok_or_else(|| anyhow::anyhow!("no completed"))
            }

            $($body)*
        }
    };
}

/// A module around the reference aligner that differs in `restore` alone: `$restore` over
/// `(inputs, bytes)`, returning the reference's aligner.
macro_rules! restoring {
    ($(#[$doc:meta])* $name:ident |$inputs:ident, $bytes:ident| $restore:block) => {
        around! {
            $(#[$doc])*
            $name {} {
                impl<T> BarrierAligner<T> {
                    pub fn new(inputs: usize) -> Result<Self> {
                        Ok(Self { inner: solution06::BarrierAligner::new(inputs)? })
                    }
                    pub fn is_blocked(&self, input: usize) -> bool {
                        self.inner.is_blocked(input)
                    }
                    pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                        self.inner.on_element(input, e)
                    }
                    pub fn snapshot(&self) -> Result<Vec<u8>> {
                        self.inner.snapshot()
                    }
                    pub fn restore($inputs: usize, $bytes: &[u8]) -> Result<Self> {
                        let inner: solution06::BarrierAligner<T> = $restore;
                        Ok(Self { inner })
                    }
                }
            }
        }
    };
}

around! {
    /// **Mistake:** the input check is written `input + 1 > inputs` ("the count of inputs
    /// up to this one"), which overflows for the largest index and panics.
    /// **Verdict:** `configuration`: `on_element(usize::MAX, a0)` panics (06-R11).
    input_check_overflows { inputs: usize } {
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)?, inputs })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.inner.is_blocked(input)
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                let inputs_up_to_it = input + 1;
                ensure!(inputs_up_to_it <= self.inputs, "input {input} does not exist");
                self.inner.on_element(input, e)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                self.inner.snapshot()
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::restore(inputs, bytes)?, inputs })
            }
        }
    }
}
graders::impl_stage06!(InputCheckOverflows, input_check_overflows);

around! {
    /// **Mistake:** the snapshot is a struct with `#[serde(default)]` ("older snapshots
    /// stay readable"), so `{}` restores an aligner that completed nothing, though this
    /// aligner's snapshots always name the checkpoint (`{"completed":0}` when fresh).
    /// **Verdict:** `configuration`: `restore(2, b"{}")` succeeds (06-R14).
    restore_defaulted_snapshot {} {
        #[derive(serde::Deserialize, Default)]
        #[serde(default)]
        struct Durable {
            completed: CheckpointId,
        }

        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)? })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.inner.is_blocked(input)
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                self.inner.on_element(input, e)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                self.inner.snapshot()
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                let durable: Durable = serde_json::from_slice(bytes)?;
                let bytes = reference_bytes(durable.completed);
                Ok(Self { inner: solution06::BarrierAligner::restore(inputs, &bytes)? })
            }
        }
    }
}
graders::impl_stage06!(RestoreDefaultedSnapshot, restore_defaulted_snapshot);

restoring! {
    /// **Mistake:** `restore` reads the snapshot with a streaming deserializer and takes
    /// the first value it finds, never asking whether bytes follow it.
    /// **Verdict:** `configuration`: the snapshot after checkpoint 1 with ` trailing`
    /// after it restores (06-R14).
    restore_ignores_trailing |inputs, bytes| {
        let first: serde_json::Value = serde_json::Deserializer::from_slice(bytes)
            .into_iter()
            .next()
            .ok_or_else(|| anyhow::anyhow!("no snapshot"))??;
        solution06::BarrierAligner::restore(inputs, &serde_json::to_vec(&first)?)?
    }
}
graders::impl_stage06!(RestoreIgnoresTrailing, restore_ignores_trailing);

restoring! {
    /// **Mistake:** `restore` reads `completed` as a number if it is one and as 0
    /// otherwise (`as_u64().unwrap_or(0)`), so a snapshot of the wrong types restores a
    /// fresh aligner.
    /// **Verdict:** `configuration`: `{"completed":"x"}` restores (06-R14).
    restore_lenient_value |inputs, bytes| {
        let value: serde_json::Value = serde_json::from_slice(bytes)?;
        ensure!(value.is_object(), "not a snapshot");
        let completed = value["completed"].as_u64().unwrap_or(0);
        solution06::BarrierAligner::restore(inputs, &reference_bytes(completed))?
    }
}
graders::impl_stage06!(RestoreLenientValue, restore_lenient_value);

restoring! {
    /// **Mistake:** `restore` reads `completed` as a number or as a string of digits
    /// ("be liberal in what you accept"), so `{"completed":"1"}`, which no snapshot
    /// writes, restores the aligner after checkpoint 1.
    /// **Verdict:** `configuration`: the snapshot after checkpoint 1 with its numbers
    /// written as strings of their digits restores (06-R14).
    restore_quoted_numbers |inputs, bytes| {
        let value: serde_json::Value = serde_json::from_slice(bytes)?;
        ensure!(value.is_object(), "not a snapshot");
        let completed = match &value["completed"] {
            serde_json::Value::String(digits) => digits.parse()?,
            number => number.as_u64().ok_or_else(|| anyhow::anyhow!("no completed"))?,
        };
        solution06::BarrierAligner::restore(inputs, &reference_bytes(completed))?
    }
}
graders::impl_stage06!(RestoreQuotedNumbers, restore_quoted_numbers);

restoring! {
    /// **Mistake:** `restore` reads `completed` as a float and casts it ("JSON numbers
    /// are floats"), so `{"completed":1.5}` restores the aligner after checkpoint 1.
    /// **Verdict:** `configuration`: the snapshot after checkpoint 1 with a half added
    /// to its numbers restores (06-R14).
    restore_truncated_float |inputs, bytes| {
        let value: serde_json::Value = serde_json::from_slice(bytes)?;
        ensure!(value.is_object(), "not a snapshot");
        let completed = value["completed"].as_f64().ok_or_else(|| anyhow::anyhow!("no completed"))?;
        solution06::BarrierAligner::restore(inputs, &reference_bytes(completed as u64))?
    }
}
graders::impl_stage06!(RestoreTruncatedFloat, restore_truncated_float);

restoring! {
    /// **Mistake:** the completed id is read as an `i64` and cast ("JSON integers are
    /// signed"), so a negative number restores as a checkpoint near `2^64`.
    /// **Verdict:** `configuration`: the snapshot after checkpoint 1 with `-2` for its 1
    /// restores (06-R14).
    restore_signed_completed |inputs, bytes| {
        #[derive(serde::Deserialize)]
        struct Durable {
            completed: i64,
        }
        let durable: Durable = serde_json::from_slice(bytes)?;
        solution06::BarrierAligner::restore(inputs, &reference_bytes(durable.completed as u64))?
    }
}
graders::impl_stage06!(RestoreSignedCompleted, restore_signed_completed);

restoring! {
    /// Correct: `restore` is a plain derived `Deserialize`, which also reads a field it
    /// does not know (skipped) and the struct written as the list of its fields
    /// (`[1]`): the brief lets those restore, as long as numbers of the wrong type do not.
    restore_plain_derive |inputs, bytes| {
        #[derive(serde::Deserialize)]
        struct Durable {
            completed: CheckpointId,
        }
        let durable: Durable = serde_json::from_slice(bytes)?;
        solution06::BarrierAligner::restore(inputs, &reference_bytes(durable.completed))?
    }
}
graders::impl_stage06!(RestorePlainDerive, restore_plain_derive);
accepted!(a_plain_derived_restore_passes: Barriers, drive::<RestorePlainDerive>);

restoring! {
    /// **Mistake:** `restore` reads `null` as "no snapshot yet" and starts a fresh
    /// aligner ("an `Option` that is `None`"), though no snapshot is `null`.
    /// **Verdict:** `configuration`: `restore(2, b"null")` succeeds (06-R14).
    restore_null_is_fresh |inputs, bytes| {
        if bytes == b"null" {
            solution06::BarrierAligner::new(inputs)?
        } else {
            solution06::BarrierAligner::restore(inputs, bytes)?
        }
    }
}
graders::impl_stage06!(RestoreNullIsFresh, restore_null_is_fresh);

restoring! {
    /// **Mistake:** `restore` computes the next checkpoint as `completed.saturating_add(1)`
    /// ("never overflow"), so bytes that say checkpoint `u64::MAX` completed restore an
    /// aligner that expects `u64::MAX` again, though no checkpoint follows it.
    /// **Verdict:** `configuration`: the fresh snapshot with its count of completed
    /// checkpoints set to `u64::MAX` restores (06-R14).
    restore_max_saturates |inputs, bytes| {
        let completed = completed_in(bytes)?;
        solution06::BarrierAligner::restore(inputs, &reference_bytes(completed.min(u64::MAX - 1)))?
    }
}
graders::impl_stage06!(RestoreMaxSaturates, restore_max_saturates);

around! {
    /// **Mistake:** the snapshot keeps the next checkpoint expected (`{"next":1}` on a
    /// fresh aligner), and `restore` takes `next.saturating_sub(1)` as completed, so
    /// `{"next":0}`, which no snapshot writes, restores a fresh aligner.
    /// **Verdict:** `configuration`: the fresh snapshot with its counter set to 0
    /// restores (06-R14).
    restore_next_saturates {} {
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)? })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.inner.is_blocked(input)
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                self.inner.on_element(input, e)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                let next = completed_in(&self.inner.snapshot()?)? + 1;
                Ok(format!("{{\"next\":{next}}}").into_bytes())
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                let value: serde_json::Value = serde_json::from_slice(bytes)?;
                let next = value["next"].as_u64().ok_or_else(|| anyhow::anyhow!("no next"))?;
                let bytes = reference_bytes(next.saturating_sub(1));
                Ok(Self { inner: solution06::BarrierAligner::restore(inputs, &bytes)? })
            }
        }
    }
}
graders::impl_stage06!(RestoreNextSaturates, restore_next_saturates);

restoring! {
    /// **Mistake:** `restore` reads every JSON value of the bytes and keeps the last
    /// ("snapshots are appended to one file; the newest wins"), so a snapshot written
    /// twice restores, and one followed by an older one rolls the aligner back.
    /// **Verdict:** `configuration`: the snapshot after checkpoint 1 written twice
    /// restores (06-R14).
    restore_reads_the_last_value |inputs, bytes| {
        let mut last = None;
        for value in serde_json::Deserializer::from_slice(bytes).into_iter::<serde_json::Value>() {
            last = Some(value?);
        }
        let last = last.ok_or_else(|| anyhow::anyhow!("no snapshot"))?;
        solution06::BarrierAligner::restore(inputs, &serde_json::to_vec(&last)?)?
    }
}
graders::impl_stage06!(RestoreReadsTheLastValue, restore_reads_the_last_value);

restoring! {
    /// **Mistake:** `restore` reads the bytes as text and trims it ("a file may end in a
    /// newline"), so whitespace JSON does not read is taken for no byte at all.
    /// **Verdict:** `configuration`: the snapshot after checkpoint 1 after a form feed
    /// restores (06-R14).
    restore_trims_text |inputs, bytes| {
        let text = std::str::from_utf8(bytes)?;
        solution06::BarrierAligner::restore(inputs, text.trim().as_bytes())?
    }
}
graders::impl_stage06!(RestoreTrimsText, restore_trims_text);

restoring! {
    /// **Mistake:** `restore` trims the end of the bytes with `trim_ascii_end` ("a file
    /// may end in a newline"): JSON reads a trailing space, tab, line feed or carriage
    /// return already, and this strips a form feed too (the eighth red team's w06-02).
    /// **Verdict:** `configuration`: the snapshot after checkpoint 1 followed by a form
    /// feed restores (06-R14).
    restore_trims_the_end |inputs, bytes| {
        solution06::BarrierAligner::restore(inputs, bytes.trim_ascii_end())?
    }
}
graders::impl_stage06!(RestoreTrimsTheEnd, restore_trims_the_end);

restoring! {
    /// **Mistake:** `restore` drops a leading byte-order mark ("an editor may have saved
    /// the file"), though no snapshot starts with one.
    /// **Verdict:** `configuration`: the snapshot after checkpoint 1 after a byte-order
    /// mark restores (06-R14).
    restore_strips_byte_order_mark |inputs, bytes| {
        let body = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
        solution06::BarrierAligner::restore(inputs, body)?
    }
}
graders::impl_stage06!(RestoreStripsByteOrderMark, restore_strips_byte_order_mark);

around! {
    /// **Mistake:** the next checkpoint id is `next.saturating_add(1)` ("no overflow, no
    /// panic"), so once checkpoint `u64::MAX` completes the aligner expects it again, and
    /// a barrier of a completed checkpoint is taken for the next one. Written over the
    /// reference (which refuses `Barrier(u64::MAX)`): after a restore that completed
    /// `u64::MAX - 1`, barriers `u64::MAX` align, every time, as this mistake does.
    /// **Verdict:** `configuration`: restored at `u64::MAX - 1`, `Barrier(u64::MAX)` on
    /// inputs 0 and 1 and then on input 0 again is answered Ok (06-R12).
    saturating_next { blocked_at_max: Vec<bool> } {
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)?, blocked_at_max: vec![false; inputs] })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.inner.is_blocked(input) || self.blocked_at_max.get(input) == Some(&true)
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                let at_max = matches!(e, Element::Barrier(CheckpointId::MAX))
                    && input < self.blocked_at_max.len()
                    && completed_in(&self.inner.snapshot()?)? == CheckpointId::MAX - 1;
                if !at_max {
                    return self.inner.on_element(input, e);
                }
                self.blocked_at_max[input] = true;
                if self.blocked_at_max.iter().all(|b| *b) {
                    self.blocked_at_max.fill(false);
                    return Ok(vec![Aligned::Checkpoint(CheckpointId::MAX)]);
                }
                Ok(Vec::new())
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                self.inner.snapshot()
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                let inner = solution06::BarrierAligner::restore(inputs, bytes)?;
                Ok(Self { inner, blocked_at_max: vec![false; inputs] })
            }
        }
    }
}
graders::impl_stage06!(SaturatingNext, saturating_next);

/// **Mistake:** `aligned_snapshots` refuses inputs that carry different numbers of
/// barriers ("every input must take every checkpoint"), though a checkpoint one input
/// never reaches simply does not complete.
/// **Verdict:** `aligned-snapshots`: input 0 = `[a0 B1]`, input 1 = `[b0]` is refused
/// (06-R15).
mod snapshots_need_equal_barriers {
    pub use solution06::*;
    pub fn aligned_snapshots<T, S: Clone>(
        inputs: Vec<Vec<Element<T>>>,
        schedule: &[usize],
        init: S,
        fold: impl FnMut(&mut S, &T),
    ) -> anyhow::Result<Vec<(CheckpointId, S)>> {
        let barriers = |input: &Vec<Element<T>>| {
            input
                .iter()
                .filter(|e| matches!(e, Element::Barrier(_)))
                .count()
        };
        if let Some(first) = inputs.first() {
            anyhow::ensure!(
                inputs
                    .iter()
                    .all(|input| barriers(input) == barriers(first)),
                "every input must carry the same number of barriers"
            );
        }
        solution06::aligned_snapshots(inputs, schedule, init, fold)
    }
}
graders::impl_stage06!(SnapshotsNeedEqualBarriers, snapshots_need_equal_barriers);

around! {
    /// **Mistake:** every refused call says only "invalid call" ("the caller knows what
    /// it passed"), so an input that does not exist is refused without naming it.
    /// **Verdict:** `configuration`: `on_element(2, a0)` on 2 inputs fails with a
    /// message that has no `input` (06-R11).
    unknown_input_unnamed { inputs: usize } {
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)?, inputs })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.inner.is_blocked(input)
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                ensure!(input < self.inputs, "invalid call");
                self.inner.on_element(input, e)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                self.inner.snapshot()
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::restore(inputs, bytes)?, inputs })
            }
        }
    }
}
graders::impl_stage06!(UnknownInputUnnamed, unknown_input_unnamed);

restoring! {
    /// **Mistake:** `restore` works out the next checkpoint as `completed + 1`, which
    /// overflows for a snapshot that claims checkpoint `u64::MAX`.
    /// **Verdict:** `configuration`: restoring the snapshot with its number set to
    /// `u64::MAX` panics (06-R14: such bytes are no snapshot, an error, never a panic).
    restore_next_overflows |inputs, bytes| {
        let next = completed_in(bytes)? + 1;
        solution06::BarrierAligner::restore(inputs, &reference_bytes(next - 1))?
    }
}
graders::impl_stage06!(RestoreNextOverflows, restore_next_overflows);

around! {
    /// **Mistake:** a snapshot taken while checkpoint `c` is being aligned records `c` as
    /// completed ("the barrier has been seen"), though only the last barrier completes it.
    /// **Verdict:** `contract`: after `Barrier(1)` on input 0 of 2, a restore from
    /// `snapshot()` refuses the replayed `Barrier(1)` (06-R13).
    snapshot_counts_the_aligning_one {} {
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)? })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.inner.is_blocked(input)
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                let out = self.inner.on_element(input, e)?;
                Ok(out)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                let completed = completed_in(&self.inner.snapshot()?)?;
                // Some input is blocked exactly while a checkpoint is being aligned; the
                // inputs are few, so the first 64 tell.
                let aligning = (0..64).any(|i| self.inner.is_blocked(i));
                Ok(reference_bytes(completed + u64::from(aligning)))
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::restore(inputs, bytes)? })
            }
        }
    }
}
graders::impl_stage06!(
    SnapshotCountsTheAligningOne,
    snapshot_counts_the_aligning_one
);

around! {
    /// **Mistake:** the last completed checkpoint is a field set where `Checkpoint(c)` is
    /// emitted, and `restore` sets only the next expected barrier: the snapshot of a
    /// restored aligner says 0 until it completes another checkpoint.
    /// **Verdict:** `contract`: `B1` on 1 input, a restore, a second restore, then `B2`
    /// is refused as out of turn (06-R13).
    snapshot_forgets_the_restored_one { last_completed: CheckpointId } {
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)?, last_completed: 0 })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.inner.is_blocked(input)
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                let out = self.inner.on_element(input, e)?;
                for element in &out {
                    if let Aligned::Checkpoint(c) = element {
                        self.last_completed = *c;
                    }
                }
                Ok(out)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                Ok(reference_bytes(self.last_completed))
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                Ok(Self {
                    inner: solution06::BarrierAligner::restore(inputs, bytes)?,
                    last_completed: 0,
                })
            }
        }
    }
}
graders::impl_stage06!(
    SnapshotForgetsTheRestoredOne,
    snapshot_forgets_the_restored_one
);

around! {
    /// **Mistake:** `is_blocked` reads a `Vec<bool>` of one flag per input by index, so
    /// asking about an input that does not exist panics instead of answering `false`.
    /// **Verdict:** `alignment`: `is_blocked(1)` on an aligner of 1 input panics (06-R3).
    is_blocked_by_index { blocked: Vec<bool> } {
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)?, blocked: vec![false; inputs] })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.blocked[input]
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                let out = self.inner.on_element(input, e)?;
                for (i, flag) in self.blocked.iter_mut().enumerate() {
                    *flag = self.inner.is_blocked(i);
                }
                Ok(out)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                self.inner.snapshot()
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                Ok(Self {
                    inner: solution06::BarrierAligner::restore(inputs, bytes)?,
                    blocked: vec![false; inputs],
                })
            }
        }
    }
}
graders::impl_stage06!(IsBlockedByIndex, is_blocked_by_index);

/// **Mistake:** `inject_barriers` leaves out a barrier after the last record ("nothing
/// follows it, so there is nothing to cut"), where the brief keeps it.
/// **Verdict:** `inject-barriers`: `[a0]` with `barrier_every = 1` gives `a0`, not
/// `a0 B1` (06-R1).
mod no_trailing_barrier {
    pub use solution06::*;

    pub fn inject_barriers<T: Clone>(
        records: &[T],
        barrier_every: usize,
    ) -> anyhow::Result<Vec<Element<T>>> {
        let mut stream = solution06::inject_barriers(records, barrier_every)?;
        if matches!(stream.last(), Some(Element::Barrier(_))) {
            stream.pop();
        }
        Ok(stream)
    }
}
graders::impl_stage06!(NoTrailingBarrier, no_trailing_barrier);

around! {
    /// A correct variant: the snapshot leaves out a checkpoint of 0, so a fresh aligner's
    /// snapshot is `{}`, and `restore(.., b"{}")` reads its own snapshot back.
    zero_left_out {} {
        #[derive(serde::Serialize, serde::Deserialize, Default)]
        struct Durable {
            #[serde(default, skip_serializing_if = "is_zero")]
            completed: CheckpointId,
        }

        fn is_zero(completed: &CheckpointId) -> bool {
            *completed == 0
        }

        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)? })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.inner.is_blocked(input)
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                self.inner.on_element(input, e)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                let completed = completed_in(&self.inner.snapshot()?)?;
                Ok(serde_json::to_vec(&Durable { completed })?)
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                let durable: Durable = serde_json::from_slice(bytes)?;
                let bytes = reference_bytes(durable.completed);
                Ok(Self { inner: solution06::BarrierAligner::restore(inputs, &bytes)? })
            }
        }
    }
}
graders::impl_stage06!(ZeroLeftOut, zero_left_out);
accepted!(a_snapshot_of_nothing_written_as_an_empty_object_passes: Barriers, drive::<ZeroLeftOut>);

/// A correct variant: `aligned_snapshots` counts what the schedule takes from every input
/// before it delivers anything, so a schedule it cannot follow fails before any work.
mod schedule_checked_first {
    use anyhow::{Result, ensure};
    pub use solution06::{Aligned, BarrierAligner, CheckpointId, Element, inject_barriers};

    pub fn aligned_snapshots<T, S: Clone>(
        inputs: Vec<Vec<Element<T>>>,
        schedule: &[usize],
        init: S,
        mut fold: impl FnMut(&mut S, &T),
    ) -> Result<Vec<(CheckpointId, S)>> {
        ensure!(!inputs.is_empty(), "inputs must not be empty");
        let mut taken = vec![0usize; inputs.len()];
        for (step, &input) in schedule.iter().enumerate() {
            ensure!(
                input < inputs.len(),
                "step {step}: input {input} does not exist"
            );
            taken[input] += 1;
            ensure!(
                taken[input] <= inputs[input].len(),
                "step {step}: input {input} has only {} elements",
                inputs[input].len()
            );
        }
        let mut aligner = BarrierAligner::new(inputs.len())?;
        let mut queues: Vec<std::collections::VecDeque<Element<T>>> =
            inputs.into_iter().map(Into::into).collect();
        let (mut state, mut snapshots) = (init, Vec::new());
        for &input in schedule {
            let element = queues[input].pop_front().expect("counted above");
            for out in aligner.on_element(input, element)? {
                match out {
                    Aligned::Record(record) => fold(&mut state, &record),
                    Aligned::Checkpoint(c) => snapshots.push((c, state.clone())),
                }
            }
        }
        Ok(snapshots)
    }
}
graders::impl_stage06!(ScheduleCheckedFirst, schedule_checked_first);
accepted!(a_schedule_checked_before_it_runs_passes: Barriers, drive::<ScheduleCheckedFirst>);

around! {
    /// **Mistake:** the snapshot also writes the number of inputs, "for the record" of
    /// the job it was taken from; `restore` ignores it (a job may be rescaled).
    /// **Verdict:** `crash`: `new(1)` and `new(2)`, both fresh, write different bytes
    /// (06-R13).
    snapshot_writes_its_inputs { inputs: usize } {
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)?, inputs })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.inner.is_blocked(input)
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                self.inner.on_element(input, e)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                let completed = completed_in(&self.inner.snapshot()?)?;
                Ok(format!("{{\"completed\":{completed},\"inputs\":{}}}", self.inputs).into_bytes())
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                let mut value: serde_json::Value = serde_json::from_slice(bytes)?;
                let fields = value.as_object_mut().ok_or_else(|| anyhow::anyhow!("not a snapshot"))?;
                ensure!(fields.remove("inputs").is_some_and(|n| n.is_u64()), "not a snapshot");
                let inner = solution06::BarrierAligner::restore(inputs, &serde_json::to_vec(&value)?)?;
                Ok(Self { inner, inputs })
            }
        }
    }
}
graders::impl_stage06!(SnapshotWritesItsInputs, snapshot_writes_its_inputs);

around! {
    /// **Mistake:** the snapshot also writes how many records are held back ("to check
    /// the replay against"); `restore` reads the number and drops it, since the replay
    /// delivers them again.
    /// **Verdict:** `crash`: `new(2)` after checkpoint 1 and the same aligner holding
    /// `a1` back while checkpoint 2 aligns write different bytes (06-R13).
    snapshot_writes_what_it_holds { held: usize } {
        impl<T> BarrierAligner<T> {
            pub fn new(inputs: usize) -> Result<Self> {
                Ok(Self { inner: solution06::BarrierAligner::new(inputs)?, held: 0 })
            }
            pub fn is_blocked(&self, input: usize) -> bool {
                self.inner.is_blocked(input)
            }
            pub fn on_element(&mut self, input: usize, e: Element<T>) -> Result<Vec<Aligned<T>>> {
                let is_record = matches!(e, Element::Record(_));
                let out = self.inner.on_element(input, e)?;
                if is_record && out.is_empty() {
                    self.held += 1;
                } else if out.iter().any(|o| matches!(o, Aligned::Checkpoint(_))) {
                    self.held = 0;
                }
                Ok(out)
            }
            pub fn snapshot(&self) -> Result<Vec<u8>> {
                let completed = completed_in(&self.inner.snapshot()?)?;
                Ok(format!("{{\"completed\":{completed},\"held\":{}}}", self.held).into_bytes())
            }
            pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
                let mut value: serde_json::Value = serde_json::from_slice(bytes)?;
                let fields = value.as_object_mut().ok_or_else(|| anyhow::anyhow!("not a snapshot"))?;
                ensure!(fields.remove("held").is_some_and(|n| n.is_u64()), "not a snapshot");
                let inner = solution06::BarrierAligner::restore(inputs, &serde_json::to_vec(&value)?)?;
                Ok(Self { inner, held: 0 })
            }
        }
    }
}
graders::impl_stage06!(SnapshotWritesWhatItHolds, snapshot_writes_what_it_holds);

/// A panic of `is_blocked` ends the alignment's run before any step is judged, so its
/// failure names no rule: the check alone must reject it.
#[test]
fn is_blocked_by_index_is_rejected() {
    crate::rejects::<Barriers>(drive::<IsBlockedByIndex>, "alignment");
}

/// Every mutant of this file, the check that must reject it and the requirement its
/// smallest failing case must name (no card: see each mutant's doc).
#[rstest]
#[case::input_check_overflows(drive::<InputCheckOverflows>, "configuration", "06-R11")]
#[case::restore_defaulted_snapshot(drive::<RestoreDefaultedSnapshot>, "configuration", "06-R14")]
#[case::restore_ignores_trailing(drive::<RestoreIgnoresTrailing>, "configuration", "06-R14")]
#[case::restore_reads_the_last_value(drive::<RestoreReadsTheLastValue>, "configuration", "06-R14")]
#[case::restore_trims_text(drive::<RestoreTrimsText>, "configuration", "06-R14")]
#[case::restore_trims_the_end(drive::<RestoreTrimsTheEnd>, "configuration", "06-R14")]
#[case::restore_strips_byte_order_mark(drive::<RestoreStripsByteOrderMark>, "configuration", "06-R14")]
#[case::saturating_next(drive::<SaturatingNext>, "configuration", "06-R12")]
#[case::restore_lenient_value(drive::<RestoreLenientValue>, "configuration", "06-R14")]
#[case::restore_quoted_numbers(drive::<RestoreQuotedNumbers>, "configuration", "06-R14")]
#[case::restore_truncated_float(drive::<RestoreTruncatedFloat>, "configuration", "06-R14")]
#[case::restore_signed_completed(drive::<RestoreSignedCompleted>, "configuration", "06-R14")]
#[case::restore_null_is_fresh(drive::<RestoreNullIsFresh>, "configuration", "06-R14")]
#[case::restore_max_saturates(drive::<RestoreMaxSaturates>, "configuration", "06-R14")]
#[case::restore_next_saturates(drive::<RestoreNextSaturates>, "configuration", "06-R14")]
#[case::snapshots_need_equal_barriers(drive::<SnapshotsNeedEqualBarriers>, "aligned-snapshots", "06-R15")]
#[case::unknown_input_unnamed(drive::<UnknownInputUnnamed>, "configuration", "06-R11")]
#[case::restore_next_overflows(drive::<RestoreNextOverflows>, "configuration", "06-R14")]
#[case::snapshot_counts_the_aligning_one(drive::<SnapshotCountsTheAligningOne>, "contract", "06-R13")]
#[case::snapshot_forgets_the_restored_one(drive::<SnapshotForgetsTheRestoredOne>, "contract", "06-R13")]
#[case::no_trailing_barrier(drive::<NoTrailingBarrier>, "inject-barriers", "06-R1")]
#[case::snapshot_writes_its_inputs(drive::<SnapshotWritesItsInputs>, "crash", "06-R13")]
#[case::snapshot_writes_what_it_holds(drive::<SnapshotWritesWhatItHolds>, "crash", "06-R13")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    if let Err(why) = graders::harness::expect_rejected_for::<Barriers>(drive, check, requirement) {
        crate::fail(&why);
    }
}
