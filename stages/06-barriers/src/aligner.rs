//! Barrier alignment: hold back the inputs that are past the cut (06-R5) (06-R9) until
//! every input is (06-R7).

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
    /// When `inputs` is 0, with a message that names `inputs` (06-R10).
    pub fn new(inputs: usize) -> Result<Self> {
        // TODO(stage 06): reject 0 inputs; start with nothing blocked or buffered.
        let _ = inputs;
        todo!()
    }

    /// Whether `input` has delivered the barrier of the checkpoint being aligned (06-R3), so
    /// that whatever it delivers now is buffered (06-R9). `false` for an input that does not
    /// exist (06-R3).
    pub fn is_blocked(&self, input: usize) -> bool {
        // TODO(stage 06): answer from your alignment state.
        let _ = input;
        todo!()
    }

    /// Handles one element arriving on `input` and returns the elements it lets through to
    /// the operator.
    ///
    /// A record of an unblocked input comes straight back (06-R4). A barrier blocks its
    /// input (06-R5), and a record or barrier of a blocked input is buffered (06-R9). The
    /// barrier that completes the alignment produces `Checkpoint(c)` (06-R6) followed by
    /// the buffered elements, re-fed in arrival order as if they arrived now (06-R7). With a
    /// single input, every barrier completes its alignment at once (06-R8).
    ///
    /// # Errors
    /// When `input` does not exist (06-R11), or when a barrier arrives out of turn: every
    /// input carries barriers 1, 2, 3, ... in order, so a barrier other than the one being
    /// aligned (or, when none is, the next one) is an error (06-R12).
    pub fn on_element(&mut self, input: usize, element: Element<T>) -> Result<Vec<Aligned<T>>> {
        // TODO(stage 06): buffer what a blocked input delivers; pass records through;
        // on a barrier block its input, and when it was the last one emit the checkpoint
        // and re-feed the buffer as if it were arriving now.
        let _ = (input, element);
        todo!()
    }

    /// The aligner's durable state as bytes (serde_json): the last checkpoint it
    /// completed. Buffers and blocked inputs are not part of it (06-R13).
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        // TODO(stage 06): serialise which checkpoint was completed last.
        todo!()
    }

    /// An aligner for `inputs` inputs that resumes after the checkpoint recorded in
    /// `bytes` (from [`snapshot`](Self::snapshot)): nothing blocked, nothing buffered
    /// (06-R13).
    ///
    /// # Errors
    /// When `inputs` is 0 or `bytes` is not an aligner snapshot (06-R14).
    pub fn restore(inputs: usize, bytes: &[u8]) -> Result<Self> {
        // TODO(stage 06): read back what `snapshot` wrote; expect the next checkpoint.
        let _ = (inputs, bytes);
        todo!()
    }
}
