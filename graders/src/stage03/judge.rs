//! Judges stage-03 observations against Flink's formulas and the `p = 1` oracle.

use std::collections::BTreeMap;

use super::plan::Case;
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

fn show_range((start, end): (u32, u32)) -> String {
    format!("{start}..={end}")
}

fn judge_key_groups(
    keys: &[String],
    maxp: u32,
    groups: &[(u32, Result<u32, String>)],
) -> Result<(), Failure> {
    for (key, (hash, group)) in keys.iter().zip(groups) {
        let want_hash = oracle::fnv1a(key.as_bytes());
        if *hash != want_hash {
            return Err(Failure::new(
                format!("stable_hash({key:?}) = {want_hash:#010x}"),
                format!("{hash:#010x}"),
            )
            .step("stable_hash is not the FNV-1a hash the skeleton gives: keep it as it was"));
        }
        let want = want_hash % maxp;
        if group.as_ref() != Ok(&want) {
            return Err(Failure::new(
                format!("key_group_for({key:?}, {maxp}) = {want}"),
                format!("{group:?}"),
            )
            .step(format!(
                "key {key:?}: stable_hash {want_hash:#010x} % {maxp} is {want}"
            )));
        }
    }
    if groups.len() != keys.len() {
        return Err(Failure::new(
            format!("{} key groups", keys.len()),
            format!("{}", groups.len()),
        ));
    }
    Ok(())
}

fn judge_ranges(p: u32, maxp: u32, ranges: &[Result<(u32, u32), String>]) -> Result<(), Failure> {
    let want: Vec<(u32, u32)> = (0..p).map(|i| oracle::range(i, p, maxp)).collect();
    let mut got = Vec::new();
    for (i, range) in (0u32..).zip(ranges) {
        match range {
            Ok(range) => got.push(*range),
            Err(e) => {
                return Err(Failure::new(
                    format!(
                        "key_group_range({i}, {p}, {maxp}) = {}",
                        show_range(want[i as usize])
                    ),
                    format!("Err({e:?})"),
                )
                .step(format!("subtask {i} of {p} has no range")));
            }
        }
    }
    let mut next = 0u32;
    for (i, &(start, end)) in (0u32..).zip(&got) {
        let tiling = if start > end {
            Some(format!("the range of subtask {i} is empty"))
        } else if start > next {
            Some(format!(
                "key groups {next}..={} belong to no subtask",
                start - 1
            ))
        } else if start < next {
            Some(format!(
                "key groups {start}..={} belong to subtask {} and to subtask {i}",
                next - 1,
                i.saturating_sub(1)
            ))
        } else if end >= maxp {
            Some(format!(
                "key groups end at {}, but {end} is in the range",
                maxp - 1
            ))
        } else {
            None
        };
        let expected = want[i as usize];
        if (start, end) != expected || tiling.is_some() {
            let why = tiling.unwrap_or_else(|| {
                format!(
                    "the ranges tile [0, {maxp}) but are not Flink's: ceil({i} * {maxp} / {p}) = {} and ceil({} * {maxp} / {p}) - 1 = {}",
                    expected.0,
                    i + 1,
                    expected.1
                )
            });
            return Err(Failure::new(
                format!("ranges {}", show_all(&want)),
                format!("ranges {}", show_all(&got)),
            )
            .step(format!(
                "subtask {i} of {p} owns {}, expected {}: {why}",
                show_range((start, end)),
                show_range(expected)
            )));
        }
        next = end.saturating_add(1);
    }
    if got.len() != want.len() {
        return Err(Failure::new(
            format!("{p} ranges"),
            format!("{}", got.len()),
        ));
    }
    Ok(())
}

fn show_all(ranges: &[(u32, u32)]) -> String {
    let shown: Vec<String> = ranges.iter().map(|r| show_range(*r)).collect();
    format!("[{}]", shown.join(", "))
}

fn judge_owners(p: u32, maxp: u32, owners: &[Result<u32, String>]) -> Result<(), Failure> {
    for (g, got) in (0u32..).zip(owners) {
        let want = oracle::owner(g, p, maxp);
        if got.as_ref() != Ok(&want) {
            return Err(Failure::new(
                format!("operator_index_for({g}, {p}, {maxp}) = {want}"),
                format!("{got:?}"),
            )
            .step(format!(
                "key group {g} belongs to the range {} of subtask {want} ({g} * {p} / {maxp} = {want})",
                show_range(oracle::range(want, p, maxp))
            )));
        }
    }
    Ok(())
}

fn judge_partition(
    keys: &[String],
    p: u32,
    maxp: u32,
    streams: &Result<Vec<Vec<(String, u32)>>, String>,
) -> Result<(), Failure> {
    let want = oracle::partition(&super::driver::numbered(keys), p, maxp);
    let streams = streams.as_ref().map_err(|e| {
        Failure::new(format!("{p} streams"), format!("Err({e:?})")).step("partition failed")
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
        Failure::new(format!("{want:?}"), format!("Err({e:?})")).step(format!("{what} failed"))
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

fn judge_parents(
    from: u32,
    to: u32,
    maxp: u32,
    parents: &[Result<Vec<u32>, String>],
) -> Result<(), Failure> {
    for (j, got) in (0u32..).zip(parents) {
        let want = oracle::parents(j, from, to, maxp);
        if got.as_ref() != Ok(&want) {
            let (start, end) = oracle::range(j, to, maxp);
            return Err(Failure::new(
                format!("parents({j}, {from}, {to}, {maxp}) = {want:?}"),
                format!("{got:?}"),
            )
            .step(format!(
                "new subtask {j} owns {start}..={end}; the old ranges at parallelism {from} are {}",
                show_all(
                    &(0..from)
                        .map(|i| oracle::range(i, from, maxp))
                        .collect::<Vec<_>>()
                )
            )));
        }
    }
    Ok(())
}
