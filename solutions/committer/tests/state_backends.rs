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

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("committer-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir.join("operator-state.json")
}

#[test]
fn file_backed_operator_state_survives_the_process() {
    let path = scratch("survives");
    let mut state = FileOperatorState::open(&path).unwrap();
    state.put(key(1), b"handle".to_vec()).unwrap();
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
    let path = scratch("torn");
    let mut state = FileOperatorState::open(&path).unwrap();
    state.put(key(1), b"1".to_vec()).unwrap();
    fs::write(path.with_extension("tmp"), b"[{\"key\":").unwrap(); // a crash mid-write
    let reopened = FileOperatorState::open(&path).unwrap();
    assert_eq!(reopened.keys().unwrap(), [key(1)]);
}

#[test]
fn a_restore_replaces_the_live_file_with_the_checkpoint() {
    let path = scratch("restore");
    let mut state = FileOperatorState::open(&path).unwrap();
    state.put(key(1), b"1".to_vec()).unwrap();
    let checkpoint = state.snapshot().unwrap();
    state.put(key(2), b"2".to_vec()).unwrap(); // an epoch that never completed
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
    one.put(key(1), b"1".to_vec()).unwrap();
    two.put(key(1), b"2".to_vec()).unwrap();
    let (one, two) = (one.snapshot().unwrap(), two.snapshot().unwrap());
    assert!(merge_snapshots([one.as_slice(), two.as_slice()]).is_err());
    assert!(merge_snapshots([one.as_slice(), one.as_slice()]).is_ok());
}

#[test]
fn a_snapshot_lists_its_handles_by_typed_key_oldest_first() {
    let mut state = InMemoryOperatorState::new();
    state.put(key(2), b"two".to_vec()).unwrap();
    state.put(key(1), b"one".to_vec()).unwrap();
    let restored = InMemoryOperatorState::restore(&state.snapshot().unwrap()).unwrap();
    assert_eq!(restored.keys().unwrap(), [key(1), key(2)]);
    assert_eq!(restored.get(&key(2)).unwrap().unwrap(), b"two");
    assert!(InMemoryOperatorState::restore(b"{\"_xo_pending_sub0of1_c1\":\"00\"}").is_err());
}
