//! Aborts that name what a sink does not hold as prepared (08-R18): an abort of a
//! committed checkpoint or of an id the sink never pre-committed, and a crash's aborts
//! sent to the fresh sink, told from the job's own calls there so that a transaction left
//! prepared on the dead sink is explained by where its abort went rather than as missing.

use super::anomaly::Anomaly;
use super::call::SpyCall;
use super::cell::{CellFailure, fail};
use super::oracle::{ModelSink, ModelTxn};

/// Every `abort(id)` on each sink (`sinks` in the order `new_sink()` made them) names a
/// transaction that sink holds as prepared when the call comes: pre-committed there, and
/// neither committed nor aborted since. The in-memory sink ignores any other id (08-R4),
/// but the system it stands for does not: a committed transaction cannot be rolled back
/// (PostgreSQL's `ROLLBACK PREPARED` of it is an error), and an id no transaction holds is
/// recorded as aborted, to be refused when the job takes it. Nor can an id already
/// aborted be aborted again: the system no longer holds that prepared transaction
/// (PostgreSQL's `ROLLBACK PREPARED` of it is an error).
pub(super) fn aborts_name_prepared_ids(sinks: &[Vec<SpyCall>]) -> Result<(), CellFailure> {
    for (s, calls) in sinks.iter().enumerate() {
        let which = if s == 0 { "first sink" } else { "fresh sink" };
        let mut model = ModelSink::default();
        for (n, call) in calls.iter().enumerate() {
            if let SpyCall::Abort(id) = *call {
                let what = match model.transactions.get(&id) {
                    Some(ModelTxn::Prepared(_)) => None,
                    Some(ModelTxn::Aborted) => Some(format!(
                        "checkpoint {id}, which this sink had already aborted: the system no longer holds that transaction, and a real one refuses to roll it back again"
                    )),
                    Some(ModelTxn::Committed) => Some(format!(
                        "checkpoint {id}, which this sink had committed: a committed transaction stays visible, and a real system refuses to roll it back"
                    )),
                    None => Some(format!(
                        "id {id}, which this sink never pre-committed: the system it stands for records the id as aborted, and refuses it when a checkpoint takes it"
                    )),
                };
                if let Some(what) = what {
                    return fail(
                        Anomaly::AbortedUnprepared,
                        format!(
                            "{which}, call {} (Abort({id})): aborted {what}; an abort names a transaction the sink holds prepared (prepared then: {:?})",
                            n + 1,
                            model.pending
                        ),
                    );
                }
            }
            model.apply(*call);
        }
    }
    Ok(())
}

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
