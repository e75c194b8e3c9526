//! Barrier alignment: hold back the inputs that are past the cut until every input is.

use std::collections::{BTreeSet, VecDeque};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::{Aligned, CheckpointId, Element};

/// Aligns the barriers of several inputs in front of one operator.
///
/// Feed it every element of every input, in the order they arrive, with
/// [`on_element`](Self::on_element); process what it returns, in order. It guarantees
/// that the records returned before `Checkpoint(c)` are exactly the records that precede
/// `Barrier(c)` on every input.
///
/// Generic over the record type `T` because it owns the elements it holds back.
#[derive(Debug, Clone)]
pub struct BarrierAligner<T> {
    inputs: usize,
    phase: Phase,
    // Elements of blocked inputs, oldest first across all inputs, so that releasing them
    // replays the arrival order exactly.
    buffered: VecDeque<(usize, Element<T>)>,
}

/// Where the aligner is in the protocol of the next checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Phase {
    /// No input has delivered barrier `next` yet; every input flows freely.
    Idle { next: CheckpointId },
    /// The inputs in `blocked` have delivered barrier `checkpoint` and wait for the rest.
    Aligning {
        checkpoint: CheckpointId,
        blocked: BTreeSet<usize>,
    },
}

/// The part of an aligner that survives a crash: which checkpoint comes next.
///
/// The buffers and the set of blocked inputs are deliberately absent: recovery replays
/// every input from its cut, which delivers those elements (and those barriers) again.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Durable {
    completed: CheckpointId,
}

impl<T> BarrierAligner<T> {
    /// An aligner for `inputs` inputs, numbered `0..inputs`, expecting checkpoint 1 next.
    ///
    /// # Errors
    /// When `inputs` is 0: an operator with no input has nothing to align.
    pub fn new(inputs: usize) -> Result<Self> {
        Self::resuming_after(inputs, 0)
    }

    /// Whether `input` has delivered the barrier of the checkpoint being aligned, so that
    /// whatever it delivers now is buffered. `false` for an input that does not exist.
    pub fn is_blocked(&self, input: usize) -> bool {
        match &self.phase {
            Phase::Idle { .. } => false,
            Phase::Aligning { blocked, .. } => blocked.contains(&input),
        }
    }

    /// Handles one element arriving on `input` and returns what the operator must
    /// process now, in order.
    ///
    /// A record of an unblocked input comes straight back. A record or barrier of a
    /// blocked input is buffered. The barrier that completes the alignment produces
    /// `Checkpoint(c)` followed by the buffered elements, re-fed in arrival order.
    ///
    /// # Errors
    /// When `input` does not exist, or when a barrier arrives out of turn (every input
    /// must carry barriers 1, 2, 3, ... in order).
    pub fn on_element(&mut self, input: usize, element: Element<T>) -> Result<Vec<Aligned<T>>> {
        if input >= self.inputs {
            bail!(
                "input {input} does not exist: this aligner has {} inputs",
                self.inputs
            );
        }
        let mut out = Vec::new();
        // Arrivals still to handle, oldest first. When a checkpoint is emitted, the buffer
        // it releases goes in front of anything left here, because it arrived earlier.
        // (Only the new element can complete an alignment: the input delivering the last
        // barrier was not blocked, so its next barrier cannot be in the buffer.)
        let mut arrivals = VecDeque::from([(input, element)]);
        while let Some((input, element)) = arrivals.pop_front() {
            if self.is_blocked(input) {
                self.buffered.push_back((input, element));
                continue;
            }
            match element {
                Element::Record(record) => out.push(Aligned::Record(record)),
                Element::Barrier(id) => {
                    if let Some(checkpoint) = self.on_barrier(input, id)? {
                        // The snapshot marker goes out before anything released: the
                        // released elements are all after the cut.
                        out.push(Aligned::Checkpoint(checkpoint));
                        let mut released = std::mem::take(&mut self.buffered);
                        released.append(&mut arrivals);
                        arrivals = released;
                    }
                }
            }
        }
        Ok(out)
    }

