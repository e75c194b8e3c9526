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
    /// `state()` of the operator restored from those bytes, or the error or panic.
    pub restored: Result<BTreeMap<String, SpyState>, String>,
}

impl DenseRun {
    /// A run that stopped at `message`, before a snapshot.
    fn stopped(message: String) -> Self {
        Self {
            snapshot: Err(message.clone()),
            restored: Err(message),
        }
    }
}

/// Feeds [`records`], snapshots, and restores from the bytes.
pub fn run<I: Implementation>() -> DenseRun {
    let mut operator = I::operator();
    for record in records() {
        if let Err(message) = super::driver::caught(|| I::process(&mut operator, record)) {
            return DenseRun::stopped(format!("process panicked: {message}"));
        }
    }
    let bytes = match super::driver::caught(|| I::snapshot(&operator)) {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) => return DenseRun::stopped(format!("{e:#}")),
        Err(message) => return DenseRun::stopped(format!("a panic: {message}")),
    };
    let restored = match super::driver::caught(|| I::restore(&bytes)) {
        Ok(Ok(op)) => Ok(I::keyed_state(&op)),
        Ok(Err(e)) => Err(format!("{e:#}")),
        Err(message) => Err(format!("a panic: {message}")),
    };
    DenseRun {
        snapshot: Ok(bytes.len()),
        restored,
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
        Ok(state) if *state == want => {}
        Ok(state) => {
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
        Err(e) => {
            return Err(Failure::new("restore(..) = Ok(..)", e.clone())
                .step("restore of snapshot()'s own bytes failed")
                .requirement("02-R15"));
        }
    }
    judge_dense_snapshot("snapshot()", len, "02-R15")
}
