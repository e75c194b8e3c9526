//! The `contract` check's dense snapshot: the spy operator fed one record of each of 256
//! keys of random symbols (`harness::information`), then `snapshot()`. The bytes must be
//! long enough to hold those keys: a snapshot that names bytes kept elsewhere (an entry of
//! a registry in a `static`, the same entry for the same state) restores in the process
//! that wrote it, as every other case restores, and passes them all.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Implementation, SpyState};
use crate::harness::Failure;
use crate::harness::information::{dense_keys, dense_keys_shown, judge_dense_snapshot};

/// The records: each dense key once, with the value 1 (the spy keeps `[1]`; a 0 would
/// clear the key and a 9 leave an empty list).
pub fn records() -> Vec<(String, u32)> {
    dense_keys().into_iter().map(|key| (key, 1)).collect()
}

/// What the dense case saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DenseRun {
    /// The length of `snapshot()`'s bytes, or its error or panic.
    pub snapshot: Result<usize, String>,
    /// `state()` of the operator restored from those bytes, or the error or panic; `None`
    /// when there were no bytes to restore from.
    pub restored: Option<Result<BTreeMap<String, SpyState>, String>>,
}

/// Feeds [`records`], snapshots, and restores from the bytes.
pub fn run<I: Implementation>() -> DenseRun {
    let bytes = snapshot::<I>();
    let restored = bytes
        .as_ref()
        .ok()
        .map(|bytes| answered(|| I::restore(bytes)).map(|op| I::keyed_state(&op)));
    DenseRun {
        snapshot: bytes.map(|bytes| bytes.len()),
        restored,
    }
}

/// The bytes of a new operator's `snapshot()` after [`records`], or why there are none.
fn snapshot<I: Implementation>() -> Result<Vec<u8>, String> {
    let mut operator = I::operator();
    for record in records() {
        super::driver::caught(|| I::process(&mut operator, record))
            .map_err(|message| format!("process panicked: {message}"))?;
    }
    answered(|| I::snapshot(&operator))
}

/// `call`'s value, or its error or panic as a report writes it.
fn answered<T>(call: impl FnOnce() -> anyhow::Result<T>) -> Result<T, String> {
    match super::driver::caught(call) {
        Ok(answer) => answer.map_err(|e| format!("{e:#}")),
        Err(message) => Err(format!("a panic: {message}")),
    }
}

/// The case as a report names it.
pub fn describe() -> String {
    format!(
        "a new operator running the spy, fed (key, 1) for each of {}, then \
         snapshot() and restore(key_of, Spy, &bytes)",
        dense_keys_shown()
    )
}

/// The state must come back, and its bytes must be long enough to hold it (02-R15).
pub fn judge(seen: &DenseRun) -> Result<(), Failure> {
    let want: BTreeMap<String, SpyState> = records()
        .into_iter()
        .map(|(key, value)| (key, vec![value]))
        .collect();
    let len = match &seen.snapshot {
        Ok(len) => *len,
        Err(e) => {
            return Err(Failure::new("snapshot() = Ok(..)", e.clone())
                .step("the snapshot of a state of 256 keys failed")
                .requirement("02-R15"));
        }
    };
    match &seen.restored {
        Some(Ok(state)) if *state == want => {}
        Some(Ok(state)) => {
            let wrong = want
                .iter()
                .find(|(key, value)| state.get(*key) != Some(value))
                .map(|(key, value)| {
                    format!("key {key:?}: {value:?}, restored as {:?}", state.get(key))
                });
            return Err(Failure::new(
                "state() = the 256 keys, each with its value",
                format!("a state of {} keys", state.len()),
            )
            .step(format!(
                "restore of snapshot()'s bytes did not give back the state: {}",
                wrong.unwrap_or_else(|| "keys that were never processed".to_owned())
            ))
            .requirement("02-R15"));
        }
        Some(Err(e)) => {
            return Err(Failure::new("restore(..) = Ok(..)", e.clone())
                .step("restore of snapshot()'s own bytes failed")
                .requirement("02-R15"));
        }
        None => {
            return Err(Failure::new(
                "restore(..) of snapshot()'s bytes = Ok(..)",
                "no restore was run",
            )
            .step("snapshot() gave bytes, but no restore from them was recorded")
            .requirement("02-R15"));
        }
    }
    judge_dense_snapshot("snapshot()", len, "02-R15")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_without_its_restore_is_no_evidence() {
        let seen = DenseRun {
            snapshot: Ok(1 << 16),
            restored: None,
        };
        let failure = judge(&seen).expect_err("a restore that never ran passed");
        assert_eq!(failure.actual, "no restore was run");
    }
}
