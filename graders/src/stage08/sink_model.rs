//! The `sink-model` check: the sink alone against the model, after every operation
//! sequence of a case (every well-formed one that starts with one given operation, or
//! the prefixes of one long run).

use super::anomaly::Anomaly;
use super::driver::SinkPanic;
use super::oracle::{ModelSink, ModelTxn};
use super::plan::SinkOp;
use super::sequences::model_after;
use super::sink_rules::{broken_by, broken_by_panic};
use crate::harness::case::Failure;
use crate::harness::diff::multiset_diff;

/// Judges what the sink showed after each sequence of `sequences` (`committed`, in the
/// same order); the failure is that of the shortest failing sequence.
pub(super) fn judge_sink_model(
    sequences: &[Vec<SinkOp>],
    committed: &[Result<Vec<u32>, SinkPanic>],
) -> Result<(), Failure> {
    // The failure of the shortest failing sequence (the first of that length).
    let mut worst: Option<(usize, Failure)> = None;
    for (i, ops) in sequences.iter().enumerate() {
        let (len, failure) = match committed.get(i) {
            Some(Err(panic)) => panicked(ops, panic),
            Some(Ok(got)) => {
                let model = model_after(ops);
                if *got == model.committed {
                    continue;
                }
                let culprit = culprit_abort(sequences, committed, ops);
                let blame = culprit.map_or_else(String::new, |(at, op)| {
                    format!(
                        "; without the {} (call {}), the same calls give {:?}: {}",
                        describe_ops(ops, at..=at),
                        at + 1,
                        model_after(&without(ops, at)).committed,
                        match op {
                            SinkOp::AbortOpen =>
                                "abort_open() discards the open transaction \
                                                  only, never a prepared one",
                            SinkOp::Abort(id) if !model_after(&ops[..at]).pending.contains(&id) => {
                                "an abort of an id the sink does not hold is ignored: the open \
                                 transaction is abort_open()'s alone"
                            }
                            _ => "abort(c) discards prepared c only",
                        }
                    )
                });
                let failure = Failure::new(
                    format!("committed() = {:?}", model.committed),
                    format!("{}: committed() = {got:?}", Anomaly::SinkContract.name()),
                )
                .step(format!(
                    "after {} (writes write 1, 2, 3, ... in order): {}{blame}",
                    describe_ops(ops, 0..ops.len()),
                    sink_law(&model, got)
                ))
                .multiset(&model.committed, got)
                .requirement(match culprit {
                    Some((_, SinkOp::AbortOpen)) => "08-R5",
                    Some(_) => "08-R4",
                    None => broken_by(ops, &model.committed, got),
                });
                (ops.len(), failure)
            }
            None => (
                ops.len(),
                Failure::new(
                    format!("committed() = {:?}", model_after(ops).committed),
                    "no observation",
                )
                .step(format!("after {}", describe_ops(ops, 0..ops.len())))
                .requirement("08-R6"),
            ),
        };
        if worst.as_ref().is_none_or(|(shortest, _)| *shortest > len) {
            worst = Some((len, failure));
        }
    }
    worst.map_or(Ok(()), |(_, f)| Err(f))
}

/// `ops` without its call `at`.
fn without(ops: &[SinkOp], at: usize) -> Vec<SinkOp> {
    let mut rest = ops.to_vec();
    rest.remove(at);
    rest
}

/// An abort of the failing `ops` that made the difference, if one did: the same calls
/// without it were judged too (a shorter sequence of the same case) and the sink got
/// them right. The loss shows at a later call, but the abort caused it.
fn culprit_abort(
    sequences: &[Vec<SinkOp>],
    committed: &[Result<Vec<u32>, SinkPanic>],
    ops: &[SinkOp],
) -> Option<(usize, SinkOp)> {
    ops.iter()
        .enumerate()
        .filter(|(_, op)| matches!(op, SinkOp::Abort(_) | SinkOp::AbortOpen))
        .find_map(|(at, &op)| {
            let rest = without(ops, at);
            let index = sequences.iter().position(|s| *s == rest)?;
            match committed.get(index) {
                Some(Ok(got)) if *got == model_after(&rest).committed => Some((at, op)),
                _ => None,
            }
        })
}

