//! The pieces around the base: handle codec, guarantee labels, shape C's netting, the
//! at-least-once baseline, and the durable operator-state backend.

mod sim;

use std::rc::Rc;

use committer::connectors::{
    AppendSink, Change, InMemoryTable, RowKind, StagedArtifactSink, StagedName, UpsertSink,
    XaConnection, XaDatabase, XaSink,
};
use committer::{
    CommittingSink, DeliveryGuarantee, ExactlyOnce, Mechanism, SubtaskId, decode, encode,
    request_guarantee,
};
use sim::{Adopter, AppendShape, Schedule};

#[test]
fn a_committable_round_trips_through_its_versioned_envelope() {
    let name = StagedName {
        job: "orders".to_owned(),
        author: SubtaskId::new(1, 2).unwrap(),
        run: committer::RunToken(3),
        checkpoint: 4,
    };
    let bytes = encode::<StagedArtifactSink<u32>>(&name).unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("\"version\":1"));
    assert_eq!(decode::<StagedArtifactSink<u32>>(&bytes).unwrap(), name);
}

#[test]
fn a_committable_of_an_unknown_version_is_refused_by_name() {
    let bytes = br#"{"version":9,"committable":"x"}"#;
    let error = decode::<StagedArtifactSink<u32>>(bytes)
        .unwrap_err()
        .to_string();
    assert!(error.contains("committable version 9"), "{error}");
}

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

impl committer::connectors::XaStore for TimeoutsPass {
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
    fn commit_prepared(&mut self, gid: &str) -> anyhow::Result<committer::CommitOutcome> {
        self.0.commit_prepared(gid)
    }
    fn rollback_prepared(&mut self, gid: &str) -> anyhow::Result<committer::AbortOutcome> {
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
