//! The watermark of an operator with several inputs: the minimum of theirs.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::Timestamp;

/// Combines the watermarks of `inputs` inputs into the operator's own.
///
/// Each input's watermark is the largest it has reported (a smaller one later is ignored:
/// a promise once made stays made). The combined watermark is the minimum over inputs,
/// because event time has surely passed `W` only when every input says so.
///
/// `combined` is always the minimum of `inputs` (each input's watermark only grows, so
/// their minimum only grows, and it is stored whenever it advances): `restore` refuses a
/// snapshot where it is not, or of no input at all, or missing a field, since no
/// combiner wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombinedWatermark {
    inputs: Vec<Option<Timestamp>>,
    #[serde(deserialize_with = "present")]
    combined: Option<Timestamp>,
}

/// Reads a field as its type does: with `deserialize_with`, serde reports a missing field
/// as an error rather than reading a missing `Option` as `None`.
fn present<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer)
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
        let minimum = self.minimum();
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

    /// The minimum of the inputs' watermarks, `None` while one input is silent.
    fn minimum(&self) -> Option<Timestamp> {
        // `min` over `Option`s is `None` as soon as one input is still silent.
        self.inputs.iter().copied().min().flatten()
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
    /// When `bytes` is not a combiner snapshot: not one in form, or of no input, or whose
    /// combined watermark is not the minimum of its inputs'.
    pub fn restore(bytes: &[u8]) -> Result<Self> {
        let restored: Self = serde_json::from_slice(bytes)
            .context("restoring a combined watermark: not a snapshot")?;
        if restored.inputs.is_empty() {
            bail!("restoring a combined watermark: not a snapshot, it has no inputs");
        }
        if restored.combined != restored.minimum() {
            bail!(
                "restoring a combined watermark: not a snapshot, its combined watermark {:?} is not the minimum {:?} of its inputs'",
                restored.combined,
                restored.minimum()
            );
        }
        Ok(restored)
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

    #[test]
    fn restore_refuses_what_no_combiner_wrote() {
        let mut combiner = CombinedWatermark::new(2).unwrap();
        for (input, ts) in [(0, 5), (1, 3), (1, 9)] {
            combiner.on_watermark(input, ts).unwrap();
            let restored = CombinedWatermark::restore(&combiner.snapshot().unwrap()).unwrap();
            assert_eq!(restored, combiner);
        }
        assert_eq!(
            CombinedWatermark::restore(br#"{"inputs":[4,null],"combined":null}"#).unwrap(),
            {
                let mut c = CombinedWatermark::new(2).unwrap();
                c.on_watermark(0, 4).unwrap();
                c
            }
        );
        for junk in [
            // No input: `new(0)` is an error, so no combiner has none.
            &br#"{"inputs":[],"combined":null}"#[..],
            br#"{"inputs":[]}"#,
            // A combined watermark that is not the minimum of the inputs'.
            br#"{"inputs":[1],"combined":99}"#,
            br#"{"inputs":[1],"combined":null}"#,
            br#"{"inputs":[1,null],"combined":1}"#,
            // A field missing, or one too many.
            br#"{"inputs":[1]}"#,
            br#"{"combined":null}"#,
            br#"{"inputs":[1],"combined":1,"late":0}"#,
            b"{}",
            b"[]",
            b"null",
            b"",
        ] {
            assert!(
                CombinedWatermark::restore(junk).is_err(),
                "{}",
                String::from_utf8_lossy(junk)
            );
        }
    }
}
