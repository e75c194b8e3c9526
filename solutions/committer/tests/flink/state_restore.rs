//! A rescale whose state distribution the succession does not describe.
//!
//! Flink: `CommitterOperatorTestBase.testStateRestore` (flink-runtime,
//! `streaming/runtime/operators/sink`): committables of two subtasks, snapshotted, are
//! restored at parallelism 10 into subtask 9 alone, which must commit both. Here two
//! subtasks prepare checkpoint 1, the checkpoint completes, the job dies before the
//! notification, and the restart at parallelism 10 hands every snapshot to subtask 9
//! (or deals them round-robin). Subtask 0, the authors' successor, opens first with
//! nothing: it must not discard what subtask 9 is about to commit.

use committer::{InMemoryOperatorState, merge_snapshots};

use super::shapes::{Shape, for_every_parallel_shape};
use super::{open, rerun, restore, run, write};

/// Subtasks 0 and 1 of 2 each prepare an input at checkpoint 1; returns the snapshots.
fn two_subtasks_prepare_checkpoint_1<S: Shape>(shape: &mut S) -> Vec<Vec<u8>> {
    (0..2)
        .map(|index| {
            let mut op = open(shape, InMemoryOperatorState::new(), &run("rs", 1, index, 2));
            write::<S>(&mut op, [index + 1]);
            op.on_barrier(1).unwrap()
        })
        .collect()
}

/// Opens all 10 subtasks in order, subtask `n` restoring `dealt(n)` of the snapshots,
/// each running to its end of input; returns how many handles each recovered.
fn restore_at_10<S: Shape>(
    shape: &mut S,
    snapshots: &[Vec<u8>],
    dealt: impl Fn(u32) -> Vec<usize>,
) -> Vec<usize> {
    (0..10)
        .map(|n| {
            let mine = dealt(n).into_iter().map(|i| snapshots[i].as_slice());
            let state = restore(&merge_snapshots(mine).unwrap());
            let mut op = open(shape, state, &rerun("rs", 2, (n, 10), 1));
            let recovered = op.recovered().len();
            op.end_of_input(2).unwrap();
            op.on_checkpoint_complete(2).unwrap();
            op.finish().unwrap();
            recovered
        })
        .collect()
}

/// All of it to subtask 9 of 10, as Flink's test does: subtask 9 commits both.
fn test_state_restore<S: Shape>() {
    let mut shape = S::default();
    let snapshots = two_subtasks_prepare_checkpoint_1(&mut shape);
    let recovered = restore_at_10(&mut shape, &snapshots, |n| {
        if n == 9 { vec![0, 1] } else { vec![] }
    });
    assert_eq!(recovered, [0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
    let mut visible = shape.visible();
    visible.sort_unstable();
    assert_eq!(visible, [1, 2], "a completed checkpoint's handle was lost");
    assert_eq!(shape.in_doubt(), 0, "something left prepared or staged");
}

/// Round-robin, as Flink deals split list state: snapshot `i` to subtask `i % 10`.
fn test_state_restore_round_robin<S: Shape>() {
    let mut shape = S::default();
    let snapshots = two_subtasks_prepare_checkpoint_1(&mut shape);
    let recovered = restore_at_10(&mut shape, &snapshots, |n| {
        if n < 2 { vec![n as usize] } else { vec![] }
    });
    assert_eq!(recovered, [1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    let mut visible = shape.visible();
    visible.sort_unstable();
    assert_eq!(visible, [1, 2]);
    assert_eq!(shape.in_doubt(), 0, "something left prepared or staged");
}

for_every_parallel_shape!(test_state_restore);
for_every_parallel_shape!(test_state_restore_round_robin);
