//! The pieces around the base: guarantee labels, shape C's netting, the at-least-once
//! baseline, and what shapes A and B keep or sweep at open. The handles' codec has
//! `codec.rs`.

mod sim;

use std::rc::Rc;

use committer::connectors::{
    AppendSink, Change, InMemoryTable, ObjectPlace, ObjectStore, RowKind, StagedArtifactSink,
    TwoPhaseAdopter, TwoPhaseSystem, UpsertSink, XaConnection, XaDatabase, XaSink, XaStore,
};
use committer::{
    AbortOutcome, CommitOutcome, CommitterOperator, CommittingSink, DeliveryGuarantee, ExactlyOnce,
    InMemoryOperatorState, Mechanism, NoTripwire, RunContext, SubtaskId, Succession,
    request_guarantee,
};
use sim::{Adopter, AppendShape, Schedule};
use solution08::{TransactionalSink, TwoPhaseCommitSink};

#[test]
fn guarantee_labels_follow_the_mechanism() {
    type Xa = XaSink<XaConnection<u32>>;
    assert_eq!(
        StagedArtifactSink::<u32>::MECHANISM.guarantee(),
        DeliveryGuarantee::ExactlyOnce
    );
    assert_eq!(Xa::MECHANISM.guarantee(), DeliveryGuarantee::ExactlyOnce);
    assert_eq!(
        UpsertSink::<u8, u32>::MECHANISM,
        Mechanism::IdempotentUpsert
    );
    assert_eq!(
        UpsertSink::<u8, u32>::MECHANISM.guarantee(),
        DeliveryGuarantee::EffectivelyOnce
    );
    assert_eq!(
        AppendSink::<u32>::MECHANISM.guarantee(),
        DeliveryGuarantee::AtLeastOnce
    );
    let _labelled = ExactlyOnce::new(XaSink::new(XaDatabase::connect(
        &XaDatabase::<u32>::shared(),
    )));
}

#[test]
fn exactly_once_is_refused_for_an_upsert_or_append_sink_with_a_clear_error() {
    let error = request_guarantee::<UpsertSink<u8, u32>>(DeliveryGuarantee::ExactlyOnce)
        .unwrap_err()
        .to_string();
    assert!(error.contains("delivery_guarantee exactly_once"), "{error}");
    assert!(error.contains("effectively_once"), "{error}");
    assert!(request_guarantee::<AppendSink<u32>>(DeliveryGuarantee::EffectivelyOnce).is_err());
    assert_eq!(
        request_guarantee::<UpsertSink<u8, u32>>(DeliveryGuarantee::AtLeastOnce).unwrap(),
        DeliveryGuarantee::AtLeastOnce
    );
}

#[test]
fn an_upsert_sink_nets_changes_by_key_within_a_flush() {
    let table = InMemoryTable::shared();
    let mut sink = UpsertSink::new(Rc::clone(&table));
    let change = |kind, key, value| Change { kind, key, value };
    for c in [
        change(RowKind::Insert, 1_u8, 10_u32),
        change(RowKind::UpdateBefore, 1, 10),
        change(RowKind::UpdateAfter, 1, 11),
        change(RowKind::Insert, 2, 20),
        change(RowKind::Delete, 2, 20),
    ] {
        sink.write(c).unwrap();
    }
    assert_eq!(
        sink.prepare_commit(1).unwrap(),
        None,
        "upserts need no handle"
    );
    assert_eq!(
        table.borrow().rows().iter().collect::<Vec<_>>(),
        [(&1, &11)]
    );
    assert_eq!(table.borrow().statements(), 2, "one statement per key");
}

#[test]
fn an_append_sink_is_only_at_least_once() {
    // Steps: the open, then one per record. A crash right after the second record
    // replays both from offset 0: both appear twice.
    let shape = AppendShape::fresh();
    let s = Schedule::new(4, 4, 0).crash(&[Some(3)]);
    sim::job::run_on(&shape, &s).unwrap();
    let input = AppendShape::input(4);
    let log = shape.0.borrow();
    assert!(input.iter().all(|r| log.contains(r)), "at least once");
    assert_eq!(log.len(), input.len() + 2, "and some twice");
}

/// An XA store that calls an error transient when its message says "timeout".
struct TimeoutsPass(XaConnection<u32>);

impl XaStore for TimeoutsPass {
    type Record = u32;
    fn begin(&mut self) -> anyhow::Result<()> {
        self.0.begin()
    }
    fn insert(&mut self, record: u32) -> anyhow::Result<()> {
        self.0.insert(record)
    }
    fn prepare(&mut self, gid: &str) -> anyhow::Result<()> {
        self.0.prepare(gid)
    }
    fn commit_prepared(&mut self, gid: &str) -> anyhow::Result<CommitOutcome> {
        self.0.commit_prepared(gid)
    }
    fn rollback_prepared(&mut self, gid: &str) -> anyhow::Result<AbortOutcome> {
        self.0.rollback_prepared(gid)
    }
    fn prepared_transactions(&self) -> anyhow::Result<Vec<String>> {
        self.0.prepared_transactions()
    }
    fn is_transient(&self, error: &anyhow::Error) -> bool {
        error.to_string().contains("timeout")
    }
}

