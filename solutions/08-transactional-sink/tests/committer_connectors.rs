//! The pieces around the base: handle codec, guarantee labels, shape C's netting, the
//! at-least-once baseline, and the durable operator-state backend.

mod framework_sim;

use std::fs;
use std::rc::Rc;

use framework_sim::{Adopter, AppendShape, Schedule};
use solution08::committer::{
    CommittingSink, DeliveryGuarantee, ExactlyOnce, FileOperatorState, Mechanism,
    OperatorStateBackend, SubtaskId, decode, encode, merge_snapshots, request_guarantee,
};
use solution08::connectors::{
    AppendSink, Change, InMemoryTable, RowKind, StagedArtifactSink, StagedName, UpsertSink,
    XaConnection, XaDatabase, XaSink,
};

#[test]
fn a_committable_round_trips_through_its_versioned_envelope() {
    let name = StagedName {
        job: "orders".to_owned(),
        author: SubtaskId::new(1, 2).unwrap(),
        run: solution08::committer::RunToken(3),
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
    framework_sim::job::run_on(&shape, &s).unwrap();
    let input = AppendShape::input(4);
    let log = shape.0.borrow();
    assert!(input.iter().all(|r| log.contains(r)), "at least once");
    assert_eq!(log.len(), input.len() + 2, "and some twice");
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("solution08-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir.join("operator-state.json")
}

#[test]
fn file_backed_operator_state_survives_the_process() {
    let path = scratch("survives");
    let mut state = FileOperatorState::open(&path).unwrap();
    state
        .put("_xo_pending_sub0of1_c1", b"handle".to_vec())
        .unwrap();
    drop(state);
    let reopened = FileOperatorState::open(&path).unwrap();
    assert_eq!(
        reopened.get("_xo_pending_sub0of1_c1").unwrap().unwrap(),
        b"handle"
    );
    assert!(
        !path.with_extension("tmp").exists(),
        "the temporary was renamed into place"
    );
}

#[test]
fn a_half_written_temporary_is_ignored_at_open() {
    let path = scratch("torn");
    let mut state = FileOperatorState::open(&path).unwrap();
    state.put("a", b"1".to_vec()).unwrap();
    fs::write(path.with_extension("tmp"), b"{\"a\":").unwrap(); // a crash mid-write
    let reopened = FileOperatorState::open(&path).unwrap();
    assert_eq!(reopened.keys().unwrap(), ["a"]);
}

#[test]
fn a_restore_replaces_the_live_file_with_the_checkpoint() {
    let path = scratch("restore");
    let mut state = FileOperatorState::open(&path).unwrap();
    state.put("a", b"1".to_vec()).unwrap();
    let checkpoint = state.snapshot().unwrap();
    state.put("b", b"2".to_vec()).unwrap(); // an epoch that never completed
    let restored = FileOperatorState::restore(&path, &checkpoint).unwrap();
    assert_eq!(restored.keys().unwrap(), ["a"]);
    assert_eq!(
        FileOperatorState::open(&path).unwrap().keys().unwrap(),
        ["a"]
    );
}

#[test]
fn merging_snapshots_refuses_two_values_under_one_key() {
    let mut one = solution08::committer::InMemoryOperatorState::new();
    let mut two = solution08::committer::InMemoryOperatorState::new();
    one.put("k", b"1".to_vec()).unwrap();
    two.put("k", b"2".to_vec()).unwrap();
    let (one, two) = (one.snapshot().unwrap(), two.snapshot().unwrap());
    assert!(merge_snapshots([one.as_slice(), two.as_slice()]).is_err());
    assert!(merge_snapshots([one.as_slice(), one.as_slice()]).is_ok());
}
