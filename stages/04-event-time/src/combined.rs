//! The watermark of an operator with several inputs: the minimum of theirs.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::Timestamp;

/// Combines the watermarks of `inputs` inputs into the operator's own.
///
/// Each input's watermark is the largest it has reported: a smaller one later changes
/// nothing (04-R9). The combined watermark is the minimum over inputs (04-R7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombinedWatermark {
    inputs: Vec<Option<Timestamp>>,
    combined: Option<Timestamp>,
}

impl CombinedWatermark {
    /// A combiner for `inputs` inputs, none of which has reported.
    ///
    /// # Errors
    /// When `inputs` is 0; the message contains `inputs` (04-R11).
    pub fn new(inputs: usize) -> Result<Self> {
        // TODO(stage 04): reject 0 inputs (name the argument), else no input has reported.
        let _ = inputs;
        todo!()
    }

    /// Records watermark `ts` of `input`; returns the combined watermark in the call where
    /// it advances, `None` otherwise (04-R7), and `None` until every input has reported
    /// (04-R8).
    ///
    /// # Errors
    /// When `input` is not one of the inputs: the message contains `input`, and nothing
    /// changes (04-R12).
    pub fn on_watermark(&mut self, input: usize, ts: Timestamp) -> Result<Option<Timestamp>> {
        // TODO(stage 04): update the input, take the minimum, report it only if it advanced.
        let _ = (input, ts);
        todo!()
    }

    /// The combined watermark emitted last, if any (04-R10).
    pub fn current(&self) -> Option<Timestamp> {
        self.combined
    }

    /// Every input's watermark and the combined one, as bytes (04-R13) (04-R14).
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        // TODO(stage 04): everything a restored combiner needs (serde_json).
        todo!()
    }

    /// The combiner that [`snapshot`](Self::snapshot) saved.
    ///
    /// # Errors
    /// When `bytes` is not a combiner snapshot (04-R15).
    pub fn restore(bytes: &[u8]) -> Result<Self> {
        // TODO(stage 04): the inverse of `snapshot`.
        let _ = bytes;
        todo!()
    }
}
