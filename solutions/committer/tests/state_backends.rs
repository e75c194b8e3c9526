//! The operator-state backends: typed keys, snapshots, restores and merges.

use std::fs;

use committer::{
    FileOperatorState, InMemoryOperatorState, OperatorStateBackend, PendingKey, SubtaskId,
    merge_snapshots,
};

fn key(checkpoint: u64) -> PendingKey {
    PendingKey {
        checkpoint,
        author: SubtaskId::new(0, 1).unwrap(),
    }
}

/// A fresh folder for one test, removed when the guard drops, and a state file's path in it.
fn scratch() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("committer-")
        .tempdir()
        .unwrap();
    let path = dir.path().join("operator-state.bin");
    (dir, path)
}

#[test]
fn file_backed_operator_state_survives_the_process() {
    let (_scratch, path) = scratch();
    let mut state = FileOperatorState::open(&path).unwrap();
    state.put(key(1), b"handle").unwrap();
    drop(state);
    let reopened = FileOperatorState::open(&path).unwrap();
    assert_eq!(reopened.get(&key(1)).unwrap().unwrap(), b"handle");
    assert!(
        !path.with_extension("tmp").exists(),
        "the temporary was renamed into place"
    );
}

#[test]
fn a_half_written_temporary_is_ignored_at_open() {
    let (_scratch, path) = scratch();
    let mut state = FileOperatorState::open(&path).unwrap();
    state.put(key(1), b"1").unwrap();
    fs::write(path.with_extension("tmp"), b"[{\"key\":").unwrap(); // a crash mid-write
    let reopened = FileOperatorState::open(&path).unwrap();
    assert_eq!(reopened.keys().unwrap(), [key(1)]);
}

#[test]
fn a_restore_replaces_the_live_file_with_the_checkpoint() {
    let (_scratch, path) = scratch();
    let mut state = FileOperatorState::open(&path).unwrap();
    state.put(key(1), b"1").unwrap();
    let checkpoint = state.snapshot().unwrap();
    state.put(key(2), b"2").unwrap(); // an epoch that never completed
    let restored = FileOperatorState::restore(&path, &checkpoint).unwrap();
    assert_eq!(restored.keys().unwrap(), [key(1)]);
    assert_eq!(
        FileOperatorState::open(&path).unwrap().keys().unwrap(),
        [key(1)]
    );
}

#[test]
fn merging_snapshots_refuses_two_values_under_one_key() {
    let mut one = InMemoryOperatorState::new();
    let mut two = InMemoryOperatorState::new();
    one.put(key(1), b"1").unwrap();
    two.put(key(1), b"2").unwrap();
    let (one, two) = (one.snapshot().unwrap(), two.snapshot().unwrap());
    assert!(merge_snapshots([one.as_slice(), two.as_slice()]).is_err());
    assert!(merge_snapshots([one.as_slice(), one.as_slice()]).is_ok());
}

#[test]
fn a_snapshot_lists_its_handles_by_typed_key_oldest_first() {
    let mut state = InMemoryOperatorState::new();
    state.put(key(2), b"two").unwrap();
    state.put(key(1), b"one").unwrap();
    let restored = InMemoryOperatorState::restore(&state.snapshot().unwrap()).unwrap();
    assert_eq!(restored.keys().unwrap(), [key(1), key(2)]);
    assert_eq!(restored.get(&key(2)).unwrap().unwrap(), b"two");
    assert!(InMemoryOperatorState::restore(b"{\"_xo_pending_sub0of1_c1\":\"00\"}").is_err());
}

/// The snapshot of one entry, written by hand in the documented layout.
fn one_entry(checkpoint: u64, index: u32, parallelism: u32, handle: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&checkpoint.to_le_bytes());
    bytes.extend_from_slice(&index.to_le_bytes());
    bytes.extend_from_slice(&parallelism.to_le_bytes());
    bytes.extend_from_slice(&u32::try_from(handle.len()).unwrap().to_le_bytes());
    bytes.extend_from_slice(handle);
    bytes
}

fn snapshot_of(entries: &[Vec<u8>]) -> Vec<u8> {
    snapshot_with_names(entries, &[])
}

fn snapshot_with_names(entries: &[Vec<u8>], names: &[&str]) -> Vec<u8> {
    let mut bytes = v1_snapshot_of(entries);
    bytes[..8].copy_from_slice(b"OPSTATE2");
    bytes.extend_from_slice(&u32::try_from(names.len()).unwrap().to_le_bytes());
    for name in names {
        bytes.extend_from_slice(&u32::try_from(name.len()).unwrap().to_le_bytes());
        bytes.extend_from_slice(name.as_bytes());
    }
    bytes
}

/// The first version's layout: the entries, no names.
fn v1_snapshot_of(entries: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = b"OPSTATE1".to_vec();
    bytes.extend_from_slice(&u32::try_from(entries.len()).unwrap().to_le_bytes());
    entries
        .iter()
        .for_each(|entry| bytes.extend_from_slice(entry));
    bytes
}