#[test]
fn the_xa_sink_asks_its_store_which_failures_are_transient() {
    let sink = XaSink::new(TimeoutsPass(XaDatabase::connect(&XaDatabase::shared())));
    assert!(sink.is_transient(&anyhow::anyhow!("lock timeout")));
    assert!(!sink.is_transient(&anyhow::anyhow!("no such prepared transaction")));
}

#[test]
fn every_sink_is_granted_its_own_guarantee_and_any_weaker_one() {
    use DeliveryGuarantee::{AtLeastOnce, EffectivelyOnce, ExactlyOnce};
    type Xa = XaSink<XaConnection<u32>>;
    for requested in [ExactlyOnce, EffectivelyOnce, AtLeastOnce] {
        assert_eq!(request_guarantee::<Xa>(requested).unwrap(), requested);
    }
    for requested in [EffectivelyOnce, AtLeastOnce] {
        assert_eq!(
            request_guarantee::<UpsertSink<u8, u32>>(requested).unwrap(),
            requested
        );
    }
    assert_eq!(
        request_guarantee::<AppendSink<u32>>(AtLeastOnce).unwrap(),
        AtLeastOnce
    );
}

#[test]
fn a_sink_that_does_not_say_treats_every_failure_as_permanent() {
    let sink = StagedArtifactSink::<u32>::new(ObjectStore::shared());
    assert!(!sink.is_transient(&anyhow::anyhow!("connection reset, timeout")));
}

type Stage08<'a> = TwoPhaseAdopter<'a, u32, TransactionalSink<u32>>;

fn open_stage08<'a>(
    system: &'a mut TwoPhaseSystem<TransactionalSink<u32>>,
    state: InMemoryOperatorState,
    (generation, restored): (u64, Option<u64>),
) -> anyhow::Result<CommitterOperator<Stage08<'a>, InMemoryOperatorState>> {
    let run = RunContext {
        job: "stage08".to_owned(),
        generation,
        succession: Succession::new(SubtaskId::new(0, 1)?, 1)?,
        restored,
    };
    CommitterOperator::open(
        TwoPhaseAdopter::new(system),
        state,
        &run,
        Box::new(NoTripwire),
    )
}

#[test]
fn a_restored_prepared_transaction_of_the_stage08_sink_is_kept_at_open_and_committed() {
    let mut system = TwoPhaseSystem::new(TransactionalSink::new());
    let mut dead = open_stage08(&mut system, InMemoryOperatorState::new(), (1, None)).unwrap();
    dead.write(7).unwrap();
    let completed = dead.on_barrier(1).unwrap(); // the crash beats the notification
    drop(dead);
    let restored = InMemoryOperatorState::restore(&completed).unwrap();
    let reopened = open_stage08(&mut system, restored, (2, Some(1))).unwrap();
    assert_eq!(reopened.recovered(), [(1, CommitOutcome::Committed)]);
    drop(reopened);
    assert_eq!(system.sink().committed(), [7]);
}

#[test]
fn a_staged_orphan_is_discarded_at_the_next_open_and_a_restored_one_kept() {
    let store = ObjectStore::<u32>::shared();
    let run = |generation, restored| RunContext {
        job: "orders".to_owned(),
        generation,
        succession: Succession::new(SubtaskId::new(0, 1).unwrap(), 1).unwrap(),
        restored,
    };
    let open = |state, (generation, restored)| {
        CommitterOperator::open(
            StagedArtifactSink::new(Rc::clone(&store)),
            state,
            &run(generation, restored),
            Box::new(NoTripwire),
        )
        .unwrap()
    };
    let mut dead = open(InMemoryOperatorState::new(), (1, None));
    dead.write(1).unwrap();
    let completed = dead.on_barrier(1).unwrap();
    dead.write(2).unwrap();
    dead.on_barrier(2).unwrap(); // never completes: an orphan
    let names: Vec<String> = dead
        .pending_committables()
        .unwrap()
        .iter()
        .map(|(_, name)| name.to_string())
        .collect();
    drop(dead);
    assert_eq!(store.borrow().staged_names(), names);
    let reopened = open(
        InMemoryOperatorState::restore(&completed).unwrap(),
        (2, Some(1)),
    );
    assert_eq!(store.borrow().place(&names[0]), ObjectPlace::Published);
    assert_eq!(store.borrow().place(&names[1]), ObjectPlace::Absent);
    assert!(store.borrow().staged_names().is_empty());
    reopened.finish().unwrap();
    assert_eq!(store.borrow().published_records(), [1]);
}

#[test]
fn an_xa_database_refuses_a_global_id_already_prepared_or_committed() {
    let db = XaDatabase::<u32>::shared();
    let mut connection = XaDatabase::connect(&db);
    let mut prepare = |gid: &str| {
        connection.begin()?;
        connection.insert(1)?;
        connection.prepare(gid)
    };
    prepare("g1").unwrap();
    prepare("g2").unwrap();
    let prepared_twice = prepare("g1").unwrap_err();
    assert!(prepared_twice.to_string().contains("g1 is already in use"));
    XaDatabase::connect(&db).commit_prepared("g2").unwrap();
    let committed_twice = XaDatabase::connect(&db).prepare("g2");
    assert!(committed_twice.is_err_and(|e| e.to_string().contains("g2 is already in use")));
    assert!(!XaDatabase::connect(&db).is_transient(&anyhow::anyhow!("lock timeout")));
}