    /// Records that the unblocked `input` delivered barrier `id`; returns the checkpoint
    /// this completes, if it was the last input missing.
    fn on_barrier(&mut self, input: usize, id: CheckpointId) -> Result<Option<CheckpointId>> {
        let expected = match &self.phase {
            Phase::Idle { next } => *next,
            Phase::Aligning { checkpoint, .. } => *checkpoint,
        };
        if id != expected {
            bail!(
                "input {input} delivered barrier {id}, expected barrier {expected}: every input \
                 carries barriers 1, 2, 3, ... in order"
            );
        }
        // After checkpoint u64::MAX no id is left for the next one: its barrier is refused,
        // the aligner unchanged, where `id + 1` would overflow. No job takes 2^64
        // checkpoints, but restored bytes can say it took 2^64 - 2.
        if id == CheckpointId::MAX {
            bail!(
                "input {input} delivered barrier {id}: no checkpoint id follows it, so \
                 checkpoint {id} can never complete"
            );
        }
        let mut blocked = match std::mem::replace(&mut self.phase, Phase::Idle { next: id }) {
            Phase::Idle { .. } => BTreeSet::new(),
            Phase::Aligning { blocked, .. } => blocked,
        };
        blocked.insert(input);
        if blocked.len() == self.inputs {
            self.phase = Phase::Idle { next: id + 1 };
            Ok(Some(id))
        } else {
            self.phase = Phase::Aligning {
                checkpoint: id,
                blocked,
            };
            Ok(None)
        }
    }

