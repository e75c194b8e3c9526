//! The watermark of an operator with several inputs: the minimum of theirs.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::Timestamp;

/// Combines the watermarks of `inputs` inputs into the operator's own.
///
/// Each input's watermark is the largest it has reported (a smaller one later is ignored:
/// a promise once made stays made). The combined watermark is the minimum over inputs,
/// because event time has surely passed `W` only when every input says so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombinedWatermark {
    inputs: Vec<Option<Timestamp>>,
    combined: Option<Timestamp>,
}

impl CombinedWatermark {
    /// A combiner for `inputs` inputs, none of which has reported.
    ///
    /// # Errors
    /// When `inputs` is 0: an operator without inputs has no watermark to combine.
    pub fn new(inputs: usize) -> Result<Self> {
        if inputs == 0 {
            bail!("inputs must be at least 1, got 0");
        }
        Ok(Self {
            inputs: vec![None; inputs],
            combined: None,
        })
    }

    /// Records watermark `ts` of `input`; returns the combined watermark if it advanced.
    ///
    /// `None` until every input has reported: an input that has said nothing may still
    /// send a record of any timestamp.
    ///
    /// # Errors
    /// When `input` is not one of the inputs.
    pub fn on_watermark(&mut self, input: usize, ts: Timestamp) -> Result<Option<Timestamp>> {
        let count = self.inputs.len();
        let Some(slot) = self.inputs.get_mut(input) else {
            bail!("input must be below the number of inputs {count}, got {input}");
        };
        *slot = Some(slot.map_or(ts, |old| old.max(ts)));
        // `min` over `Option`s is `None` as soon as one input is still silent.
        let minimum = self.inputs.iter().copied().min().flatten();
        if minimum > self.combined {
            self.combined = minimum;
            return Ok(minimum);
        }
        Ok(None)
    }

    /// The combined watermark emitted last, if any.
    pub fn current(&self) -> Option<Timestamp> {
        self.combined
    }

    /// Every input's watermark and the combined one, as bytes.
    ///
    /// # Errors
    /// Never in practice; the signature is the one every stateful type shares.
    pub fn snapshot(&self) -> Result<Vec<u8>> {
        serde_json::to_vec(self).context("serialising a combined watermark")
    }

    /// The combiner that [`snapshot`](Self::snapshot) saved.
    ///
    /// # Errors
    /// When `bytes` is not a combiner snapshot.
    pub fn restore(bytes: &[u8]) -> Result<Self> {
        serde_json::from_slice(bytes).context("restoring a combined watermark: not a snapshot")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_until_all_report_then_the_running_minimum() {
        let mut combiner = CombinedWatermark::new(2).unwrap();
        assert_eq!(combiner.on_watermark(0, 5).unwrap(), None);
        assert_eq!(combiner.on_watermark(0, 7).unwrap(), None);
        assert_eq!(combiner.on_watermark(1, 3).unwrap(), Some(3));
        assert_eq!(
            combiner.on_watermark(1, 2).unwrap(),
            None,
            "input 1 cannot regress"
        );
        assert_eq!(combiner.on_watermark(1, 9).unwrap(), Some(7));
        assert!(
            combiner
                .on_watermark(2, 1)
                .unwrap_err()
                .to_string()
                .contains("input")
        );
        assert!(
            CombinedWatermark::new(0)
                .unwrap_err()
                .to_string()
                .contains("inputs")
        );
    }
}
