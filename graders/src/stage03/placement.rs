//! Judges where records and state land: `partition`'s streams and per-subtask counts.

use std::collections::BTreeMap;

use super::formulas::{returned, show_range};
use super::{SubtaskCounts, oracle};
use crate::harness::Failure;
use crate::harness::case::expect_sequence;

/// Where the implementation's own formulas send each record:
/// `(key_group_for(key), operator_index_for(that group))`.
pub(super) type OwnRouting = [(Result<u32, String>, Result<u32, String>)];

/// Judges `partition`'s streams. A record on the wrong subtask is `partition`'s fault
/// (03-R1) unless the implementation's own `key_group_for` / `operator_index_for` send it
/// there too: then the formula at fault is named (03-R18, 03-R19), not the routing.
pub(super) fn judge_partition(
    keys: &[String],
    p: u32,
    maxp: u32,
    streams: &Result<Vec<Vec<(String, u32)>>, String>,
    own: &OwnRouting,
) -> Result<(), Failure> {
    let want = oracle::partition(&super::oracle::numbered(keys), p, maxp);
    let streams = streams.as_ref().map_err(|e| {
        Failure::new(format!("{p} streams"), format!("Err({e})"))
            .step("partition failed")
            .requirement("03-R1")
    })?;
    if streams.len() != p as usize {
        return Err(Failure::new(
            format!("{p} streams, one per subtask"),
            format!("{} streams", streams.len()),
        )
        .requirement("03-R1"));
    }
    for (i, stream) in (0u32..).zip(streams) {
        for record in stream {
            let owner = oracle::owner_of(&super::key_bytes(&record.0), p, maxp);
            if owner == i {
                continue;
            }
            let group = oracle::key_group(&super::key_bytes(&record.0), maxp);
            let failure = Failure::new(format!("{want:?}"), format!("{streams:?}"));
            let (own_group, own_index) = own
                .get(record.1 as usize)
                .cloned()
                .unwrap_or((Err(String::new()), Err(String::new())));
            let key = &record.0;
            if own_group.as_ref() != Ok(&group) && own_index.as_ref() == Ok(&i) {
                return Err(failure
                    .step(format!(
                        "record {record:?} went to subtask {i}, as your key_group_for({key:?}, {maxp}) = {} sends it, but its key group is {group}, owned by subtask {owner}",
                        returned(&own_group)
                    ))
                    .requirement("03-R18"));
            }
            if own_index.as_ref() == Ok(&i) {
                return Err(failure
                    .step(format!(
                        "record {record:?} went to subtask {i}, as your operator_index_for({group}, {p}, {maxp}) = {i} sends it, but key group {group} is in the range {} of subtask {owner}",
                        show_range(oracle::range(owner, p, maxp))
                    ))
                    .requirement("03-R19"));
            }
            return Err(failure
                .step(format!(
                    "record {record:?} (key group {group}) went to subtask {i}, but subtask {owner} owns key groups {}",
                    show_range(oracle::range(owner, p, maxp))
                ))
                .requirement("03-R1"));
        }
    }
    for (i, (w, g)) in want.iter().zip(streams).enumerate() {
        let id = if w.len() == g.len() { "03-R2" } else { "03-R1" };
        expect_sequence(&format!("subtask {i}'s records"), w, g).map_err(|f| f.requirement(id))?;
    }
    Ok(())
}

/// Judges per-subtask counts: each key on its owner at `p`, exactly the `p = 1` count;
/// a failure names `id`.
pub(super) fn judge_counts(
    what: &str,
    keys: &[String],
    p: u32,
    maxp: u32,
    counts: &Result<Vec<SubtaskCounts>, String>,
    id: &'static str,
) -> Result<(), Failure> {
    let want = oracle::counts(keys, p, maxp);
    let got = counts.as_ref().map_err(|e| {
        Failure::new(format!("{want:?}"), format!("Err({e})"))
            .step(format!("{what} failed"))
            .requirement(id)
    })?;
    if got.len() != p as usize {
        return Err(Failure::new(
            format!("{p} subtasks' state"),
            format!("{} subtasks' state", got.len()),
        )
        .step(format!(
            "{what} returned the state of {} subtasks",
            got.len()
        ))
        .requirement(id));
    }
    let mut total: BTreeMap<&String, Vec<u32>> = BTreeMap::new();
    for (i, map) in (0u32..).zip(got) {
        for key in map.keys() {
            total.entry(key).or_default().push(i);
        }
    }
    let wrong = |step: String| {
        Failure::new(format!("{want:?}"), format!("{got:?}"))
            .step(step)
            .requirement(id)
    };
    for (key, holders) in &total {
        let owner = oracle::owner_of(&super::key_bytes(key), p, maxp);
        let group = oracle::key_group(&super::key_bytes(key), maxp);
        if holders.len() > 1 {
            return Err(wrong(format!(
                "{what}: key {key:?} (key group {group}) has state on subtasks {holders:?}: twice"
            )));
        }
        if holders[0] != owner {
            return Err(wrong(format!(
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
            return Err(wrong(format!(
                "{what}: subtask {i} of {p} holds count {:?} for key {key:?}, expected {:?} (the p = 1 count)",
                g.get(&key),
                w.get(&key)
            )));
        }
    }
    Ok(())
}
