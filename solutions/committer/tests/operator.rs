//! The base driven by hand, one rule of the choreography per test.

use std::cell::RefCell;
use std::rc::Rc;

use committer::CommitOutcome::{AlreadyCommitted, Committed};
use committer::connectors::{
    ObjectStore, SharedObjectStore, StagedArtifactSink, XaConnection, XaDatabase, XaSink,
};
use committer::{
    CommitterOperator, CommittingSink, InMemoryOperatorState, NoTripwire, OperatorStateBackend,
    RunContext, Step, SubtaskId, Succession, Tripwire,
};

type XaOp = CommitterOperator<XaSink<XaConnection<u32>>, InMemoryOperatorState>;
type ArtifactOp = CommitterOperator<StagedArtifactSink<u32>, InMemoryOperatorState>;

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

fn open<S: CommittingSink>(
    sink: S,
    state: InMemoryOperatorState,
    generation: u64,
) -> CommitterOperator<S, InMemoryOperatorState> {
    let run = run(generation, restored(&state));
    CommitterOperator::open(sink, state, &run, Box::new(NoTripwire)).unwrap()
}

fn xa(db: &Rc<RefCell<XaDatabase<u32>>>, state: InMemoryOperatorState, g: u64) -> XaOp {
    open(XaSink::new(XaDatabase::connect(db)), state, g)
}

fn artifacts(store: &SharedObjectStore<u32>, state: InMemoryOperatorState, g: u64) -> ArtifactOp {
    open(StagedArtifactSink::new(Rc::clone(store)), state, g)
}

#[test]
fn a_notification_commits_every_pending_handle_up_to_its_id_oldest_first() {
    let db = XaDatabase::shared();
    let mut op = xa(&db, InMemoryOperatorState::new(), 1);
    for (record, checkpoint) in [(10, 1), (20, 2), (30, 3)] {
        op.write(record).unwrap();
        op.on_barrier(checkpoint).unwrap();
    }
    assert_eq!(op.staged_commits_outstanding().unwrap(), 3);
    let outcomes = op.on_checkpoint_complete(2).unwrap();
    assert_eq!(outcomes, [(1, Committed), (2, Committed)]);
    assert_eq!(db.borrow().rows(), [10, 20]);
    assert_eq!(op.staged_commits_outstanding().unwrap(), 1);
}

#[test]
fn a_stale_or_repeated_notification_is_a_no_op() {
    let db = XaDatabase::shared();
    let mut op = xa(&db, InMemoryOperatorState::new(), 1);
    op.write(1).unwrap();
    op.on_barrier(1).unwrap();
    op.write(2).unwrap();
    op.on_barrier(2).unwrap();
    assert_eq!(op.on_checkpoint_complete(2).unwrap().len(), 2);
    assert!(op.on_checkpoint_complete(2).unwrap().is_empty(), "repeated");
    assert!(op.on_checkpoint_complete(1).unwrap().is_empty(), "stale");
    assert_eq!(db.borrow().rows(), [1, 2]);
}

#[test]
fn an_aborted_checkpoint_keeps_its_handle_for_the_next_completion() {
    let db = XaDatabase::shared();
    let mut op = xa(&db, InMemoryOperatorState::new(), 1);
    op.write(1).unwrap();
    op.on_barrier(1).unwrap();
    op.on_checkpoint_aborted(1);
    assert_eq!(op.pending_committables().unwrap().len(), 1);
    op.on_barrier(2).unwrap();
    assert_eq!(op.on_checkpoint_complete(2).unwrap(), [(1, Committed)]);
}

#[test]
fn an_empty_epoch_persists_nothing() {
    let db = XaDatabase::shared();
    let mut op = xa(&db, InMemoryOperatorState::new(), 1);
    let snapshot = op.on_barrier(1).unwrap();
    assert_eq!(op.staged_commits_outstanding().unwrap(), 0);
    assert!(
        InMemoryOperatorState::restore(&snapshot)
            .unwrap()
            .keys()
            .unwrap()
            .is_empty()
    );
}

#[test]
fn recovery_rolls_back_the_open_transaction_but_never_a_restored_handle() {
    let db = XaDatabase::shared();
    let mut op = xa(&db, InMemoryOperatorState::new(), 1);
    op.write(1).unwrap();
    let checkpoint_1 = op.on_barrier(1).unwrap(); // completes, but the crash beats the notification
    op.write(2).unwrap(); // into the open transaction
    assert_eq!(db.borrow().open_transactions(), 1);
    drop(op); // the crash: the connection dies with its open transaction
    assert_eq!(db.borrow().open_transactions(), 0);
    let op = xa(
        &db,
        InMemoryOperatorState::restore(&checkpoint_1).unwrap(),
        2,
    );
    assert_eq!(op.recovered(), [(1, Committed)]);
    assert_eq!(
        db.borrow().rows(),
        [1],
        "record 2 is replayed by the source, not recovered"
    );
}

