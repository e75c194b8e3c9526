//! Judges stage-08 observations: invariants of the protocol, never the reference's
//! exact call sequence.
//!
//! The first sink (the attempt before the crash, or the only one) is held to the
//! schedule: barriers at `barrier_every`, `2 * barrier_every`, ...; each checkpoint
//! committed exactly when its notification is due; at the crash, the notified
//! checkpoints visible and everything else aborted. The fresh sink after a crash is held
//! only to what the replay must achieve: exactly `records[offset..]` written, committed
//! in pre-commit order, all of it visible at the end. So a replay that commits its tail
//! as one transaction, or keeps taking checkpoints, passes, and a clean finish may skip
//! pre-committing an empty trailing transaction.

use super::anomaly::Anomaly;
use super::binding::SpyCall;
use super::driver::{RunResult, SpiedRun};
use super::first_sink::walk_first_sink;
use super::oracle::{ModelSink, Schedule};
use crate::harness::diff::multiset_diff;

/// Why one run (one cell of a grid) is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellFailure {
    /// The kind of wrong.
    pub anomaly: Anomaly,
    /// The first wrong step, in the stage's terms.
    pub step: String,
}

pub(super) fn fail<T>(anomaly: Anomaly, step: impl Into<String>) -> Result<T, CellFailure> {
    Err(CellFailure {
        anomaly,
        step: step.into(),
    })
}

/// The anomaly of an output that is not the input as a multiset, if any.
pub fn multiset_anomaly(records: &[u32], output: &[u32]) -> Option<CellFailure> {
    let diff = multiset_diff(records, output);
    let anomaly = match (diff.missing.is_empty(), diff.extra.is_empty()) {
        (true, true) => return None,
        (false, true) => Anomaly::LostRecord,
        (true, false) => Anomaly::Duplicate,
        (false, false) => Anomaly::LostAndDuplicated,
    };
    Some(CellFailure {
        anomaly,
        step: format!(
            "the output {output:?} is not the input {records:?} with each record once (missing {:?}, extra {:?})",
            diff.missing, diff.extra
        ),
    })
}

/// Judges `run_exactly_once_sink` on one cell: each record exactly once.
pub fn judge_exactly_once(records: &[u32], result: &RunResult) -> Result<(), CellFailure> {
    match result {
        RunResult::Output(output) => multiset_anomaly(records, output).map_or(Ok(()), Err),
        RunResult::Error(e) => fail(Anomaly::RejectedValidInput, format!("returned Err({e})")),
        RunResult::Panicked(m) => fail(Anomaly::Panicked, format!("panicked: {m}")),
    }
}

/// Judges one spied run against the protocol.
pub fn judge_protocol(
    records: &[u32],
    schedule: Schedule,
    run: &SpiedRun,
) -> Result<(), CellFailure> {
    let output = match &run.result {
        RunResult::Output(output) => output,
        RunResult::Error(e) => {
            return fail(Anomaly::RejectedValidInput, format!("returned Err({e})"));
        }
        RunResult::Panicked(m) => return fail(Anomaly::Panicked, format!("panicked: {m}")),
    };
    let Some(first) = run.sinks.first() else {
        return fail(
            Anomaly::NoSink,
            format!(
                "returned {output:?} without creating a sink: the output never went through the two-phase protocol"
            ),
        );
    };
    let first = walk_first_sink(records, schedule, first)?;
    let mut visible = first.committed.clone();
    let offset = schedule.restart_offset();
    match (schedule.crash_after, run.sinks.len()) {
        (None, 1) => {}
        (None, n) => {
            return fail(
                Anomaly::ExtraSink,
                format!("created {n} sinks in a run without a crash; only one is needed"),
            );
        }
        (Some(_), 1) if offset == records.len() => {}
        (Some(k), 1) => {
            return fail(
                Anomaly::NoFreshSink,
                format!(
                    "after the crash after record {k}, no fresh sink received the replay of records[{offset}..] = {:?}",
                    &records[offset..]
                ),
            );
        }
        (Some(_), 2) => {
            let fresh = walk_fresh_sink(records, offset, &run.sinks[1])?;
            visible.extend_from_slice(&fresh.committed);
        }
        (Some(_), n) => {
            return fail(
                Anomaly::ExtraSink,
                format!("created {n} sinks for a run with one crash; two are needed"),
            );
        }
    }
    if *output != visible {
        return fail(
            Anomaly::ResultNotFromSinks,
            format!(
                "returned {output:?}, but the sinks made {visible:?} visible (the first sink's committed() at the crash, then the fresh sink's)"
            ),
        );
    }
    Ok(())
}

/// Walks the fresh sink's calls after a crash; returns its model at the end.
fn walk_fresh_sink(
    records: &[u32],
    offset: usize,
    calls: &[SpyCall],
) -> Result<ModelSink, CellFailure> {
    let want = &records[offset..];
    let written: Vec<u32> = calls
        .iter()
        .filter_map(|c| match c {
            SpyCall::Write(r) => Some(*r),
            _ => None,
        })
        .collect();
    if written != want {
        let from = (0..=records.len()).find(|o| records[*o..] == written[..]);
        return match from {
            Some(from) => fail(
                Anomaly::ReplayFromWrongOffset,
                format!(
                    "the fresh sink received records[{from}..] = {written:?}; the last notified checkpoint is at offset {offset}, so the replay is records[{offset}..] = {want:?}"
                ),
            ),
            None => fail(
                Anomaly::WrongReplay,
                format!(
                    "the fresh sink received {written:?}, which is not records[{offset}..] = {want:?}"
                ),
            ),
        };
    }
    let mut model = ModelSink::default();
    for (n, call) in calls.iter().enumerate() {
        let at = format!("fresh sink, call {} ({call:?})", n + 1);
        match *call {
            SpyCall::PreCommit(id) if model.transactions.contains_key(&id) => {
                return fail(
                    Anomaly::ReusedCheckpointId,
                    format!("{at}: pre-committed checkpoint id {id} a second time"),
                );
            }
            SpyCall::Commit(id)
                if model
                    .pending
                    .iter()
                    .position(|p| *p == id)
                    .is_some_and(|r| r > 0) =>
            {
                return fail(
                    Anomaly::NotifiedOutOfOrder,
                    format!(
                        "{at}: committed checkpoint {id} while the older checkpoint {} was still pending",
                        model.pending[0]
                    ),
                );
            }
            SpyCall::Abort(id) if model.pending.contains(&id) => {
                return fail(
                    Anomaly::AbortedWhileRunning,
                    format!("{at}: aborted checkpoint {id} of the replay: its records are lost"),
                );
            }
            SpyCall::AbortOpen if !model.open.is_empty() => {
                return fail(
                    Anomaly::AbortedWhileRunning,
                    format!(
                        "{at}: abort_open() discarded {:?} of the replay",
                        model.open
                    ),
                );
            }
            _ => {}
        }
        model.apply(*call);
    }
    if !model.open.is_empty() || !model.pending.is_empty() {
        let left: Vec<u32> = model
            .pending
            .iter()
            .flat_map(|id| model.prepared(*id).unwrap_or_default().to_vec())
            .chain(model.open.iter().copied())
            .collect();
        return fail(
            Anomaly::NotCommittedAtEnd,
            format!("the fresh sink ended with {left:?} written but never committed"),
        );
    }
    if model.committed != want {
        return fail(
            Anomaly::WrongReplay,
            format!(
                "the fresh sink made {:?} visible, expected records[{offset}..] = {want:?}",
                model.committed
            ),
        );
    }
    Ok(model)
}
