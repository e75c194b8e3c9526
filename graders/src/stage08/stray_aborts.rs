//! A crash's aborts sent to the wrong sink: told from the job's own calls on the fresh
//! sink, so that a transaction left prepared on the dead sink is explained by where its
//! abort went rather than as a missing abort.

use super::anomaly::Anomaly;
use super::call::SpyCall;
use super::cell::CellFailure;

/// A prepared transaction the dead sink still holds at the crash is explained by the
/// job's own calls when it sent aborts to the fresh sink, which never pre-committed those
/// ids: the abort went to the wrong sink, not missing.
pub(super) fn aborted_on_the_fresh_sink(
    failure: CellFailure,
    fresh: Option<&Vec<SpyCall>>,
) -> CellFailure {
    if failure.anomaly == Anomaly::OpenNotAborted {
        return open_aborted_on_the_fresh_sink(failure, fresh);
    }
    if failure.anomaly != Anomaly::NotAborted {
        return failure;
    }
    let mut held = std::collections::BTreeSet::new();
    let mut strays = Vec::new();
    for call in fresh.map_or(&[][..], Vec::as_slice) {
        match call {
            SpyCall::PreCommit(id) => {
                held.insert(*id);
            }
            SpyCall::Abort(id) if !held.contains(id) => strays.push(*id),
            _ => {}
        }
    }
    if strays.is_empty() {
        return failure;
    }
    let aborts: Vec<String> = strays.iter().map(|id| format!("abort({id})")).collect();
    CellFailure {
        anomaly: Anomaly::AbortedOnFreshSink,
        step: format!(
            "{}: the job called {} on the fresh sink, which never held it; the crash's aborts go \
             to the dead sink, which holds the prepared transactions",
            failure.step,
            aborts.join(", ")
        ),
    }
}

/// The dead sink's open transaction left unaborted is explained by the job's own calls
/// when it called `abort_open()` on the fresh sink, which has no open transaction of the
/// crashed attempt's: the abort went to the wrong sink, not missing.
fn open_aborted_on_the_fresh_sink(
    failure: CellFailure,
    fresh: Option<&Vec<SpyCall>>,
) -> CellFailure {
    if !fresh.is_some_and(|calls| calls.contains(&SpyCall::AbortOpen)) {
        return failure;
    }
    CellFailure {
        step: format!(
            "{}: the job called abort_open() on the fresh sink; the crash's abort_open() goes \
             to the dead sink, whose open transaction the crash left",
            failure.step
        ),
        ..failure
    }
}