#[test]
fn a_rerun_stages_beside_an_earlier_run_instead_of_over_it() {
    let store = ObjectStore::shared();
    for (generation, record) in [(1, 7), (2, 8)] {
        // A new run of the job: checkpoint ids start at 1 again, only the token differs.
        let mut op = artifacts(&store, InMemoryOperatorState::new(), generation);
        op.write(record).unwrap();
        op.on_barrier(1).unwrap();
        op.on_checkpoint_complete(1).unwrap();
    }
    let store = store.borrow();
    assert_eq!(
        store.published_names(),
        ["orders/sub0of1-r1-c1", "orders/sub0of1-r2-c1"]
    );
    assert_eq!(store.published_records(), [7, 8]);
}

#[test]
fn a_recovered_handle_keeps_its_original_name() {
    let store = ObjectStore::shared();
    let mut op = artifacts(&store, InMemoryOperatorState::new(), 1);
    op.write(7).unwrap();
    let checkpoint_1 = op.on_barrier(1).unwrap();
    drop(op);
    let op = artifacts(
        &store,
        InMemoryOperatorState::restore(&checkpoint_1).unwrap(),
        2,
    );
    assert_eq!(op.recovered(), [(1, Committed)]);
    assert_eq!(store.borrow().published_names(), ["orders/sub0of1-r1-c1"]);
}

#[test]
fn recovering_an_already_published_artifact_reports_already_committed() {
    let store = ObjectStore::shared();
    let mut op = artifacts(&store, InMemoryOperatorState::new(), 1);
    op.write(7).unwrap();
    let checkpoint_1 = op.on_barrier(1).unwrap();
    op.on_checkpoint_complete(1).unwrap();
    drop(op);
    let op = artifacts(
        &store,
        InMemoryOperatorState::restore(&checkpoint_1).unwrap(),
        2,
    );
    assert_eq!(op.recovered(), [(1, AlreadyCommitted)]);
    assert_eq!(store.borrow().published_records(), [7]);
}

#[test]
fn end_of_input_refuses_to_close_with_commits_outstanding() {
    let db = XaDatabase::shared();
    let mut op = xa(&db, InMemoryOperatorState::new(), 1);
    op.write(1).unwrap();
    op.on_barrier(1).unwrap();
    let error = op.finish().err().unwrap().to_string();
    assert!(error.contains("1 staged commit(s) outstanding"), "{error}");
}

#[test]
fn barrier_ids_that_do_not_grow_are_refused_rather_than_overwriting_a_handle() {
    let db = XaDatabase::shared();
    let mut op = xa(&db, InMemoryOperatorState::new(), 1);
    op.write(1).unwrap();
    op.on_barrier(1).unwrap();
    op.write(2).unwrap();
    let error = op.on_barrier(1).unwrap_err().to_string();
    assert!(
        error.contains("already holds a pending handle for checkpoint 1"),
        "{error}"
    );
}

#[test]
fn barrier_ids_out_of_order_are_committed_in_id_order() {
    let db = XaDatabase::shared();
    let mut op = xa(&db, InMemoryOperatorState::new(), 1);
    op.write(2).unwrap();
    op.on_barrier(2).unwrap();
    op.write(1).unwrap();
    op.on_barrier(1).unwrap();
    assert_eq!(op.on_checkpoint_complete(1).unwrap(), [(1, Committed)]);
    assert_eq!(db.borrow().rows(), [1]);
    assert_eq!(op.on_checkpoint_complete(2).unwrap(), [(2, Committed)]);
}

/// Records every step it is told, and whether it asked for the per-record ones.
struct Recorder {
    steps: Rc<RefCell<Vec<Step>>>,
    watches_writes: bool,
}

impl Tripwire for Recorder {
    fn reached(&mut self, step: Step) -> anyhow::Result<()> {
        self.steps.borrow_mut().push(step);
        Ok(())
    }

    fn watches_writes(&self) -> bool {
        self.watches_writes
    }
}

#[rstest::rstest]
#[case::watched(true, 3)]
#[case::unwatched(false, 0)]
fn a_run_of_records_is_written_whole_and_reported_only_to_a_tripwire_that_watches(
    #[case] watches_writes: bool,
    #[case] written_steps: usize,
) {
    let db = XaDatabase::shared();
    let steps = Rc::new(RefCell::new(Vec::new()));
    let tripwire = Recorder {
        steps: Rc::clone(&steps),
        watches_writes,
    };
    let sink = XaSink::new(XaDatabase::connect(&db));
    let mut op = CommitterOperator::open(
        sink,
        InMemoryOperatorState::new(),
        &run(1, None),
        Box::new(tripwire),
    )
    .unwrap();
    op.write_all([1, 2]).unwrap();
    op.write(3).unwrap();
    op.on_barrier(1).unwrap();
    op.on_checkpoint_complete(1).unwrap();
    assert_eq!(db.borrow().rows(), [1, 2, 3]);
    let me = SubtaskId::new(0, 1).unwrap();
    let written = steps
        .borrow()
        .iter()
        .filter(|&&step| step == Step::Written(me))
        .count();
    assert_eq!(written, written_steps);
    assert!(steps.borrow().contains(&Step::Committed(me, 1)));
}
