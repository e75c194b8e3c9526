//! The order of recovery across the two sinks: the fresh sink is made after the crash
//! (08-R25), and the replay begins only once recovery has aborted what the dead sink
//! held (08-R15). Each sink's own calls cannot show this; the spies' shared order can.

use super::anomaly::Anomaly;
use super::call::SpyCall;
use super::cell::{CellFailure, fail};

/// Judges where the fresh sink (the second) came in among the dead sink's calls, from
/// `order`, the sink of every creation and call in time order. A run with one sink, or
/// recorded without an order, passes.
pub(super) fn judge_recovery_order(
    sinks: &[Vec<SpyCall>],
    order: &[usize],
) -> Result<(), CellFailure> {
    let (Some(dead), Some(fresh)) = (sinks.first(), sinks.get(1)) else {
        return Ok(());
    };
    // How many of the dead sink's calls came before the fresh sink's creation and before
    // its first call (the fresh sink's first two events; a sink's first event in `order`
    // is its creation, so the dead sink's own is not a call).
    let dead_calls_before = |event: usize| {
        order[..event]
            .iter()
            .filter(|&&sink| sink == 0)
            .count()
            .saturating_sub(1)
    };
    let mut fresh_events = order
        .iter()
        .enumerate()
        .filter(|&(_, &sink)| sink == 1)
        .map(|(event, _)| dead_calls_before(event));
    let Some(created_after) = fresh_events.next() else {
        return Ok(());
    };
    let first_call_after = fresh_events.next();
    // The first attempt's work on the dead sink: its writes and pre-commits. (Its commits
    // are not counted: recovery may deliver a notification again, which `commit`'s
    // idempotence allows.)
    let last_work = dead
        .iter()
        .rposition(|c| matches!(c, SpyCall::Write(_) | SpyCall::PreCommit(_)));
    if let Some(n) = last_work
        && created_after <= n
    {
        return fail(
            Anomaly::FreshSinkBeforeCrash,
            format!(
                "new_sink() made the fresh sink after {created_after} call(s) on the first sink, before its call {} ({:?}): the first attempt was still running; a job makes one sink at the start and one after the crash",
                n + 1,
                dead[n]
            ),
        );
    }
    let last_abort = dead
        .iter()
        .rposition(|c| matches!(c, SpyCall::Abort(_) | SpyCall::AbortOpen));
    if let (Some(n), Some(first_call_after), Some(first_call)) =
        (last_abort, first_call_after, fresh.first())
        && first_call_after <= n
    {
        return fail(
            Anomaly::ReplayBeforeAborts,
            format!(
                "the fresh sink's first call ({first_call:?}) came before the first sink's call {} ({:?}): the replay began while the dead sink still held transactions (and, in a real system, their connections and locks); recovery aborts them first, and only then replays",
                n + 1,
                dead[n]
            ),
        );
    }
    Ok(())
}
