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

use std::collections::BTreeMap;

use super::anomaly::Anomaly;
use super::binding::SpyCall;
use super::driver::{RunResult, SpiedRun};
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

fn fail<T>(anomaly: Anomaly, step: impl Into<String>) -> Result<T, CellFailure> {
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

/// What a pre-committed id stands for on the first sink.
#[derive(Debug, Clone, Copy)]
enum Taken {
    /// The checkpoint of barrier number `index` (1-based), after `offset` records.
    Barrier { index: usize, offset: usize },
    /// The trailing transaction of a clean finish.
    Final,
}

struct FirstSink<'a> {
    records: &'a [u32],
    schedule: Schedule,
    model: ModelSink,
    position: usize,
    barriers: usize,
    last_barrier_at: Option<usize>,
    taken: BTreeMap<u64, Taken>,
    final_taken: bool,
}

impl FirstSink<'_> {
    fn finishing(&self) -> bool {
        self.schedule.crash_after.is_none() && self.position == self.records.len()
    }

    fn running(&self) -> bool {
        self.schedule.crash_after.is_none() || self.position < self.schedule.stop()
    }

    fn barrier_owed(&self) -> Result<(), CellFailure> {
        let p = self.position;
        if self.schedule.is_barrier(p) && self.last_barrier_at != Some(p) {
            return fail(
                Anomaly::MissingBarrier,
                format!(
                    "no pre-commit at the barrier after record {p} (barriers follow every {} records)",
                    self.schedule.barrier_every
                ),
            );
        }
        Ok(())
    }

    /// Every pending checkpoint whose notification has arrived must be committed.
    fn none_late(&self) -> Result<(), CellFailure> {
        let lag = self.schedule.commit_lag;
        for id in &self.model.pending {
            if let Some(Taken::Barrier { index, offset }) = self.taken.get(id)
                && index + lag <= self.barriers
            {
                return fail(
                    Anomaly::NotificationLate,
                    format!(
                        "checkpoint {id} (barrier after record {offset}) was still not committed after barrier {}: with commit_lag = {lag} its notification arrives at barrier {}",
                        self.barriers,
                        index + lag
                    ),
                );
            }
        }
        Ok(())
    }

    fn call(&mut self, call: SpyCall) -> Result<(), CellFailure> {
        let p = self.position;
        let lag = self.schedule.commit_lag;
        match call {
            SpyCall::Write(record) => {
                self.barrier_owed()?;
                self.none_late()?;
                if p >= self.schedule.stop() {
                    return match self.schedule.crash_after {
                        Some(k) => fail(
                            Anomaly::WrotePastCrash,
                            format!(
                                "wrote {record} into the first sink after the crash after record {k}: the replay belongs in a fresh sink"
                            ),
                        ),
                        None => fail(
                            Anomaly::WrongWrites,
                            format!("wrote {record} after all {} records", self.records.len()),
                        ),
                    };
                }
                if record != self.records[p] {
                    return fail(
                        Anomaly::WrongWrites,
                        format!(
                            "write number {} was {record}, expected records[{p}] = {}",
                            p + 1,
                            self.records[p]
                        ),
                    );
                }
                self.position += 1;
            }
            SpyCall::PreCommit(id) => {
                if self.model.transactions.contains_key(&id) {
                    return fail(
                        Anomaly::ReusedCheckpointId,
                        format!("pre-committed checkpoint id {id} a second time on the same sink"),
                    );
                }
                if self.schedule.is_barrier(p)
                    && self.last_barrier_at != Some(p)
                    && p <= self.schedule.stop()
                {
                    self.none_late()?;
                    self.barriers += 1;
                    self.last_barrier_at = Some(p);
                    let taken = Taken::Barrier {
                        index: self.barriers,
                        offset: p,
                    };
                    self.taken.insert(id, taken);
                } else if self.finishing() && !self.final_taken {
                    self.final_taken = true;
                    self.taken.insert(id, Taken::Final);
                } else if !self.running() {
                    return fail(
                        Anomaly::WrotePastCrash,
                        format!(
                            "pre-committed checkpoint {id} after the crash after record {p}: a dead job takes no checkpoint"
                        ),
                    );
                } else {
                    return fail(
                        Anomaly::PreCommitOffBarrier,
                        format!(
                            "pre-committed checkpoint {id} after record {p}, where no barrier falls (barriers follow every {} records)",
                            self.schedule.barrier_every
                        ),
                    );
                }
            }
            SpyCall::Commit(id) => {
                if let Some(rank) = self.model.pending.iter().position(|p| *p == id) {
                    if rank > 0 {
                        return fail(
                            Anomaly::NotifiedOutOfOrder,
                            format!(
                                "committed checkpoint {id} while the older checkpoint {} was still pending: notifications arrive oldest first",
                                self.model.pending[0]
                            ),
                        );
                    }
                    if let Some(Taken::Barrier { index, offset }) = self.taken.get(&id).copied()
                        && index + lag > self.barriers
                        && !self.finishing()
                    {
                        let when = if self.running() {
                            format!("at barrier {}", self.barriers)
                        } else {
                            format!(
                                "after the crash after record {p}, having passed {} barriers",
                                self.barriers
                            )
                        };
                        return fail(
                            Anomaly::VisibleBeforeNotification,
                            format!(
                                "committed checkpoint {id} (barrier {index}, after record {offset}) {when}, but with commit_lag = {lag} its notification arrives at barrier {}",
                                index + lag
                            ),
                        );
                    }
                }
            }
            SpyCall::Abort(id) => {
                self.none_late()?;
                if self.model.pending.contains(&id) && self.running() {
                    return fail(
                        Anomaly::AbortedWhileRunning,
                        format!(
                            "aborted checkpoint {id} after record {p} while the job was running: only recovery aborts, and the records are lost"
                        ),
                    );
                }
            }
            SpyCall::AbortOpen => {
                if !self.model.open.is_empty() && self.running() {
                    return fail(
                        Anomaly::AbortedWhileRunning,
                        format!(
                            "abort_open() after record {p} discarded {:?} while the job was running: those records are lost",
                            self.model.open
                        ),
                    );
                }
            }
        }
        self.model.apply(call);
        Ok(())
    }

    fn end(&self) -> Result<(), CellFailure> {
        let stop = self.schedule.stop();
        let p = self.position;
        if p < stop {
            let what = match self.schedule.crash_after {
                Some(k) => format!("the {k} records before the crash"),
                None => format!("all {} records", self.records.len()),
            };
            return fail(
                Anomaly::MissingWrites,
                format!(
                    "the first sink received {p} records, not {what}: {:?} never written",
                    &self.records[p..stop]
                ),
            );
        }
        self.barrier_owed()?;
        self.none_late()?;
        let Some(k) = self.schedule.crash_after else {
            if !self.model.open.is_empty() {
                return fail(
                    Anomaly::NotCommittedAtEnd,
                    format!(
                        "at the clean finish the open transaction {:?} was never pre-committed and committed",
                        self.model.open
                    ),
                );
            }
            if let Some(id) = self.model.pending.first() {
                return fail(
                    Anomaly::NotCommittedAtEnd,
                    format!(
                        "at the clean finish checkpoint {id} ({:?}) was never committed",
                        self.model.prepared(*id).unwrap_or_default()
                    ),
                );
            }
            return multiset_anomaly(self.records, &self.model.committed).map_or(Ok(()), Err);
        };
        if !self.model.open.is_empty() {
            return fail(
                Anomaly::NotAborted,
                format!(
                    "at the crash after record {k} the open transaction {:?} was not aborted",
                    self.model.open
                ),
            );
        }
        if let Some(id) = self.model.pending.first() {
            return fail(
                Anomaly::NotAborted,
                format!(
                    "at the crash after record {k} checkpoint {id} ({:?}) was prepared but never notified, and was not aborted",
                    self.model.prepared(*id).unwrap_or_default()
                ),
            );
        }
        let offset = self.schedule.restart_offset();
        let want = &self.records[..offset];
        if self.model.committed != want {
            let diff = multiset_diff(want, &self.model.committed);
            let anomaly = if diff.missing.is_empty() && !diff.extra.is_empty() {
                Anomaly::VisibleBeforeNotification
            } else {
                Anomaly::WrongVisibleAtCrash
            };
            return fail(
                anomaly,
                format!(
                    "at the crash after record {k} the first sink showed {:?}; the {} notified checkpoint(s) cover records[..{offset}] = {want:?}",
                    self.model.committed,
                    self.schedule.notified_before_crash()
                ),
            );
        }
        Ok(())
    }
}

/// Walks the first sink's calls; returns its model at the end.
fn walk_first_sink(
    records: &[u32],
    schedule: Schedule,
    calls: &[SpyCall],
) -> Result<ModelSink, CellFailure> {
    let mut sink = FirstSink {
        records,
        schedule,
        model: ModelSink::default(),
        position: 0,
        barriers: 0,
        last_barrier_at: None,
        taken: BTreeMap::new(),
        final_taken: false,
    };
    for (n, call) in calls.iter().enumerate() {
        sink.call(*call).map_err(|f| CellFailure {
            step: format!("first sink, call {} ({call:?}): {}", n + 1, f.step),
            ..f
        })?;
    }
    sink.end().map_err(|f| CellFailure {
        step: format!("first sink, after its last call: {}", f.step),
        ..f
    })?;
    Ok(sink.model)
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
