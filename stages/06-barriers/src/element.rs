//! The elements that flow on an input (records and barriers) and what alignment emits.

use anyhow::Result;
use serde::{Deserialize, Serialize};

/// The number of a checkpoint: 1, 2, 3, ... in the order they are taken (06-R12).
pub type CheckpointId = u64;

/// One element of an input stream: a record, or the barrier of checkpoint `c`.
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
    /// Every input has delivered barrier `c`: snapshot the state now (06-R6).
    Checkpoint(CheckpointId),
}

/// The stream a source emits for `records`: `Barrier(c)` right after record number
/// `c * barrier_every` (counting from 1), so `barrier_every = 2` over `[a, b, c, d, e]`
/// gives `a b B1 c d B2 e` (06-R1).
///
/// # Errors
/// When `barrier_every` is 0, with a message that names `barrier_every` (06-R2).
pub fn inject_barriers<T: Clone>(records: &[T], barrier_every: usize) -> Result<Vec<Element<T>>> {
    // TODO(stage 06): reject barrier_every = 0, then copy the records, adding Barrier(c)
    // after record number c * barrier_every.
    let _ = (records, barrier_every);
    todo!()
}
