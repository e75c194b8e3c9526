//! The `crash` check's dense snapshot: an operator holding one open aggregate for each of
//! 256 keys of random symbols (`harness::information`), then `snapshot()`, a restore from
//! it and the watermark that fires them. The bytes must be long enough to hold those keys:
//! a snapshot that names bytes kept elsewhere (an entry of a registry in a `static`, the
//! same entry for the same state) restores in the process that wrote it, as every other
//! case restores, and passes them all; after a real crash it would find nothing.

use serde::{Deserialize, Serialize};

use super::oracle::Model;
use super::{AssignerSpec, Fired, Implementation};
use crate::harness::Failure;
use crate::harness::information::{dense_keys, dense_keys_shown, judge_dense_snapshot};
use crate::stage03::guard::{Answer, caught};

/// The assigner: every record at 0 lies in `[0, 10)`.
pub const SPEC: AssignerSpec = AssignerSpec::Tumbling(10);
/// The watermark after the restore, which fires `[0, 10)`.
pub const WATERMARK: u64 = 9;

/// What the dense case saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DenseRun {
    /// The length of `snapshot()`'s bytes, or why there were none.
    pub snapshot: Answer<usize>,
    /// `on_watermark(9)` of the operator restored from those bytes, or why there is none;
    /// `None` when there were no bytes to restore from.
    pub fired: Option<Answer<Vec<Fired>>>,
}

/// Feeds each dense key once at 0, snapshots, restores and fires.
pub fn run<I: Implementation>() -> DenseRun {
    let bytes = caught(|| {
        let mut operator = I::operator(SPEC)?;
        for key in dense_keys() {
            if let Some(late) = I::on_record(&mut operator, &key, 0, 1) {
                anyhow::bail!("on_record({key:?}, 0, 1) returned it as late: {late:?}");
            }
        }
        I::snapshot(&operator)
    });
    let fired = bytes.as_result().ok().map(|bytes| {
        caught(|| {
            let mut restored = I::restore(SPEC, bytes)?;
            Ok(I::on_watermark(&mut restored, WATERMARK))
        })
    });
    DenseRun {
        snapshot: bytes.map(|bytes| bytes.len()),
        fired,
    }
}

/// The case as a report names it.
pub fn describe() -> String {
    format!(
        "WindowOperator over {SPEC}: on_record(key, 0, 1) for each of {}, then \
         restore({SPEC}, &snapshot()?) and on_watermark({WATERMARK})",
        dense_keys_shown()
    )
}

/// The restored operator must fire every key's aggregate, and the bytes must be long
/// enough to hold them (05-R15).
pub fn judge(seen: &DenseRun) -> Result<(), Failure> {
    let mut model = Model::new(SPEC);
    for key in dense_keys() {
        model.record(&key, 0, 1);
    }
    let want = model.watermark(WATERMARK);
    let len = match &seen.snapshot {
        Answer::Ok(len) => *len,
        other => {
            return Err(Failure::new("snapshot() = Ok(..)", other.show())
                .step("256 records on time, then the snapshot: one of them failed")
                .requirement("05-R15"));
        }
    };
    match &seen.fired {
        Some(Answer::Ok(fired)) if *fired == want => {}
        Some(Answer::Ok(fired)) => {
            let wrong = want
                .iter()
                .zip(fired.iter().map(Some).chain(std::iter::repeat(None)))
                .find(|(want, got)| Some(*want) != *got)
                .map(|(want, got)| format!("expected {want:?}, got {got:?}"));
            return Err(Failure::new(
                "on_watermark(9) = the 256 aggregates of [0, 10), one per key, in key order",
                format!("{} results", fired.len()),
            )
            .step(format!(
                "on_watermark({WATERMARK}) after the restore: the snapshot must hold every aggregate; {}",
                wrong.unwrap_or_else(|| "results no record made".to_owned())
            ))
            .requirement("05-R15"));
        }
        Some(other) => {
            return Err(Failure::new("restore(..) = Ok(..)", other.show())
                .step("a restore from the operator's own snapshot failed")
                .requirement("05-R15"));
        }
        None => {
            return Err(Failure::new(
                "restore(..) of snapshot()'s bytes = Ok(..)",
                "no restore was run",
            )
            .step("snapshot() gave bytes, but no restore from them was recorded")
            .requirement("05-R15"));
        }
    }
    judge_dense_snapshot("snapshot()", len, "05-R15")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_without_its_restore_is_no_evidence() {
        let seen = DenseRun {
            snapshot: Answer::Ok(1 << 16),
            fired: None,
        };
        let failure = judge(&seen).expect_err("a restore that never ran passed");
        assert_eq!(failure.actual, "no restore was run");
    }
}
