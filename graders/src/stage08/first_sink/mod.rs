//! The first sink of a stage-08 run (the attempt before the crash, or the only one),
//! walked call by call against the schedule: barriers where they are due, each checkpoint
//! committed exactly when its notification is due, and at the crash the notified
//! checkpoints visible and everything else aborted.

mod end;
mod state;

use std::collections::BTreeMap;

use self::state::{FirstSink, Taken};
use super::anomaly::Anomaly;
use super::call::SpyCall;
use super::cell::{CellFailure, fail};
use super::oracle::{ModelSink, Schedule};

impl FirstSink<'_> {
    /// Checks `call` against the schedule, then applies it to the model.
    fn call(&mut self, call: SpyCall) -> Result<(), CellFailure> {
        self.calls += 1;
        let p = self.position;
        let commit_lag = self.schedule.commit_lag;
        // A pre-commit or an effective commit is the attempt's work, which ends at the
        // crash: an abort_open() before it was the running job's, not recovery's.
        let attempt_work = match call {
            SpyCall::PreCommit(_) => true,
            SpyCall::Commit(id) => self.model.pending.contains(&id),
            _ => false,
        };
        if attempt_work {
            self.open_aborted = false;
        }
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
                    self.counts_from_one(id)?;
                    self.barriers += 1;
                    self.last_barrier_at = Some(p);
                    let taken = Taken::Barrier {
                        index: self.barriers,
                        offset: p,
                    };
                    self.taken.insert(id, taken);
                } else if self.finishing() && !self.final_taken {
                    // A clean finish with no barrier before it is left to the other
                    // checks: its lone id 0 is what both counting from 0 and reusing
                    // "the last barrier's id" give, and those two mistakes show apart
                    // (as 08-R8 and as 08-R18) at the first run with a barrier.
                    if !self.taken.is_empty() {
                        self.counts_from_one(id)?;
                    }
                    self.final_taken = true;
                    self.taken.insert(id, Taken::Final);
                } else if !self.running() {
                    // A crash after the last record finished as if there were none.
                    let at_the_end = self.schedule.crash_after == Some(self.records.len());
                    return fail(
                        if at_the_end {
                            Anomaly::CrashTreatedAsFinish
                        } else {
                            Anomaly::WrotePastCrash
                        },
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
                if !self.model.transactions.contains_key(&id) {
                    // Blamed here, not at the later call that notices a checkpoint
                    // still pending: the commit named the wrong id.
                    return fail(
                        Anomaly::CommittedUnknownId,
                        format!(
                            "committed checkpoint {id}, which was never pre-committed on this sink (pre-committed so far: {:?}): a commit names a checkpoint the sink has prepared",
                            self.model.transactions.keys().collect::<Vec<_>>()
                        ),
                    );
                }
                if let Some(rank) = self.model.pending.iter().position(|p| *p == id) {
                    if rank > 0 {
                        return fail(
                            if self.final_taken {
                                Anomaly::FinishedOutOfOrder
                            } else {
                                Anomaly::NotifiedOutOfOrder
                            },
                            format!(
                                "committed checkpoint {id} while the older checkpoint {} was still pending: notifications arrive oldest first",
                                self.model.pending[0]
                            ),
                        );
                    }
                    if let Some(Taken::Barrier { index, offset }) = self.taken.get(&id).copied()
                        && index.saturating_add(commit_lag) > self.barriers
                        && !self.finishing()
                    {
                        // The barrier after record p is due and not yet taken: its
                        // notifications come after its pre-commit, crash or no crash.
                        if self.schedule.is_barrier(p)
                            && self.last_barrier_at != Some(p)
                            && index.saturating_add(commit_lag) == self.barriers + 1
                        {
                            return fail(
                                Anomaly::CommittedBeforePreCommit,
                                format!(
                                    "committed checkpoint {id} (barrier {index}, after record {offset}) after record {p}, before the pre-commit of barrier {}, the barrier that brings its notification: a barrier first pre-commits and queues its checkpoint, and only then are more than commit_lag = {commit_lag} pending",
                                    self.barriers + 1
                                ),
                            );
                        }
                        if !self.running() {
                            if self.last_barrier_at == Some(p) && self.committed_at_crash.is_none()
                            {
                                self.committed_at_crash = Some((id, index, offset, self.calls));
                                self.model.apply(call);
                                return Ok(());
                            }
                            self.early_at_last_barrier()?;
                            return fail(
                                Anomaly::NotAborted,
                                format!(
                                    "committed checkpoint {id} (barrier {index}, after record {offset}) at the crash after record {p}, though it was never notified (with commit_lag = {commit_lag} its notification would arrive at barrier {}): at the crash it must be aborted, not committed",
                                    index.saturating_add(commit_lag)
                                ),
                            );
                        }
                        let when = format!("at barrier {}", self.barriers);
                        return fail(
                            Anomaly::VisibleBeforeNotification,
                            format!(
                                "committed checkpoint {id} (barrier {index}, after record {offset}) {when}, but with commit_lag = {commit_lag} its notification arrives at barrier {}",
                                index.saturating_add(commit_lag)
                            ),
                        );
                    }
                }
            }
            SpyCall::Abort(id) => {
                self.early_at_last_barrier()?;
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
                self.early_at_last_barrier()?;
                self.open_aborted |= !self.running();
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
}

/// Walks the first sink's calls; returns its model at the end.
pub(super) fn walk_first_sink(
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
        committed_at_crash: None,
        calls: 0,
        open_aborted: false,
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
