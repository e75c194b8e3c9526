//! The first sink after its last call: every record before the stop written and, at the
//! crash, exactly the notified checkpoints visible and everything else aborted.

use super::state::FirstSink;
use crate::harness::diff::multiset_diff;
use crate::stage08::anomaly::Anomaly;
use crate::stage08::cell::{CellFailure, fail, multiset_anomaly};

impl FirstSink<'_> {
    /// After the sink's last call: every record before the stop written, and at the
    /// crash the notified checkpoints visible and everything else aborted.
    pub(super) fn end(&self) -> Result<(), CellFailure> {
        self.flushed_at_crash()?;
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
        // At a crash, the barrier after record k belongs before it.
        self.barrier_owed()
            .map_err(|f| match self.schedule.crash_after {
                Some(_) => CellFailure {
                    anomaly: Anomaly::BarrierSkippedAtCrash,
                    ..f
                },
                None => f,
            })?;
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
                let held = match self.model.prepared(*id).unwrap_or_default() {
                    [] => "holding no record, but pre-committed all the same".to_owned(),
                    records => format!("holding {records:?}"),
                };
                return fail(
                    Anomaly::NotCommittedAtEnd,
                    format!("at the clean finish checkpoint {id} ({held}) was never committed"),
                );
            }
            return multiset_anomaly(self.records, &self.model.committed).map_or(Ok(()), Err);
        };
        if !self.model.open.is_empty() {
            return fail(
                Anomaly::OpenNotAborted,
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
        if !self.open_aborted {
            return fail(
                Anomaly::OpenNotAborted,
                format!(
                    "at the crash after record {k} abort_open() was never called on the dead sink: its open transaction holds no record, but a real system holds a connection (and its locks) for it until it is aborted"
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
