//! Fencing in memory: a zombie run of the job is overtaken by a newer one and every late
//! effect it tries is rejected, so nothing is committed twice or discarded under the
//! newer run's feet.

use std::cell::RefCell;
use std::rc::Rc;

use committer::connectors::{XaConnection, XaDatabase, XaSink};
use committer::{
    CommitterOperator, FenceRegister, Fenced, InMemoryOperatorState, NoTripwire,
    OperatorStateBackend, RunContext, SubtaskId, Succession,
};

type XaOp = CommitterOperator<XaSink<XaConnection<u32>>, InMemoryOperatorState>;

fn run(generation: u64, restored: Option<u64>) -> RunContext {
    RunContext {
        job: "orders".to_owned(),
        generation,
        succession: Succession::new(SubtaskId::new(0, 1).unwrap(), 128).unwrap(),
        restored,
    }
}

/// The checkpoint a test's restore comes from: the newest handle its state holds (these
/// tests restore the snapshot of the barrier that prepared it), `None` for a first run.
fn restored(state: &InMemoryOperatorState) -> Option<u64> {
    state.keys().unwrap().last().map(|key| key.checkpoint)
}

fn open(
    db: &Rc<RefCell<XaDatabase<u32>>>,
    snapshot: &[u8],
    generation: u64,
    register: &FenceRegister,
) -> XaOp {
    let state = InMemoryOperatorState::restore(snapshot).unwrap();
    CommitterOperator::open_fenced(
        XaSink::new(XaDatabase::connect(db)),
        state.clone(),
        &run(generation, restored(&state)),
        Box::new(NoTripwire),
        Box::new(register.take()),
    )
    .unwrap()
}

fn fenced(error: &anyhow::Error) -> Fenced {
    *error
        .downcast_ref::<Fenced>()
        .unwrap_or_else(|| panic!("expected a Fenced error, got: {error:#}"))
}

#[test]
fn a_zombie_is_rejected_at_its_late_commit_and_its_late_barrier() {
    let db = XaDatabase::shared();
    let register = FenceRegister::new();
    let empty = InMemoryOperatorState::new().snapshot().unwrap();
    let mut zombie = open(&db, &empty, 1, &register);
    zombie.write(10).unwrap();
    let completed = zombie.on_barrier(1).unwrap();
    zombie.write(20).unwrap();
    zombie.on_barrier(2).unwrap();

    // Presumed dead, the zombie is replaced: the newer run restores checkpoint 1,
    // recovers its handle and rolls back checkpoint 2's prepared work as an orphan.
    let mut newer = open(&db, &completed, 2, &register);
    assert_eq!(db.borrow().rows(), [10]);

    // The zombie wakes up: its notification and its next barrier are both refused.
    let late = zombie.on_checkpoint_complete(2).unwrap_err();
    assert_eq!(
        fenced(&late),
        Fenced {
            held: 1,
            current: 2
        }
    );
    zombie.write(30).unwrap();
    assert_eq!(fenced(&zombie.on_barrier(3).unwrap_err()).held, 1);
    assert_eq!(db.borrow().rows(), [10], "a fenced run committed something");

    // The newer run replays what the zombie never committed, exactly once.
    newer.write(20).unwrap();
    newer.on_barrier(2).unwrap();
    newer.on_checkpoint_complete(2).unwrap();
    assert_eq!(db.borrow().rows(), [10, 20]);
    // The zombie's last open transaction dies with its connection, as a process's would.
    drop(zombie);
    assert_eq!(db.borrow().open_transactions(), 0);
}

#[test]
fn a_run_fenced_before_it_opens_neither_sweeps_nor_recovers() {
    let db = XaDatabase::shared();
    let register = FenceRegister::new();
    let empty = InMemoryOperatorState::new().snapshot().unwrap();
    let mut first = open(&db, &empty, 1, &register);
    first.write(10).unwrap();
    let completed = first.on_barrier(1).unwrap();

    let stale = register.take();
    let _newer = register.take();
    let refused = CommitterOperator::open_fenced(
        XaSink::new(XaDatabase::connect(&db)),
        InMemoryOperatorState::restore(&completed).unwrap(),
        &run(2, Some(1)),
        Box::new(NoTripwire),
        Box::new(stale),
    )
    .err()
    .expect("a stale run opened");
    assert_eq!(
        fenced(&refused),
        Fenced {
            held: 2,
            current: 3
        }
    );
    assert!(
        db.borrow().rows().is_empty(),
        "a stale run recovered a handle"
    );
}

#[test]
fn epochs_grow_and_a_shared_claim_is_fenced_like_its_token() {
    use committer::Fence;
    use std::sync::Arc;

    let register = FenceRegister::new();
    assert_eq!(register.current(), 0);
    let first = register.take();
    assert_eq!((first.epoch(), register.current()), (1, 1));
    // A run's subtasks share its claim behind an Rc or an Arc.
    let (shared, sent) = (Rc::new(first.clone()), Arc::new(first));
    assert!(shared.check().is_ok() && sent.check().is_ok());

    let second = register.take();
    assert_eq!((second.epoch(), register.current()), (2, 2));
    let overtaken = Fenced {
        held: 1,
        current: 2,
    };
    assert_eq!(fenced(&shared.check().unwrap_err()), overtaken);
    assert_eq!(fenced(&sent.check().unwrap_err()), overtaken);
    assert!(second.check().is_ok());
    let message = overtaken.to_string();
    assert!(
        message.contains("holds epoch 1") && message.contains("at epoch 2"),
        "{message}"
    );
}
