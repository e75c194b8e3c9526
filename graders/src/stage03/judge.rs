//! Judges stage-03 observations against Flink's formulas and the `p = 1` oracle.

use std::collections::BTreeMap;

use super::case::Case;
use super::formulas::{judge_key_groups, judge_owners, judge_parents, judge_ranges, show_range};
use super::{Observation, SubtaskCounts, oracle};
use crate::harness::Failure;
use crate::harness::arguments::expect_error_naming;
use crate::harness::case::expect_sequence;

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
            Case::Partition {
                keys,
                parallelism,
                max_parallelism,
            },
            Observation::Partition { streams },
        ) => judge_partition(keys, *parallelism, *max_parallelism, streams),
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
        ),
        (
            Case::Rescale {
                keys,
                to,
                max_parallelism,
                ..
            },
            Observation::Counts { counts },
        ) => judge_counts("rescale", keys, *to, *max_parallelism, counts),
        (
            Case::Parents {
                from,
                to,
                max_parallelism,
            },
            Observation::Parents { parents },
        ) => judge_parents(*from, *to, *max_parallelism, parents),
        (
            Case::Crash {
                keys,
                to,
                max_parallelism,
                crash_after,
                ..
            },
            Observation::Crash { restored, finished },
        ) => {
            let head = &keys[..*crash_after];
            judge_counts(
                "the restored subtasks",
                head,
                *to,
                *max_parallelism,
                restored,
            )
            .map_err(|f| {
                let step = f.first_wrong_step.clone().unwrap_or_default();
                f.step(format!(
                    "right after the restore, before any new record: {step}"
                ))
            })?;
            judge_counts(
                "the subtasks at the end",
                keys,
                *to,
                *max_parallelism,
                finished,
            )
        }
        (Case::Errors { call }, Observation::Errors { result }) => {
            expect_error_naming(result, call.argument(), call.code())
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

fn judge_partition(
    keys: &[String],
    p: u32,
    maxp: u32,
    streams: &Result<Vec<Vec<(String, u32)>>, String>,
) -> Result<(), Failure> {
    let want = oracle::partition(&super::driver::numbered(keys), p, maxp);
    let streams = streams.as_ref().map_err(|e| {
        Failure::new(format!("{p} streams"), format!("Err({e})")).step("partition failed")
    })?;
    if streams.len() != p as usize {
        return Err(Failure::new(
            format!("{p} streams, one per subtask"),
            format!("{} streams", streams.len()),
        ));
    }
    for (i, stream) in (0u32..).zip(streams) {
        for record in stream {
            let owner = oracle::owner_of(record.0.as_bytes(), p, maxp);
            if owner != i {
                let group = oracle::key_group(record.0.as_bytes(), maxp);
                return Err(Failure::new(format!("{want:?}"), format!("{streams:?}")).step(
                    format!(
                        "record {record:?} (key group {group}) went to subtask {i}, but subtask {owner} owns key groups {}",
                        show_range(oracle::range(owner, p, maxp))
                    ),
                ));
            }
        }
    }
    for (i, (w, g)) in want.iter().zip(streams).enumerate() {
        expect_sequence(&format!("subtask {i}'s records"), w, g)?;
    }
    Ok(())
}

/// Judges per-subtask counts: each key on its owner at `p`, exactly the `p = 1` count.
fn judge_counts(
    what: &str,
    keys: &[String],
    p: u32,
    maxp: u32,
    counts: &Result<Vec<SubtaskCounts>, String>,
) -> Result<(), Failure> {
    let want = oracle::counts(keys, p, maxp);
    let got = counts.as_ref().map_err(|e| {
        Failure::new(format!("{want:?}"), format!("Err({e})")).step(format!("{what} failed"))
    })?;
    if got.len() != p as usize {
        return Err(Failure::new(
            format!("{p} subtasks' state"),
            format!("{} subtasks' state", got.len()),
        )
        .step(format!(
            "{what} returned the state of {} subtasks",
            got.len()
        )));
    }
    let mut total: BTreeMap<&String, Vec<u32>> = BTreeMap::new();
    for (i, map) in (0u32..).zip(got) {
        for key in map.keys() {
            total.entry(key).or_default().push(i);
        }
    }
    for (key, holders) in &total {
        let owner = oracle::owner_of(key.as_bytes(), p, maxp);
        let group = oracle::key_group(key.as_bytes(), maxp);
        if holders.len() > 1 {
            return Err(Failure::new(format!("{want:?}"), format!("{got:?}")).step(format!(
                "{what}: key {key:?} (key group {group}) has state on subtasks {holders:?}: twice"
            )));
        }
        if holders[0] != owner {
            return Err(Failure::new(format!("{want:?}"), format!("{got:?}")).step(format!(
                "{what}: key {key:?} (key group {group}) is on subtask {} of {p}, but subtask {owner} owns key groups {}",
                holders[0],
                show_range(oracle::range(owner, p, maxp))
            )));
        }
    }
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        if w != g {
            let key = w
                .keys()
                .chain(g.keys())
                .find(|k| w.get(*k) != g.get(*k))
                .cloned()
                .unwrap_or_default();
            return Err(Failure::new(format!("{want:?}"), format!("{got:?}")).step(format!(
                "{what}: subtask {i} of {p} holds count {:?} for key {key:?}, expected {:?} (the p = 1 count)",
                g.get(&key),
                w.get(&key)
            )));
        }
    }
    Ok(())
}
