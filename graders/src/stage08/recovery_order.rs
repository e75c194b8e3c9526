//! The order of recovery across the two sinks: the fresh sink is made after the crash
//! (08-R25), and only once recovery has aborted what the dead sink held (08-R15). Each
//! sink's own calls cannot show this; the spies' shared order can.

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
    // The fresh sink is made only once recovery's aborts are done: a real sink's new
    // connection would wait on the locks the dead transactions still hold. When the first
    // attempt did no work before the crash, a sink made before the aborts cannot be told
    // from one made up front (08-R25, the larger inputs show which), so there only the
    // replay's first call is held to the rule.
    let last_abort = dead
        .iter()
        .rposition(|c| matches!(c, SpyCall::Abort(_) | SpyCall::AbortOpen));
    let first_call_after = fresh_events.next();
    let made_too_early = |n: usize| match last_work {
        Some(_) => created_after <= n,
        None => first_call_after.is_some_and(|after| after <= n),
    };
    if let Some(n) = last_abort
        && made_too_early(n)
    {
        let began = match fresh.first() {
            Some(call) if first_call_after.is_some_and(|after| after <= n) => {
                format!(", and its first call ({call:?}) came before it too")
            }
            _ => String::new(),
        };
        return fail(
            Anomaly::ReplayBeforeAborts,
            format!(
                "new_sink() made the fresh sink after {created_after} call(s) on the first sink, before its call {} ({:?}){began}: the dead sink still held transactions (and, in a real system, their connections and locks); recovery aborts them first, and only then makes the fresh sink and replays",
                n + 1,
                dead[n]
            ),
        );
    }
    Ok(())
}
