//! Barrier alignment: hold back the inputs that are past the cut until every input is.

use std::collections::VecDeque;

use anyhow::Result;

use crate::{Aligned, Element};

/// Aligns the barriers of several inputs in front of one operator.
///
/// Generic over the record type `T` because it owns the elements it holds back.
#[derive(Debug, Clone)]
// TODO(stage 06): remove this `allow` once your code reads the fields.
#[allow(dead_code)]
pub struct BarrierAligner<T> {
    inputs: usize,
    // Elements of blocked inputs, oldest first across all inputs.
    buffered: VecDeque<(usize, Element<T>)>,
    // TODO(stage 06): add what you need to know where the alignment stands (which
    // checkpoint is next, which inputs are blocked). An enum of phases reads well.
}

impl<T> BarrierAligner<T> {
    /// An aligner for `inputs` inputs, numbered `0..inputs`, expecting checkpoint 1 next.
    ///
    /// # Errors
    /// When `inputs` is 0 (the message names `inputs`).
    pub fn new(inputs: usize) -> Result<Self> {
        // TODO(stage 06): reject 0 inputs; start with nothing blocked or buffered.
        let _ = inputs;
        todo!()
    }

    /// Whether `input` has delivered the barrier of the checkpoint being aligned, so that
    /// whatever it delivers now is buffered. `false` for an input that does not exist.
    pub fn is_blocked(&self, input: usize) -> bool {
        // TODO(stage 06): answer from your alignment state.
        let _ = input;
        todo!()
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
        // TODO(stage 06): buffer what a blocked input delivers; pass records through;
        // on a barrier block its input, and when it was the last one emit the checkpoint
        // and re-feed the buffer as if it were arriving now.
        let _ = (input, element);
        todo!()
    }

    /// The aligner's durable state as bytes (serde_json): the last checkpoint it
    /// completed. Buffers and blocked inputs are not part of it.
    ///
    /// # Errors
    /// When serialisation fails.
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        // TODO(stage 06): serialise which checkpoint was completed last.
        todo!()
    }

    /// An aligner for `inputs` inputs that resumes after the checkpoint recorded in
    /// `bytes` (from [`snapshot`](Self::snapshot)): nothing blocked, nothing buffered.
    ///
    /// # Errors
    /// When `inputs` is 0 or `bytes` is not an aligner snapshot.
    pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
        // TODO(stage 06): read back what `snapshot` wrote; expect the next checkpoint.
        let _ = (inputs, bytes);
        todo!()
    }
}
