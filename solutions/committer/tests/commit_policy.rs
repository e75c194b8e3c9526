//! The base's commit policy, with faults injected by a wrapping sink: transient failures
//! are retried a bounded number of times, then the handle stays pending; a permanent
//! failure is not retried; a lost handle wedges recovery until the operator abandons it.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;
use std::time::Duration;

use anyhow::Result;
use committer::CommitOutcome::{Abandoned, Committed};
use committer::connectors::{XaConnection, XaDatabase, XaSink, XaStore};
use committer::{
    AbortOutcome, CheckpointId, CommitOutcome, CommitPolicy, CommitterOperator, CommittingSink,
    HandleLost, InMemoryOperatorState, Mechanism, NoFence, NoTripwire, OnLostHandle, OpenContext,
    OpenTransaction, OperatorStateBackend, RunContext, SubtaskId, Succession,
};

#[derive(Debug)]
struct Transient;

impl fmt::Display for Transient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("injected transient failure")
    }
}

impl std::error::Error for Transient {}

/// An XA sink whose next `failures` commits fail, transiently or not.
struct Faulty {
    inner: XaSink<XaConnection<u32>>,
    failures: Rc<Cell<u32>>,
    transient: bool,
    attempts: Rc<Cell<u32>>,
}

impl CommittingSink for Faulty {
    type Record = u32;
    type Committable = <XaSink<XaConnection<u32>> as CommittingSink>::Committable;
    const MECHANISM: Mechanism = Mechanism::TwoPhaseTransaction;

    fn on_open(&mut self, context: &OpenContext<'_, Self::Committable>) -> Result<()> {
        self.inner.on_open(context)
    }
    fn write(&mut self, record: u32) -> Result<()> {
        self.inner.write(record)
    }
    fn open_transaction(&self) -> OpenTransaction {
        self.inner.open_transaction()
    }
    fn prepare_commit(&mut self, checkpoint: CheckpointId) -> Result<Option<Self::Committable>> {
        self.inner.prepare_commit(checkpoint)
    }
    fn commit(&mut self, committable: &Self::Committable) -> Result<CommitOutcome> {
        self.attempts.set(self.attempts.get() + 1);
        if self.failures.get() > 0 {
            self.failures.set(self.failures.get() - 1);
            if self.transient {
                return Err(Transient.into());
            }
            anyhow::bail!("injected permanent failure");
        }
        self.inner.commit(committable)
    }
    fn abort(&mut self, committable: &Self::Committable) -> Result<AbortOutcome> {
        self.inner.abort(committable)
    }
    fn is_transient(&self, error: &anyhow::Error) -> bool {
        error.downcast_ref::<Transient>().is_some()
    }
}

struct Rig {
    db: Rc<RefCell<XaDatabase<u32>>>,
    failures: Rc<Cell<u32>>,
    attempts: Rc<Cell<u32>>,
}

impl Rig {
    fn new(failures: u32) -> Self {
        Self {
            db: XaDatabase::shared(),
            failures: Rc::new(Cell::new(failures)),
            attempts: Rc::new(Cell::new(0)),
        }
    }

    fn open(
        &self,
        snapshot: &[u8],
        generation: u64,
        transient: bool,
        policy: CommitPolicy,
    ) -> Result<CommitterOperator<Faulty, InMemoryOperatorState>> {
        let sink = Faulty {
            inner: XaSink::new(XaDatabase::connect(&self.db)),
            failures: Rc::clone(&self.failures),
            transient,
            attempts: Rc::clone(&self.attempts),
        };
        let state = InMemoryOperatorState::restore(snapshot)?;
        let run = RunContext {
            job: "orders".into(),
            generation,
            succession: Succession::new(SubtaskId::new(0, 1)?, 128)?,
            // These tests restore the snapshot of the barrier of their newest handle.
            restored: state.keys()?.last().map(|key| key.checkpoint),
        };
        CommitterOperator::open_with(
            sink,
            state,
            &run,
            Box::new(NoTripwire),
            Box::new(NoFence),
            policy,
        )
    }
}

fn policy(retries: u32, on_lost: OnLostHandle) -> CommitPolicy {
    CommitPolicy {
        retries,
        backoff: Duration::ZERO,
        on_lost,
    }
}

