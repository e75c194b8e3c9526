//! A job restored under a new name.
//!
//! Flink: `ExactlyOnceKafkaWriterITCase.shouldAbortLingeringTransactions`
//! (flink-connector-kafka): a failed writer leaves two lingering transactions, and a
//! writer restored from state that records the old transactional-id prefix aborts them.
//! Here the job runs as `orders`, completes checkpoint 1 but dies before its
//! notification, with checkpoints 2 and 3 prepared and never completed; it restarts
//! from checkpoint 1 as `orders-v2`. The restored handle is committed under its old
//! name, the two lingering ones under the old name are discarded, and the replay ends
//! with every input visible once and nothing prepared or staged under either name.

use committer::InMemoryOperatorState;

use super::shapes::{Shape, for_every_shape};
use super::{open, rerun, restore, run, write};

fn should_abort_lingering_transactions<S: Shape>() {
    let mut shape = S::default();
    let completed = {
        let mut op = open(
            &mut shape,
            InMemoryOperatorState::new(),
            &run("orders", 1, 0, 1),
        );
        write::<S>(&mut op, [1]);
        let completed = op.on_barrier(1).unwrap();
        write::<S>(&mut op, [2]);
        op.on_barrier(2).unwrap();
        write::<S>(&mut op, [3]);
        op.on_barrier(3).unwrap();
        completed
    };
    let mut op = open(
        &mut shape,
        restore(&completed),
        &rerun("orders-v2", 2, (0, 1), 1),
    );
    // Checkpoint ids are never reused (Flink's coordinator counts on): the final is 4.
    write::<S>(&mut op, [2, 3]);
    op.end_of_input(4).unwrap();
    op.on_checkpoint_complete(4).unwrap();
    op.finish().unwrap();
    let mut visible = shape.visible();
    visible.sort_unstable();
    assert_eq!(visible, [1, 2, 3]);
    assert_eq!(
        shape.in_doubt(),
        0,
        "a lingering transaction of the old name survived"
    );
}

for_every_shape!(should_abort_lingering_transactions);
