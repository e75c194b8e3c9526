//! The `sink-model` check: the sink alone against the model, after every well-formed
//! sequence of operations that starts with one given operation.

use super::anomaly::Anomaly;
use super::call::SpyCall;
use super::oracle::{ModelSink, ModelTxn};
use super::plan::{SinkOp, sequences_from};
use crate::harness::case::Failure;
use crate::harness::diff::multiset_diff;

pub(super) fn judge_sink_model(first: SinkOp, committed: &[Vec<u32>]) -> Result<(), Failure> {
    let sequences = sequences_from(&[first]);
    let mut worst: Option<(usize, Failure)> = None;
    for (i, ops) in sequences.iter().enumerate() {
        let mut model = ModelSink::default();
        let mut written = 0;
        for &op in ops {
            let call = match op {
                SinkOp::Write => {
                    written += 1;
                    SpyCall::Write(written)
                }
                SinkOp::PreCommit(id) => SpyCall::PreCommit(id),
                SinkOp::Commit(id) => SpyCall::Commit(id),
                SinkOp::Abort(id) => SpyCall::Abort(id),
                SinkOp::AbortOpen => SpyCall::AbortOpen,
            };
            model.apply(call);
        }
        let got = committed.get(i);
        if got == Some(&model.committed) || worst.as_ref().is_some_and(|(len, _)| *len <= ops.len())
        {
            continue;
        }
        let actual = got.map_or_else(
            || "no observation".to_owned(),
            |g| format!("committed() = {g:?}"),
        );
        let why = got.map_or(String::new(), |g| sink_law(&model, g));
        let failure = Failure::new(
            format!("committed() = {:?}", model.committed),
            format!("{}: {actual}", Anomaly::SinkContract.name()),
        )
        .step(format!(
            "after {} (writes write 1, 2, 3, ... in order): {why}",
            describe_ops(ops)
        ));
        let failure = match got {
            Some(g) => failure.multiset(&model.committed, g),
            None => failure,
        };
        worst = Some((ops.len(), failure));
    }
    worst.map_or(Ok(()), |(_, f)| Err(f))
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

fn describe_ops(ops: &[SinkOp]) -> String {
    let mut written = 0;
    let calls: Vec<String> = ops
        .iter()
        .map(|op| match op {
            SinkOp::Write => {
                written += 1;
                format!("write({written})")
            }
            SinkOp::PreCommit(id) => format!("pre_commit({id})"),
            SinkOp::Commit(id) => format!("commit({id})"),
            SinkOp::Abort(id) => format!("abort({id})"),
            SinkOp::AbortOpen => "abort_open()".to_owned(),
        })
        .collect();
    calls.join(", ")
}
