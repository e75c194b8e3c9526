//! The `contract` check's dense snapshot: a subtask of parallelism 1 that counted each of
//! 256 keys of random symbols (`harness::information`) once, then `snapshot()` and a
//! restore from it. The bytes must be long enough to hold those keys: a snapshot that names
//! bytes kept elsewhere (an entry of a registry in a `static`, the same entry for the same
//! state) restores in the process that wrote it, as every other case restores, and passes
//! them all; after a rescale, in a new process, it would find nothing.

use serde::{Deserialize, Serialize};

use super::guard::{Answer, caught};
use super::{Implementation, SubtaskCounts};
use crate::harness::Failure;
use crate::harness::information::{dense_keys, dense_keys_shown, judge_dense_snapshot};

/// The `max_parallelism` of the dense subtask.
pub const DENSE_MAX_PARALLELISM: u32 = 128;

/// What the dense case saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DenseRun {
    /// The length of `snapshot()`'s bytes, or why there were none.
    pub snapshot: Answer<usize>,
    /// `state()` of `KeyedSubtask::restore(0, 1, 128, &[bytes])`, or why there is none;
    /// `None` when there were no bytes to restore from.
    pub restored: Option<Answer<SubtaskCounts>>,
}

/// Counts every dense key once, snapshots, and restores from the bytes.
pub fn run<I: Implementation>() -> DenseRun {
    let bytes = caught(|| {
        let mut subtask = I::subtask(0, 1, DENSE_MAX_PARALLELISM)?;
        for key in dense_keys() {
            I::count(&mut subtask, &key)?;
        }
        I::snapshot(&subtask)
    });
    let restored = bytes.as_result().ok().map(|bytes| {
        caught(|| {
            let subtask = I::restore(0, 1, DENSE_MAX_PARALLELISM, std::slice::from_ref(bytes))?;
            Ok(I::counts(&subtask))
        })
    });
    DenseRun {
        snapshot: bytes.map(|bytes| bytes.len()),
        restored,
    }
}

/// The case as a report names it.
pub fn describe() -> String {
    format!(
        "KeyedSubtask::new(0, 1, {DENSE_MAX_PARALLELISM}) counting each of {} once, then \
         snapshot() and KeyedSubtask::restore(0, 1, {DENSE_MAX_PARALLELISM}, &[bytes])",
        dense_keys_shown()
    )
}

/// The counts must come back, and the bytes must be long enough to hold them (03-R6).
pub fn judge(seen: &DenseRun) -> Result<(), Failure> {
    let want: SubtaskCounts = dense_keys().into_iter().map(|key| (key, 1)).collect();
    let len = match &seen.snapshot {
        Answer::Ok(len) => *len,
        other => {
            return Err(Failure::new("snapshot() = Ok(..)", other.show())
                .step("counting 256 keys on a subtask that owns every key group, or its snapshot, failed")
                .requirement("03-R6"));
        }
    };
    match &seen.restored {
        Some(Answer::Ok(state)) if *state == want => {}
        Some(Answer::Ok(state)) => {
            let wrong = want
                .iter()
                .find(|(key, count)| state.get(*key) != Some(count))
                .map(|(key, count)| {
                    format!(
                        "key {key:?} counted {count}, restored as {:?}",
                        state.get(key)
                    )
                });
            return Err(Failure::new(
                "state() = the 256 keys, each counted once",
                format!("a state of {} keys", state.len()),
            )
            .step(format!(
                "a restore from the snapshot of the one subtask of parallelism 1 did not give back its counts: {}",
                wrong.unwrap_or_else(|| "keys that were never counted".to_owned())
            ))
            .requirement("03-R7"));
        }
        Some(other) => {
            return Err(Failure::new("restore(..) = Ok(..)", other.show())
                .step("a restore at the same parallelism from the subtask's own snapshot failed")
                .requirement("03-R7"));
        }
        None => {
            return Err(Failure::new(
                "restore(..) of snapshot()'s bytes = Ok(..)",
                "no restore was run",
            )
            .step("snapshot() gave bytes, but no restore from them was recorded")
            .requirement("03-R7"));
        }
    }
    judge_dense_snapshot("snapshot()", len, "03-R6")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_without_its_restore_is_no_evidence() {
        let seen = DenseRun {
            snapshot: Answer::Ok(1 << 16),
            restored: None,
        };
        let failure = judge(&seen).expect_err("a restore that never ran passed");
        assert_eq!(failure.actual, "no restore was run");
    }
}
