//! The fresh sink after a crash, held only to what the replay must achieve: exactly
//! `records[offset..]` written, under ids that count on from the dead job's, committed in
//! pre-commit order, all of it visible at the end, and no checkpoint of the replay left
//! pending past the lag (so a replay that commits its tail as one transaction, or keeps
//! taking checkpoints wherever it likes and commits them at the lag or sooner, passes).

use std::collections::{BTreeMap, BTreeSet};

use super::anomaly::Anomaly;
use super::call::SpyCall;
use super::cell::{CellFailure, fail};
use super::oracle::{ModelSink, ModelTxn};

/// Walks the fresh sink's calls after a crash, where `dead` holds every checkpoint id the
/// first sink was given and how it ended (the aborted ones too: ids keep counting across
/// the restart and are never reused) and `named_in_aborts` every id an `abort` on the
/// first sink named, prepared or not.
pub(super) fn walk_fresh_sink(
    records: &[u32],
    offset: usize,
    commit_lag: usize,
    dead: &BTreeMap<u64, ModelTxn>,
    named_in_aborts: &BTreeSet<u64>,
    calls: &[SpyCall],
) -> Result<(), CellFailure> {
    let used: BTreeSet<u64> = dead.keys().copied().collect();
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
    ids_count_on(&used, calls)?;
    let mut model = ModelSink::default();
    for (n, call) in calls.iter().enumerate() {
        let at = format!("fresh sink, call {} ({call:?})", n + 1);
        match *call {
            SpyCall::PreCommit(id) if used.contains(&id) => {
                return fail(
                    Anomaly::ReusedCheckpointId,
                    format!(
                        "{at}: pre-committed checkpoint id {id}, which the first sink was already given before the crash: ids keep counting across the restart and are never reused"
                    ),
                );
            }
            // The in-memory sink ignores an abort of an id it never prepared, but the
            // external system it stands for remembers the id as aborted all the same.
            SpyCall::PreCommit(id) if named_in_aborts.contains(&id) => {
                return fail(
                    Anomaly::ReusedCheckpointId,
                    format!(
                        "{at}: pre-committed checkpoint id {id}, which recovery had named in abort({id}) on the first sink though no transaction held it: the external system remembers an aborted id, so the replay cannot take it; recovery aborts only the prepared transactions the dead sink holds"
                    ),
                );
            }
            SpyCall::PreCommit(id) if model.transactions.contains_key(&id) => {
                return fail(
                    Anomaly::ReusedCheckpointId,
                    format!("{at}: pre-committed checkpoint id {id} a second time"),
                );
            }
            // A notification the dead job owed for a checkpoint recovery aborted: that
            // checkpoint's records are being replayed, so it is never to be committed.
            SpyCall::Commit(id) if dead.get(&id) == Some(&ModelTxn::Aborted) => {
                return fail(
                    Anomaly::NotifiedAborted,
                    format!(
                        "{at}: committed checkpoint {id}, which recovery aborted on the first sink: the notifications the dead job still owed died with it (its records are replayed), so no sink is ever asked to commit that checkpoint"
                    ),
                );
            }
            SpyCall::Commit(id) if !model.transactions.contains_key(&id) && !used.contains(&id) => {
                return fail(
                    Anomaly::CommittedUnknownId,
                    format!(
                        "{at}: committed checkpoint {id}, which no sink was ever given in a pre-commit: a commit names a checkpoint the sink has prepared"
                    ),
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
            // The replay's checkpoints follow the job's rule (08-R9): once more than
            // `commit_lag` are pending, the oldest is committed before the next record.
            SpyCall::Write(record) if model.pending.len() > commit_lag => {
                return fail(
                    Anomaly::NotificationLate,
                    format!(
                        "{at}: wrote record {record} while the replay's checkpoints {:?} were pending: with commit_lag = {commit_lag}, a replay that keeps taking checkpoints commits each at the lag or sooner (whenever more than {commit_lag} are pending, the oldest is committed), or it replays the tail as one transaction",
                        model.pending
                    ),
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
        // An empty prepared transaction holds no record but is still left open in the
        // sink (a real one keeps its locks or staged files): say which, not "written".
        let why = if left.is_empty() {
            format!(
                "the fresh sink ended with checkpoint(s) {:?} pre-committed but never committed; they hold no record, but every prepared transaction must end committed (or aborted)",
                model.pending
            )
        } else {
            format!("the fresh sink ended with {left:?} written but never committed")
        };
        return fail(Anomaly::ReplayNotCommitted, why);
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
    Ok(())
}

/// The replay's first checkpoint takes the id after the last one pre-committed before the
/// crash (1 when there was none), and each next one the id after it: ids keep counting
/// across the restart.
fn ids_count_on(used: &BTreeSet<u64>, calls: &[SpyCall]) -> Result<(), CellFailure> {
    let next = used.last().map_or(1, |last| last.saturating_add(1));
    let first = calls.iter().enumerate().find_map(|(n, c)| match c {
        SpyCall::PreCommit(id) => Some((n, *id)),
        _ => None,
    });
    match first {
        // A reused id is reported as such by the walk.
        // With none pre-committed before, an id 0 is the first sink's rule (ids from 1,
        // 08-R8) broken again, and said there; a 2 or more skipped an id.
        Some((n, id)) if id != next && !used.contains(&id) && (id > next || !used.is_empty()) => {
            fail(
                Anomaly::ReplayIdsNotCounting,
                format!(
                    "fresh sink, call {} (PreCommit({id})): the replay's first checkpoint takes the id after the last one pre-committed before the crash, {next}{}",
                    n + 1,
                    if used.is_empty() {
                        " (none was: ids count from 1)"
                    } else {
                        ""
                    }
                ),
            )
        }
        _ => ids_count_one_by_one(used, calls),
    }
}

/// After the replay's first checkpoint, each takes the id after the one before (a reused
/// id is left to the walk, which names it as such).
fn ids_count_one_by_one(used: &BTreeSet<u64>, calls: &[SpyCall]) -> Result<(), CellFailure> {
    let mut taken = BTreeSet::new();
    let mut last: Option<u64> = None;
    for (n, call) in calls.iter().enumerate() {
        let SpyCall::PreCommit(id) = *call else {
            continue;
        };
        if let Some(before) = last
            && Some(id) != before.checked_add(1)
            && !used.contains(&id)
            && !taken.contains(&id)
        {
            return fail(
                Anomaly::ReplayIdsNotCounting,
                format!(
                    "fresh sink, call {} (PreCommit({id})): after checkpoint {before}, the replay's next checkpoint takes the id after it, {}: ids count 1, 2, ... across the restart",
                    n + 1,
                    before.saturating_add(1)
                ),
            );
        }
        taken.insert(id);
        last = Some(id);
    }
    Ok(())
}
