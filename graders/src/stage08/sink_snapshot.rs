//! The sink's given `snapshot` and `restore` (08-R27): after every well-formed sequence of
//! up to [`SNAPSHOT_AFTER_UP_TO`] operations, `restore(&snapshot()?)` must be the same
//! external system. The restored sink is asked to finish what the original held (one more
//! write, a pre-commit under a new id, then a commit of every id in order), and what it
//! then shows must be what the original would show: the open transaction, the prepared
//! ones and the visible output all survive the round trip.

use super::anomaly::Anomaly;
use super::plan::SinkOp;
use super::sequences::{model_after, sequences_up_to};
use super::sink_model::describe_ops;
use crate::harness::case::Failure;

/// The longest sequence after which the sink goes through `snapshot` and `restore`.
pub const SNAPSHOT_AFTER_UP_TO: usize = 3;

/// The sequences of the round-trip case starting with `first`, prefixes first.
pub fn snapshot_sequences(first: SinkOp) -> Vec<Vec<SinkOp>> {
    sequences_up_to(&[first], SNAPSHOT_AFTER_UP_TO)
}

/// What the restored sink is asked after `ops`: a write, a pre-commit under an id `ops`
/// never named, then a commit of every id up to it in order. Well-formed like the
/// sequences (no id pre-committed twice), so a sink that forgets finished transactions
/// passes.
pub fn finishing(ops: &[SinkOp]) -> Vec<SinkOp> {
    let last = ops
        .iter()
        .filter_map(|op| match op {
            SinkOp::PreCommit(id) | SinkOp::Commit(id) | SinkOp::Abort(id) => Some(*id),
            SinkOp::Write | SinkOp::AbortOpen => None,
        })
        .max()
        .unwrap_or(0);
    let fresh = last + 1;
    [SinkOp::Write, SinkOp::PreCommit(fresh)]
        .into_iter()
        .chain((1..=fresh).map(SinkOp::Commit))
        .collect()
}

/// Judges the round trips after `sequences`, shortest sequence first: `after[i]` is what
/// the restored sink showed after [`finishing`] the i-th sequence, or what failed
/// (snapshot, restore, or a panic).
pub(super) fn judge_sink_snapshot(
    sequences: &[Vec<SinkOp>],
    after: &[Result<Vec<u32>, String>],
) -> Result<(), Failure> {
    if after.len() != sequences.len() {
        return Err(Failure::new(
            format!("{} round trips", sequences.len()),
            format!("{} round trips", after.len()),
        )
        .requirement("08-R27"));
    }
    // The shortest failing sequence is the one reported: sequences come depth first.
    let mut shortest_first: Vec<_> = sequences.iter().zip(after).collect();
    shortest_first.sort_by_key(|(ops, _)| ops.len());
    for (ops, got) in shortest_first {
        let then = finishing(ops);
        let whole: Vec<SinkOp> = ops.iter().chain(&then).copied().collect();
        let want = model_after(&whole).committed;
        let (actual, step) = match got {
            Ok(shown) if *shown == want => continue,
            Ok(shown) => (
                format!("{}: committed() = {shown:?}", Anomaly::SinkContract.name()),
                "the restored sink lost part of what the original held (compare: the prepared transactions, the open one, the visible output)".to_owned(),
            ),
            Err(why) => (
                format!("{}: {why}", Anomaly::SinkContract.name()),
                "the round trip failed: the sink must stay serialisable with serde_json, whatever its fields (a map keyed by a struct or a tuple fails with \"key must be a string\")".to_owned(),
            ),
        };
        return Err(Failure::new(format!("committed() = {want:?}"), actual)
            .step(format!(
                "after {} (writes write 1, 2, 3, ... in order), restore(&sink.snapshot()?), then {} on the restored sink: {step}",
                describe_ops(ops, 0..ops.len()),
                describe_ops(&whole, ops.len()..whole.len()),
            ))
            .requirement("08-R27"));
    }
    Ok(())
}