#[test]
fn a_snapshot_keeps_every_name_the_job_ran_under_and_a_merge_keeps_them_all() {
    let mut state = InMemoryOperatorState::new();
    state.record_name("orders").unwrap();
    state.record_name("orders").unwrap();
    state.put(key(1), b"1").unwrap();
    let snapshot = state.snapshot().unwrap();
    assert_eq!(
        snapshot,
        snapshot_with_names(&[one_entry(1, 0, 1, b"1")], &["orders"])
    );
    let mut renamed = InMemoryOperatorState::restore(&snapshot).unwrap();
    renamed.record_name("orders-v2").unwrap();
    assert_eq!(renamed.names().unwrap(), ["orders", "orders-v2"]);
    let other = snapshot_with_names(&[], &["legacy"]);
    let merged = merge_snapshots([renamed.snapshot().unwrap().as_slice(), &other]).unwrap();
    let names = InMemoryOperatorState::restore(&merged)
        .unwrap()
        .names()
        .unwrap();
    assert_eq!(names, ["legacy", "orders", "orders-v2"]);
    let (_scratch, path) = scratch();
    let mut durable = FileOperatorState::open(&path).unwrap();
    durable.record_name("orders").unwrap();
    drop(durable);
    assert_eq!(
        FileOperatorState::open(&path).unwrap().names().unwrap(),
        ["orders"]
    );
    let twice = snapshot_with_names(&[], &["a", "a"]);
    let error = InMemoryOperatorState::restore(&twice).unwrap_err();
    assert!(error.to_string().contains("listed twice"), "{error}");
}

#[test]
fn a_first_version_snapshot_still_restores_with_no_names() {
    let v1 = v1_snapshot_of(&[one_entry(3, 0, 1, b"h")]);
    let state = InMemoryOperatorState::restore(&v1).unwrap();
    assert_eq!(state.keys().unwrap(), [key(3)]);
    assert!(state.names().unwrap().is_empty());
}

#[test]
fn a_snapshot_has_the_documented_layout() {
    let mut state = InMemoryOperatorState::new();
    let author = SubtaskId::new(1, 3).unwrap();
    state
        .put(
            PendingKey {
                checkpoint: 258,
                author,
            },
            b"ab",
        )
        .unwrap();
    state.put(key(7), b"").unwrap();
    let expected = snapshot_of(&[one_entry(7, 0, 1, b""), one_entry(258, 1, 3, b"ab")]);
    assert_eq!(state.snapshot().unwrap(), expected);
    assert_eq!(
        InMemoryOperatorState::new().snapshot().unwrap(),
        snapshot_of(&[])
    );
}

#[test]
fn a_damaged_snapshot_is_refused_whatever_the_damage() {
    let whole = snapshot_of(&[one_entry(1, 0, 1, b"one"), one_entry(2, 0, 1, b"two")]);
    assert!(InMemoryOperatorState::restore(&whole).is_ok());
    for cut in 0..whole.len() {
        let error = InMemoryOperatorState::restore(&whole[..cut]).unwrap_err();
        assert!(
            format!("{error:#}").contains("operator state"),
            "cut at {cut}: {error:#}"
        );
    }
    let mut longer = whole.clone();
    longer.push(0);
    let trailing = InMemoryOperatorState::restore(&longer).unwrap_err();
    assert!(
        trailing.to_string().contains("1 byte(s) follow"),
        "{trailing}"
    );

    let disorder = snapshot_of(&[one_entry(2, 0, 1, b"two"), one_entry(1, 0, 1, b"one")]);
    let twice = snapshot_of(&[one_entry(1, 0, 1, b"one"), one_entry(1, 0, 1, b"one")]);
    for damaged in [disorder, twice] {
        let error = InMemoryOperatorState::restore(&damaged).unwrap_err();
        assert!(error.to_string().contains("out of order"), "{error}");
        assert!(merge_snapshots([damaged.as_slice()]).is_err());
        let (_scratch, path) = scratch();
        assert!(FileOperatorState::restore(path, &damaged).is_err());
    }
    for (index, parallelism) in [(3, 3), (0, 0)] {
        let impossible = snapshot_of(&[one_entry(1, index, parallelism, b"")]);
        let error = InMemoryOperatorState::restore(&impossible).unwrap_err();
        assert!(
            format!("{error:#}").contains("author cannot exist"),
            "{error:#}"
        );
    }
}

#[test]
fn a_put_over_a_key_replaces_its_value_and_erasing_a_missing_key_is_no_error() {
    let mut state = InMemoryOperatorState::new();
    state.put(key(2), b"two").unwrap();
    state.put(key(1), b"first").unwrap();
    state.put(key(1), b"second").unwrap();
    assert_eq!(state.keys().unwrap(), [key(1), key(2)]);
    assert_eq!(state.get(&key(1)).unwrap().unwrap(), b"second");
    state.remove(&key(3)).unwrap();
    state.remove(&key(1)).unwrap();
    assert_eq!(state.keys().unwrap(), [key(2)]);
    assert_eq!(state.get(&key(1)).unwrap(), None);
}

#[test]
fn an_erase_is_durable_too() {
    let (_scratch, path) = scratch();
    let mut state = FileOperatorState::open(&path).unwrap();
    state.put(key(1), b"1").unwrap();
    state.put(key(2), b"2").unwrap();
    state.remove(&key(1)).unwrap();
    drop(state);
    assert_eq!(
        FileOperatorState::open(&path).unwrap().keys().unwrap(),
        [key(2)]
    );
}

#[test]
fn state_that_exists_but_cannot_be_read_is_an_error_not_an_empty_state() {
    let (_scratch, path) = scratch();
    fs::create_dir(&path).unwrap(); // a folder where the file should be
    let error = FileOperatorState::open(&path).unwrap_err();
    assert!(format!("{error:#}").contains("opening"), "{error:#}");
}

#[test]
fn a_state_file_named_without_a_folder_lives_in_the_working_directory() {
    // A bare name has an empty parent: there is no folder to sync but the current one.
    let name = format!("committer-{}-bare.bin", std::process::id());
    let mut state = FileOperatorState::open(&name).unwrap();
    let put = state.put(key(1), b"1");
    let reopened = FileOperatorState::open(&name).map(|s| s.keys().unwrap());
    let _ = fs::remove_file(&name);
    put.unwrap();
    assert_eq!(reopened.unwrap(), [key(1)]);
}
