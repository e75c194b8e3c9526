//! An operator behind an aligner: fold the records, snapshot at every checkpoint (06-R15).

use anyhow::Result;

use crate::{CheckpointId, Element};

/// Delivers the inputs' elements in the order `schedule` says (each entry names the input
/// whose next element arrives), through a [`BarrierAligner`](crate::BarrierAligner),
/// folding every record it lets through into a state that starts as `init`; returns the
/// state at every checkpoint, in order (06-R15).
///
/// The schedule may stop before the inputs are exhausted (a job that crashed there): the
/// result then holds only the checkpoints completed by that point (06-R16).
///
/// # Errors
/// When `inputs` is empty, when `schedule` names an input that does not exist or takes
/// more elements from an input than it has, or when a barrier arrives out of turn
/// (06-R17).
pub fn aligned_snapshots<T, S: Clone>(
    inputs: Vec<Vec<Element<T>>>,
    schedule: &[usize],
    init: S,
    fold: impl FnMut(&mut S, &T),
) -> Result<Vec<(CheckpointId, S)>> {
    // TODO(stage 06): feed the elements through one aligner in schedule order; fold each
    // Aligned::Record, and push (c, a clone of the state) at each Aligned::Checkpoint(c).
    let _ = (inputs, schedule, init, fold);
    todo!()
}