fn empty() -> Vec<u8> {
    InMemoryOperatorState::new().snapshot().unwrap()
}

#[test]
fn a_transient_commit_failure_is_retried_until_it_passes() {
    let rig = Rig::new(2);
    let mut op = rig
        .open(&empty(), 1, true, policy(3, OnLostHandle::Fail))
        .unwrap();
    op.write(10).unwrap();
    op.on_barrier(1).unwrap();
    assert_eq!(op.on_checkpoint_complete(1).unwrap(), [(1, Committed)]);
    assert_eq!(rig.attempts.get(), 3);
    assert_eq!(rig.db.borrow().rows(), [10]);
}

#[test]
fn retries_are_bounded_and_then_the_handle_stays_pending() {
    let rig = Rig::new(5);
    let mut op = rig
        .open(&empty(), 1, true, policy(2, OnLostHandle::Fail))
        .unwrap();
    op.write(10).unwrap();
    op.on_barrier(1).unwrap();
    let error = format!("{:#}", op.on_checkpoint_complete(1).unwrap_err());
    assert!(error.contains("gave up after 3 attempt(s)"), "{error}");
    assert_eq!(rig.attempts.get(), 3);
    assert_eq!(op.staged_commits_outstanding().unwrap(), 1);
    assert!(rig.db.borrow().rows().is_empty());
    // The fault clears; the next notification commits the pending handle, once.
    rig.failures.set(0);
    assert_eq!(op.on_checkpoint_complete(2).unwrap(), [(1, Committed)]);
    assert_eq!(rig.db.borrow().rows(), [10]);
}

#[test]
fn a_permanent_commit_failure_is_not_retried() {
    let rig = Rig::new(1);
    let mut op = rig
        .open(&empty(), 1, false, policy(3, OnLostHandle::Fail))
        .unwrap();
    op.write(10).unwrap();
    op.on_barrier(1).unwrap();
    assert!(op.on_checkpoint_complete(1).is_err());
    assert_eq!(rig.attempts.get(), 1);
    assert_eq!(op.staged_commits_outstanding().unwrap(), 1);
}

#[test]
fn an_expired_handle_wedges_recovery_until_the_operator_abandons_it() {
    let rig = Rig::new(0);
    let mut op = rig
        .open(&empty(), 1, true, policy(3, OnLostHandle::Fail))
        .unwrap();
    op.write(10).unwrap();
    let completed = op.on_barrier(1).unwrap();
    drop(op);
    // The prepared transaction expires (or is rolled back by hand) before recovery.
    let mut admin = XaDatabase::connect(&rig.db);
    let gid = admin.prepared_transactions().unwrap().remove(0);
    admin.rollback_prepared(&gid).unwrap();

    for generation in [2, 3] {
        let error = rig
            .open(&completed, generation, true, policy(3, OnLostHandle::Fail))
            .err()
            .expect("recovery of a lost handle passed");
        let lost = error.chain().find_map(|e| e.downcast_ref::<HandleLost>());
        assert!(lost.is_some(), "not a HandleLost: {error:#}");
        assert!(format!("{error:#}").contains("--abandon-lost-handles"));
    }
    let op = rig
        .open(&completed, 4, true, policy(3, OnLostHandle::Abandon))
        .unwrap();
    assert_eq!(op.recovered(), [(1, Abandoned)]);
    assert_eq!(op.staged_commits_outstanding().unwrap(), 0);
    // Once past it, the job runs normally again.
    let op = rig.open(
        &op.state().snapshot().unwrap(),
        5,
        true,
        policy(3, OnLostHandle::Fail),
    );
    assert!(op.is_ok());
}

#[test]
fn each_retry_waits_twice_as_long_as_the_one_before() {
    let policy = CommitPolicy {
        retries: 40,
        backoff: Duration::from_millis(50),
        on_lost: OnLostHandle::Fail,
    };
    let waits: Vec<u128> = (1..=4)
        .map(|retry| policy.backoff_before(retry).as_millis())
        .collect();
    assert_eq!(waits, [50, 100, 200, 400]);
    // Capped: a long retry budget does not overflow into a wait of years.
    assert_eq!(policy.backoff_before(40), policy.backoff_before(17));
}
