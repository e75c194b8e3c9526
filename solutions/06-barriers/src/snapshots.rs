//! An operator behind an aligner: fold the records, snapshot at every checkpoint.

use anyhow::{Result, bail};

use crate::{Aligned, BarrierAligner, CheckpointId, Element};

/// Delivers the inputs' elements in the order `schedule` says (each entry names the input
/// whose next element arrives), through a [`BarrierAligner`], folding every record the
/// aligner lets through into a state that starts as `init`; returns the state at every
/// checkpoint, in order.
///
/// The schedule may stop before the inputs are exhausted (a job that crashed there): the
/// result then holds only the checkpoints completed by that point.
///
/// # Errors
/// When `inputs` is empty, when `schedule` names an input that does not exist or takes
/// more elements from an input than it has, or when a barrier arrives out of turn.
pub fn aligned_snapshots<T, S: Clone>(
    inputs: Vec<Vec<Element<T>>>,
    schedule: &[usize],
    init: S,
    mut fold: impl FnMut(&mut S, &T),
) -> Result<Vec<(CheckpointId, S)>> {
    let mut aligner = BarrierAligner::new(inputs.len())?;
    let count = inputs.len();
    let mut pending: Vec<_> = inputs.into_iter().map(Vec::into_iter).collect();
    let mut state = init;
    let mut snapshots = Vec::new();
    for (step, &input) in schedule.iter().enumerate() {
        let Some(elements) = pending.get_mut(input) else {
            bail!("schedule step {step} names input {input}, but there are only {count} inputs");
        };
        let Some(element) = elements.next() else {
            bail!(
                "schedule step {step} takes one more element from input {input}, which has no more"
            );
        };
        for aligned in aligner.on_element(input, element)? {
            match aligned {
                Aligned::Record(record) => fold(&mut state, &record),
                // The aligner guarantees the state right now is exactly the cut.
                Aligned::Checkpoint(id) => snapshots.push((id, state.clone())),
            }
        }
    }
    Ok(snapshots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Element::{Barrier, Record};

    fn sum(state: &mut u32, record: &u32) {
        *state += record;
    }

    #[test]
    fn each_snapshot_is_the_fold_of_the_records_before_its_barriers() {
        let inputs = vec![
            vec![Record(1), Barrier(1), Record(10)],
            vec![Record(100), Barrier(1), Record(1000)],
        ];
        // Input 0 runs ahead: its 10 must wait for input 1's barrier.
        let snapshots = aligned_snapshots(inputs, &[0, 0, 0, 1, 1, 1], 0, sum).unwrap();
        assert_eq!(snapshots, [(1, 101)]);
    }

    #[test]
    fn a_schedule_that_stops_early_has_only_the_completed_checkpoints() {
        let inputs = vec![vec![Barrier(1)], vec![Barrier(1)]];
        assert_eq!(aligned_snapshots(inputs, &[0], 0, sum).unwrap(), []);
    }

    #[test]
    fn a_schedule_beyond_the_inputs_is_an_error() {
        let inputs = vec![vec![Record(1)]];
        assert!(aligned_snapshots(inputs.clone(), &[0, 0], 0, sum).is_err());
        assert!(aligned_snapshots(inputs, &[1], 0, sum).is_err());
        assert!(aligned_snapshots::<u32, u32>(vec![], &[], 0, sum).is_err());
    }
}
