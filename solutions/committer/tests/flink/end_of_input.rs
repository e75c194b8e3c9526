//! End of input with records in the open transaction.
//!
//! Flink: `CommitterOperatorTestBase.testHandleEndInputInStreamingMode` (flink-runtime,
//! `streaming/runtime/operators/sink`), with the writer's side,
//! `SinkWriterOperatorTestBase.testEmitOnEndOfInputInBatchMode`: at end of input the
//! writer flushes what it holds into a committable, and the final checkpoint commits
//! it. Here: write, barrier, complete, write again, end of input. The tail must become
//! visible exactly once, and a `finish` that would close over it must refuse.

use committer::InMemoryOperatorState;

use super::shapes::{Shape, for_every_shape};
use super::{open, rerun, restore, run, write};

/// The base's end of input prepares the tail as the final checkpoint; its completion
/// commits it; `finish` then closes. A record after end of input is refused.
fn test_handle_end_input_in_streaming_mode<S: Shape>() {
    let mut shape = S::default();
    let mut op = open(
        &mut shape,
        InMemoryOperatorState::new(),
        &run("eoi", 1, 0, 1),
    );
    write::<S>(&mut op, [1]);
    op.on_barrier(1).unwrap();
    op.on_checkpoint_complete(1).unwrap();
    write::<S>(&mut op, [2]);
    op.end_of_input(2).unwrap();
    let late = op.write(S::record(3)).unwrap_err().to_string();
    assert!(late.contains("after end of input"), "{late}");
    op.on_checkpoint_complete(2).unwrap();
    op.finish().unwrap();
    assert_eq!(shape.visible(), [1, 2]);
    assert_eq!(shape.in_doubt(), 0, "something left prepared or staged");
}

/// `finish` over records no barrier prepared refuses instead of losing them; the
/// restart from the last completed checkpoint replays them, and the base's end of
/// input then commits them: visible exactly once.
fn finish_over_an_open_transaction_refuses<S: Shape>() {
    let mut shape = S::default();
    let completed = {
        let mut op = open(
            &mut shape,
            InMemoryOperatorState::new(),
            &run("eoi", 1, 0, 1),
        );
        write::<S>(&mut op, [1]);
        let snapshot = op.on_barrier(1).unwrap();
        op.on_checkpoint_complete(1).unwrap();
        write::<S>(&mut op, [2]);
        let refused = op
            .finish()
            .err()
            .expect("finish closed over records")
            .to_string();
        assert!(refused.contains("open transaction"), "{refused}");
        snapshot
    };
    assert_eq!(shape.visible(), [1], "the refused tail must not be visible");
    // The restart: checkpoint 1, whose offset is 1, so the source replays input 2.
    let mut op = open(&mut shape, restore(&completed), &rerun("eoi", 2, (0, 1), 1));
    write::<S>(&mut op, [2]);
    op.end_of_input(2).unwrap();
    op.on_checkpoint_complete(2).unwrap();
    op.finish().unwrap();
    assert_eq!(shape.visible(), [1, 2]);
    assert_eq!(shape.in_doubt(), 0, "something left prepared or staged");
}

for_every_shape!(test_handle_end_input_in_streaming_mode);
for_every_shape!(finish_over_an_open_transaction_refuses);
