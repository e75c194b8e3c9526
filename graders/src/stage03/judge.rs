//! Judges stage-03 observations against Flink's formulas, the `p = 1` oracle and the
//! subtask model; every failure names the requirement of the brief it found broken.

use super::case::Case;
use super::contract::model::{judge_contract, judge_empty_snapshots, judge_twin_snapshots};
use super::driver::{CrashCall, Stumble};
use super::edges::judge_edge;
use super::errors::judge_error;
use super::formulas::{
    judge_key_groups, judge_owner_at, judge_owners, judge_parents, judge_range_at, judge_ranges,
};
use super::placement::{judge_counts, judge_partition};
use super::{Observation, oracle};
use crate::harness::Failure;

/// `Ok` when `observation` is what `case` demands.
pub fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
    match (case, observation) {
        (
            Case::KeyGroup {
                keys,
                max_parallelism,
            },
            Observation::KeyGroup { groups },
        ) => judge_key_groups(keys, *max_parallelism, groups),
        (
            Case::Ranges {
                parallelism,
                max_parallelism,
            },
            Observation::Ranges { ranges },
        ) => judge_ranges(*parallelism, *max_parallelism, ranges),
        (
            Case::OperatorIndex {
                parallelism,
                max_parallelism,
            },
            Observation::OperatorIndex { owners },
        ) => judge_owners(*parallelism, *max_parallelism, owners),
        (
            Case::RangeAt {
                index,
                parallelism,
                max_parallelism,
            },
            Observation::RangeAt { range },
        ) => judge_range_at(*index, *parallelism, *max_parallelism, range),
        (
            Case::OwnerAt {
                key_group,
                parallelism,
                max_parallelism,
            },
            Observation::OwnerAt { owner },
        ) => judge_owner_at(*key_group, *parallelism, *max_parallelism, owner),
        (
            Case::Partition {
                keys,
                parallelism,
                max_parallelism,
            },
            Observation::Partition { streams, own },
        ) => judge_partition(keys, *parallelism, *max_parallelism, streams, own),
        (
            Case::ParallelCount {
                keys,
                parallelism,
                max_parallelism,
            },
            Observation::Counts { counts },
        ) => judge_counts(
            "parallel_count",
            keys,
            *parallelism,
            *max_parallelism,
            counts,
            "03-R10",
        ),
        (
            Case::Rescale {
                keys,
                to,
                max_parallelism,
                ..
            },
            Observation::Counts { counts },
        ) => judge_counts("rescale", keys, *to, *max_parallelism, counts, "03-R11"),
        (
            Case::RescaleEdge {
                shape,
                state,
                to,
                max_parallelism,
            },
            Observation::Rescaled { answer },
        ) => judge_edge(*shape, state, *to, *max_parallelism, answer),
        (
            Case::Parents {
                from,
                to,
                max_parallelism,
            },
            Observation::Parents { parents },
        ) => judge_parents(0, *from, *to, *max_parallelism, parents),
        (
            Case::ParentsAt {
                index,
                from,
                to,
                max_parallelism,
            },
            Observation::Parents { parents },
        ) => judge_parents(*index, *from, *to, *max_parallelism, parents),
        (
            Case::Crash {
                keys,
                from,
                to,
                max_parallelism,
                crash_after,
            },
            Observation::Crash {
                routed,
                restored,
                finished,
            },
        ) => judge_crash(
            keys,
            (*from, *to, *max_parallelism),
            *crash_after,
            routed,
            (restored, finished),
        ),
        (
            Case::Contract {
                max_parallelism,
                start,
                ops,
            },
            Observation::Contract { steps },
        ) => judge_contract(*max_parallelism, *start, ops, steps),
        (
            Case::EmptySnapshots {
                max_parallelism,
                subtasks,
            },
            Observation::Snapshots { snapshots },
        ) => judge_empty_snapshots(*max_parallelism, subtasks, snapshots),
        (Case::TwinSnapshots { .. }, Observation::Snapshots { snapshots }) => {
            judge_twin_snapshots(snapshots)
        }
        (Case::DenseSnapshot, Observation::Dense(seen)) => super::dense::judge(seen),
        (Case::Errors { call }, Observation::Errors { answer }) => judge_error(*call, answer),
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

type Counted = Result<Vec<super::SubtaskCounts>, Stumble>;

/// The crash: the learner's routing first (03-R1), then the restored state (03-R7; a
/// restore refused at another parallelism, 03-R6; a routed key refused, 03-R5), then the
/// counts at the end (03-R4).
fn judge_crash(
    keys: &[String],
    (from, to, maxp): (u32, u32, u32),
    crash_after: usize,
    routed: &[Result<Vec<Vec<String>>, String>; 2],
    (restored, finished): (&Counted, &Counted),
) -> Result<(), Failure> {
    let (head, tail) = keys.split_at(crash_after);
    for (part, p, got) in [(head, from, &routed[0]), (tail, to, &routed[1])] {
        let want: Vec<Vec<String>> = oracle::partition(&super::oracle::numbered(part), p, maxp)
            .into_iter()
            .map(|s| s.into_iter().map(|(k, _)| k).collect())
            .collect();
        if got.as_ref() != Ok(&want) {
            return Err(Failure::new(format!("{want:?}"), format!("{got:?}"))
                .step(format!(
                    "partition of {part:?} at parallelism {p}, which this check routes with, is not the key groups' routing (see the partition check)"
                ))
                .requirement("03-R1"));
        }
    }
    let id = match restored.as_ref().map_err(|s| s.call) {
        Err(CrashCall::Update) => "03-R5",
        Err(CrashCall::Restore) if from != to => "03-R6",
        Err(CrashCall::Snapshot) => "03-R6",
        _ => "03-R7",
    };
    let restored = restored.clone().map_err(|s| s.message);
    judge_counts("the restored subtasks", head, to, maxp, &restored, id).map_err(|f| {
        let step = f.first_wrong_step.clone().unwrap_or_default();
        f.step(format!(
            "right after the restore, before any new record: {step}"
        ))
    })?;
    let id = match finished.as_ref().map_err(|s| s.call) {
        Err(CrashCall::Update) => "03-R5",
        _ => "03-R4",
    };
    let finished = finished.clone().map_err(|s| s.message);
    judge_counts("the subtasks at the end", keys, to, maxp, &finished, id)
}