/// A sequence that panicked, as `(operations it took, failure)`: the operations up to the
/// one that panicked, and what the model shows after them.
fn panicked(ops: &[SinkOp], panic: &SinkPanic) -> (usize, Failure) {
    let at = panic.after.min(ops.len());
    let (what, len) = if at < ops.len() {
        (describe_ops(ops, at..=at), at + 1)
    } else {
        ("committed()".to_owned(), ops.len())
    };
    let before = if at == 0 {
        "on a fresh sink".to_owned()
    } else {
        format!("after {}", describe_ops(ops, 0..at))
    };
    let failure = Failure::new(
        format!("committed() = {:?}", model_after(&ops[..len]).committed),
        format!("{}: {}", Anomaly::Panicked.name(), panic.message),
    )
    .step(format!(
        "{what} panicked {before} (writes write 1, 2, 3, ... in order): a sink answers every call of the trait without panicking (a commit or an abort of an id it does not hold is ignored)"
    ))
    .requirement(broken_by_panic(ops.get(at).copied()));
    (len, failure)
}

/// Which law of the sink a wrong `committed()` breaks.
fn sink_law(model: &ModelSink, got: &[u32]) -> String {
    let diff = multiset_diff(&model.committed, got);
    let hidden: Vec<u32> = model
        .transactions
        .values()
        .filter_map(|t| match t {
            ModelTxn::Prepared(r) => Some(r.clone()),
            _ => None,
        })
        .flatten()
        .chain(model.open.iter().copied())
        .collect();
    if let Some(r) = diff.extra.iter().find(|r| model.committed.contains(r)) {
        format!(
            "record {r} is visible twice: a commit must publish once (a repeated commit is ignored)"
        )
    } else if let Some(r) = diff.extra.iter().find(|r| hidden.contains(r)) {
        format!(
            "record {r} is visible, but it is only open or prepared: nothing is visible before commit"
        )
    } else if let Some(r) = diff.extra.first() {
        format!("record {r} is visible, but it was aborted")
    } else if let Some(r) = diff.missing.first() {
        format!("record {r} was committed but is not visible")
    } else {
        "the visible records are in the wrong order: commit appends in commit order".to_owned()
    }
}

/// The operations of `ops` at `range`, as calls (writes numbered from the sequence's start).
pub(super) fn describe_ops(ops: &[SinkOp], range: impl std::ops::RangeBounds<usize>) -> String {
    let mut written = 0;
    let calls: Vec<String> = ops
        .iter()
        .enumerate()
        .map(|(n, op)| {
            let call = match op {
                SinkOp::Write => {
                    written += 1;
                    format!("write({written})")
                }
                SinkOp::PreCommit(id) => format!("pre_commit({id})"),
                SinkOp::Commit(id) => format!("commit({id})"),
                SinkOp::Abort(id) => format!("abort({id})"),
                SinkOp::AbortOpen => "abort_open()".to_owned(),
            };
            (n, call)
        })
        .filter(|(n, _)| range.contains(n))
        .map(|(_, call)| call)
        .collect();
    // A sequence of a thousand transactions reads better as its two ends.
    if calls.len() > LONGEST_SHOWN {
        let (head, rest) = calls.split_at(ENDS_SHOWN);
        let tail = &rest[rest.len() - ENDS_SHOWN..];
        return format!(
            "{}, ... {} calls more ..., {}",
            head.join(", "),
            rest.len() - ENDS_SHOWN,
            tail.join(", ")
        );
    }
    calls.join(", ")
}

/// The longest call sequence a report lists whole (every enumerated one, and the
/// 70-checkpoint runs, are shorter).
const LONGEST_SHOWN: usize = 300;
/// How many calls of each end of a longer sequence a report lists.
const ENDS_SHOWN: usize = 12;
