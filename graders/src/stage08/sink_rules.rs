//! Which requirement of the brief a wrong `committed()` of the sink alone breaks: told by
//! the operation that made it wrong (the last of the shortest failing sequence, whose
//! prefix passed) and by what the model says became of each record.

use std::collections::BTreeMap;

use super::plan::SinkOp;
use crate::harness::diff::multiset_diff;

/// Where a record written into the sink stands, according to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// In the open transaction.
    Open,
    /// In prepared transaction `id`.
    Prepared(u64),
    /// Visible.
    Committed,
    /// Discarded by `abort(id)`.
    Aborted,
    /// Discarded by `abort_open()`.
    AbortedOpen,
}

/// Each record's fate after `ops` (records are 1, 2, 3, ... in write order).
fn fates(ops: &[SinkOp]) -> BTreeMap<u32, Fate> {
    let mut fate = BTreeMap::new();
    let mut written = 0;
    for &op in ops {
        match op {
            SinkOp::Write => {
                written += 1;
                fate.insert(written, Fate::Open);
            }
            SinkOp::PreCommit(id) => {
                for f in fate.values_mut().filter(|f| **f == Fate::Open) {
                    *f = Fate::Prepared(id);
                }
            }
            SinkOp::Commit(id) => {
                for f in fate.values_mut().filter(|f| **f == Fate::Prepared(id)) {
                    *f = Fate::Committed;
                }
            }
            SinkOp::Abort(id) => {
                for f in fate.values_mut().filter(|f| **f == Fate::Prepared(id)) {
                    *f = Fate::Aborted;
                }
            }
            SinkOp::AbortOpen => {
                for f in fate.values_mut().filter(|f| **f == Fate::Open) {
                    *f = Fate::AbortedOpen;
                }
            }
        }
    }
    fate
}

/// Where transaction `id` stands after `ops`, by the contract (`None`: never prepared).
fn id_state(ops: &[SinkOp], id: u64) -> Option<Fate> {
    let mut state = None;
    for &op in ops {
        state = match (op, state) {
            (SinkOp::PreCommit(i), None) if i == id => Some(Fate::Prepared(id)),
            (SinkOp::Commit(i), Some(Fate::Prepared(_))) if i == id => Some(Fate::Committed),
            (SinkOp::Abort(i), Some(Fate::Prepared(_))) if i == id => Some(Fate::Aborted),
            (_, state) => state,
        };
    }
    state
}

/// The requirement the last operation of `ops` breaks when `committed()` is `got`
/// where the model says `want`.
pub(super) fn broken_by(ops: &[SinkOp], want: &[u32], got: &[u32]) -> &'static str {
    let Some((&last, before)) = ops.split_last() else {
        return "08-R6";
    };
    // A commit of an id the contract says it ignores: which call made it a no-op. It
    // comes first: the sequence without it passed (shortest first), so whatever it
    // changed, the order of what shows too, it was to change nothing.
    if let SinkOp::Commit(id) = last {
        match id_state(before, id) {
            None => return "08-R3",
            Some(Fate::Aborted) => return "08-R4",
            Some(Fate::Committed) => return "08-R24",
            _ => {}
        }
    }
    let diff = multiset_diff(want, got);
    if diff.missing.is_empty() && diff.extra.is_empty() {
        return "08-R6";
    }
    let fate = fates(ops);
    if let Some(r) = diff.extra.first() {
        return match fate.get(r) {
            Some(Fate::Committed) => "08-R24",
            Some(Fate::AbortedOpen) => "08-R5",
            Some(Fate::Aborted) => "08-R4",
            Some(Fate::Open) if last == SinkOp::Write => "08-R1",
            _ => "08-R2",
        };
    }
    match last {
        SinkOp::Write => "08-R1",
        SinkOp::PreCommit(_) => "08-R2",
        SinkOp::Commit(_) => "08-R3",
        SinkOp::Abort(_) => "08-R4",
        SinkOp::AbortOpen => "08-R5",
    }
}

/// The requirement an operation that panicked breaks (`None`: the closing
/// `committed()`).
pub(super) fn broken_by_panic(op: Option<SinkOp>) -> &'static str {
    match op {
        Some(SinkOp::Write) => "08-R1",
        Some(SinkOp::PreCommit(_)) => "08-R2",
        Some(SinkOp::Commit(_)) => "08-R3",
        Some(SinkOp::Abort(_)) => "08-R4",
        Some(SinkOp::AbortOpen) => "08-R5",
        None => "08-R6",
    }
}
