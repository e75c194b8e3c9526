//! The elements that flow on an input (records and barriers) and what alignment emits.

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

/// The number of a checkpoint. Checkpoints are numbered 1, 2, 3, ... in the order they
/// are taken; 0 is never a checkpoint (it stands for "none yet" where one is needed).
pub type CheckpointId = u64;

/// One element of an input stream: a record, or the barrier that separates the records
/// before checkpoint `c` from those after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Element<T> {
    /// A data record.
    Record(T),
    /// Everything before this element on this input belongs to checkpoint `c`.
    Barrier(CheckpointId),
}

/// What a [`BarrierAligner`](crate::BarrierAligner) lets through to the operator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Aligned<T> {
    /// A record to process now.
    Record(T),
    /// Every input has delivered barrier `c`: snapshot the state now, before any record
    /// that follows in the same output.
    Checkpoint(CheckpointId),
}

/// The stream a source emits for `records`: `Barrier(c)` right after record number
/// `c * barrier_every` (counting from 1), so `barrier_every = 2` over `[a, b, c, d, e]`
/// gives `a b B1 c d B2 e`.
///
/// Barrier `c` sits at the same offset on every replay of the same records, which is
/// what lets a recovering job find its cut again.
///
/// # Errors
/// When `barrier_every` is 0: a source must eventually inject the next barrier.
pub fn inject_barriers<T: Clone>(records: &[T], barrier_every: usize) -> Result<Vec<Element<T>>> {
    if barrier_every == 0 {
        bail!("barrier_every must be at least 1, got 0");
    }
    let mut stream = Vec::with_capacity(records.len() + records.len() / barrier_every);
    for (index, record) in records.iter().enumerate() {
        stream.push(Element::Record(record.clone()));
        let taken = index + 1;
        if taken % barrier_every == 0 {
            stream.push(Element::Barrier((taken / barrier_every) as CheckpointId));
        }
    }
    Ok(stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn barriers_follow_every_nth_record_including_the_last() {
        use Element::{Barrier as B, Record as R};
        assert_eq!(
            inject_barriers(&[1, 2, 3, 4, 5], 2).unwrap(),
            [R(1), R(2), B(1), R(3), R(4), B(2), R(5)]
        );
        assert_eq!(
            inject_barriers(&[1, 2], 1).unwrap(),
            [R(1), B(1), R(2), B(2)]
        );
        assert_eq!(inject_barriers(&[1, 2], 3).unwrap(), [R(1), R(2)]);
        assert_eq!(inject_barriers::<u8>(&[], 1).unwrap(), []);
    }

    #[test]
    fn zero_cadence_is_an_error_naming_it() {
        let err = inject_barriers(&[1], 0).unwrap_err().to_string();
        assert!(err.contains("barrier_every"), "{err}");
    }
}