    /// The aligner's durable state as bytes: the last checkpoint it completed.
    ///
    /// # Errors
    /// When serialisation fails.
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        let next = match &self.phase {
            Phase::Idle { next } => *next,
            Phase::Aligning { checkpoint, .. } => *checkpoint,
        };
        let durable = Durable {
            completed: next - 1,
        };
        serde_json::to_vec(&durable).context("serialising the barrier aligner")
    }

    /// An aligner for `inputs` inputs that resumes after the checkpoint recorded in
    /// `bytes` (from [`snapshot`](Self::snapshot)): nothing blocked, nothing buffered,
    /// expecting the next checkpoint's barriers.
    ///
    /// # Errors
    /// When `inputs` is 0 or `bytes` is not an aligner snapshot.
    pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
        let not_a_snapshot = "restoring a barrier aligner: not a snapshot";
        // Read as JSON first: serde would also read the struct from a list (`[0]`), which
        // `snapshot` never writes.
        let value: serde_json::Value = serde_json::from_slice(bytes).context(not_a_snapshot)?;
        anyhow::ensure!(value.is_object(), "{not_a_snapshot} (not a JSON object)");
        let durable: Durable = serde_json::from_value(value).context(not_a_snapshot)?;
        Self::resuming_after(inputs, durable.completed)
    }

    fn resuming_after(inputs: usize, completed: CheckpointId) -> Result<Self> {
        if inputs == 0 {
            bail!("inputs must be at least 1, got 0");
        }
        // No aligner completes checkpoint u64::MAX and goes on: bytes that say so were
        // not written by `snapshot`, and an error beats an overflow.
        let next = completed.checked_add(1).context(
            "restoring a barrier aligner: not a snapshot (no checkpoint follows u64::MAX)",
        )?;
        Ok(Self {
            inputs,
            phase: Phase::Idle { next },
            buffered: VecDeque::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Aligned::{Checkpoint, Record as Out};
    use Element::{Barrier, Record};

    #[test]
    fn the_last_barrier_emits_the_checkpoint_then_the_buffer_in_arrival_order() {
        let mut aligner = BarrierAligner::new(2).unwrap();
        assert_eq!(aligner.on_element(0, Record("a0")).unwrap(), [Out("a0")]);
        assert_eq!(aligner.on_element(0, Barrier(1)).unwrap(), []);
        assert!(aligner.is_blocked(0) && !aligner.is_blocked(1));
        assert_eq!(aligner.on_element(0, Record("a1")).unwrap(), []);
        assert_eq!(aligner.on_element(1, Record("b0")).unwrap(), [Out("b0")]);
        assert_eq!(aligner.on_element(0, Record("a2")).unwrap(), []);
        assert_eq!(
            aligner.on_element(1, Barrier(1)).unwrap(),
            [Checkpoint(1), Out("a1"), Out("a2")]
        );
        assert!(!aligner.is_blocked(0));
    }

    #[test]
    fn the_barrier_of_checkpoint_u64_max_is_refused_not_an_overflow() {
        let last = CheckpointId::MAX - 1;
        let bytes = serde_json::to_vec(&Durable { completed: last }).unwrap();
        let mut aligner = BarrierAligner::<&str>::restore(2, &bytes).unwrap();
        let error = aligner
            .on_element(0, Barrier(CheckpointId::MAX))
            .unwrap_err();
        assert!(
            error.to_string().contains("no checkpoint id follows"),
            "{error}"
        );
        assert!(!aligner.is_blocked(0), "a refused barrier changes nothing");
        assert_eq!(aligner.snapshot().unwrap(), bytes);
    }

    #[test]
    fn restore_reads_only_what_snapshot_writes() {
        let own = BarrierAligner::<&str>::new(2).unwrap().snapshot().unwrap();
        assert!(BarrierAligner::<&str>::restore(2, &own).is_ok());
        for bytes in [&b"[0]"[..], br#"{"completed":0,"inputs":2}"#, b"{}"] {
            let error = BarrierAligner::<&str>::restore(2, bytes).unwrap_err();
            assert!(format!("{error:#}").contains("not a snapshot"), "{error:#}");
        }
    }

    #[test]
    fn a_buffered_barrier_blocks_its_input_again_when_re_fed() {
        let mut aligner = BarrierAligner::new(2).unwrap();
        for element in [Barrier(1), Record("a1"), Barrier(2), Record("a2")] {
            assert_eq!(aligner.on_element(0, element).unwrap(), []);
        }
        assert_eq!(
            aligner.on_element(1, Barrier(1)).unwrap(),
            [Checkpoint(1), Out("a1")]
        );
        assert!(aligner.is_blocked(0));
        assert_eq!(aligner.on_element(1, Record("b1")).unwrap(), [Out("b1")]);
        assert_eq!(
            aligner.on_element(1, Barrier(2)).unwrap(),
            [Checkpoint(2), Out("a2")]
        );
    }

    #[test]
    fn buffers_of_several_inputs_are_re_fed_in_arrival_order() {
        let mut aligner = BarrierAligner::new(3).unwrap();
        aligner.on_element(0, Barrier(1)).unwrap();
        aligner.on_element(1, Barrier(1)).unwrap();
        for (input, record) in [(1, "b1"), (0, "a1"), (1, "b2")] {
            assert_eq!(aligner.on_element(input, Record(record)).unwrap(), []);
        }
        assert_eq!(
            aligner.on_element(2, Barrier(1)).unwrap(),
            [Checkpoint(1), Out("b1"), Out("a1"), Out("b2")]
        );
    }

    #[test]
    fn a_single_input_checkpoints_at_once() {
        let mut aligner = BarrierAligner::new(1).unwrap();
        assert_eq!(
            aligner.on_element(0, Barrier(1)).unwrap(),
            [Checkpoint::<u8>(1)]
        );
        assert!(!aligner.is_blocked(0));
    }

    #[test]
    fn bad_configuration_and_out_of_turn_barriers_are_errors() {
        assert!(
            BarrierAligner::<u8>::new(0)
                .unwrap_err()
                .to_string()
                .contains("inputs")
        );
        let mut aligner = BarrierAligner::<u8>::new(2).unwrap();
        assert!(aligner.on_element(2, Barrier(1)).is_err());
        assert!(aligner.on_element(0, Barrier(2)).is_err());
    }

    #[test]
    fn a_restored_aligner_expects_the_checkpoint_after_the_snapshot() {
        let mut aligner = BarrierAligner::<u8>::new(1).unwrap();
        aligner.on_element(0, Barrier(1)).unwrap();
        let mut restored = BarrierAligner::<u8>::restore(1, &aligner.snapshot().unwrap()).unwrap();
        assert_eq!(restored.on_element(0, Barrier(2)).unwrap(), [Checkpoint(2)]);
    }

    #[test]
    fn bytes_claiming_the_last_checkpoint_id_are_refused_not_overflowed() {
        let bytes = format!("{{\"completed\":{}}}", u64::MAX);
        let refused = BarrierAligner::<u8>::restore(1, bytes.as_bytes());
        assert!(refused.is_err_and(|e| format!("{e:#}").contains("not a snapshot")));
    }
}
