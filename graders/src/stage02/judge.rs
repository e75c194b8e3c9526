//! Judges stage-02 observations against the laws of isolation and durability and the
//! contract of every call; each failure names the brief's requirement it found broken.

use std::collections::BTreeMap;

use super::binding::SpyEvent;
use super::contract::{self, Decoded};
use super::{Case, Observation, oracle, state_ops, words};
use crate::harness::Failure;

/// `Ok` when `observation` is what `case` demands.
pub fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
    match (case, observation) {
        (Case::KeyedState { ops }, Observation::KeyedState { steps }) => {
            state_ops::judge(ops, steps)
        }
        (Case::TextBytes { pairs }, Observation::TextBytes { decoded }) => {
            round_trip(pairs.iter().cloned().collect(), decoded)
        }
        (Case::BinaryBytes { pairs }, Observation::BinaryBytes { decoded }) => {
            let want: BTreeMap<Vec<u8>, u32> = pairs.iter().cloned().collect();
            round_trip(want.into_iter().collect::<Vec<_>>(), decoded)
        }
        (Case::NotStateBytes { bytes }, Observation::NotStateBytes { decoded }) => {
            contract::judge_not_a_snapshot("KeyedState::from_bytes", bytes, None, decoded)
        }
        (
            Case::NotASnapshot { bytes },
            Observation::NotASnapshot {
                decoded,
                empty_snapshot,
            },
        ) => contract::judge_not_a_snapshot("restore", bytes, empty_snapshot.as_deref(), decoded),
        (Case::Isolation { records }, Observation::Run { events, .. }) => {
            let (want, _) = oracle::spy_run(records);
            judge_events(records, &want, events, 0, "02-R14")
        }
        (Case::FinalState { records }, Observation::Run { final_state, .. }) => {
            let (_, want) = oracle::spy_run(records);
            judge_state(records, &want, final_state, "02-R14")
        }
        (
            Case::Crash {
                records,
                crash_after,
            },
            Observation::Crash {
                before,
                restore,
                restored_state,
                after,
                final_state,
            },
        ) => {
            let (want, want_state) = oracle::spy_run(records);
            judge_events(records, &want[..*crash_after], before, 0, "02-R14")?;
            if let Err(e) = restore {
                return Err(Failure::new(
                    "snapshot() then restore(..) succeed",
                    format!("Err({e})"),
                )
                .step(format!(
                    "snapshot or restore after record {crash_after} failed"
                ))
                .requirement("02-R15"));
            }
            let (_, at_crash) = oracle::spy_run(&records[..*crash_after]);
            if *restored_state != at_crash {
                return Err(Failure::new(
                    format!("state {at_crash:?}"),
                    format!("state {restored_state:?}"),
                )
                .step(format!(
                    "right after restoring from the snapshot taken after record {crash_after}: {}",
                    first_state_difference(&at_crash, restored_state)
                ))
                .requirement("02-R15"));
            }
            restored_unused(
                records,
                *crash_after,
                &want[*crash_after..],
                after,
                restored_state,
            )?;
            judge_events(
                records,
                &want[*crash_after..],
                after,
                *crash_after,
                "02-R15",
            )?;
            judge_state(records, &want_state, final_state, "02-R15")
        }
        (Case::Contract { calls }, Observation::Contract { steps }) => {
            contract::judge(calls, steps)
        }
        (Case::Fanout { records, restores }, Observation::Fanout { steps }) => {
            super::fanout::judge(records, restores, steps)
        }
        (Case::WordCount { lines }, Observation::WordCount { updates }) => {
            words::judge(lines, updates)
        }
        (Case::PaddedSnapshot { padding }, Observation::PaddedSnapshot(seen)) => {
            super::padded::judge(*padding, seen)
        }
        (Case::RewrittenSnapshot { rewrite }, Observation::RewrittenSnapshot(seen)) => {
            super::rewritten::judge(*rewrite, seen)
        }
        (Case::DenseSnapshot, Observation::DenseSnapshot(seen)) => super::dense::judge(seen),
        (Case::SameBytes, Observation::SameBytes { snapshots }) => {
            super::instances::judge_same_bytes(snapshots)
        }
        (Case::WordCounters { calls }, Observation::WordCounters { steps }) => {
            super::instances::judge_counters(calls, steps)
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

/// Judges a round trip of `want` through `to_bytes` and `from_bytes`.
fn round_trip<T: PartialEq + std::fmt::Debug>(
    want: T,
    decoded: &Decoded<T>,
) -> Result<(), Failure> {
    let what = match decoded {
        Decoded::Ok(got) if *got == want => return Ok(()),
        Decoded::Ok(_) => "from_bytes(&to_bytes()) is another state",
        Decoded::Err(_) => "to_bytes or from_bytes failed",
        Decoded::Panicked(_) => "to_bytes or from_bytes panicked",
    };
    Err(
        Failure::new(format!("Ok({want:?})"), format!("{decoded:?}"))
            .step(what)
            .requirement("02-R7"),
    )
}

/// Whether the key of record `n` had a record before it, and the state it was lent is
/// `None` only because a 0 cleared it.
fn cleared_before(records: &[(String, u32)], n: usize) -> bool {
    records[..n].iter().any(|(k, _)| *k == records[n].0)
}

/// After a restore that produced the right state (the operator's own `state()` says so),
/// the first record of a key that sees another state than the restored operator holds
/// for it: the operator does not process with the state it restored. Any other wrong
/// event after the restore is judged as one before it would be (`judge_events`): its
/// key, or the state its key's records since the restore left.
fn restored_unused(
    records: &[(String, u32)],
    crash_after: usize,
    want: &[SpyEvent],
    got: &[SpyEvent],
    restored: &BTreeMap<String, super::SpyState>,
) -> Result<(), Failure> {
    let Some(i) = want.iter().zip(got).position(|(w, g)| w != g) else {
        return Ok(());
    };
    let (w, g) = (&want[i], &got[i]);
    let n = crash_after + i;
    let first_of_key = !records[crash_after..n].iter().any(|(k, _)| *k == w.key);
    if w.key != g.key || w.value != g.value || !first_of_key {
        return Ok(());
    }
    Err(Failure::new(format!("{w:?}"), format!("{g:?}"))
        .step(format!(
            "record {n} {:?}, the first of key {:?} after the restore: the function saw state {:?}, but the operator restored from the snapshot taken after {crash_after} record(s) holds {:?} for that key",
            records[n],
            w.key,
            g.seen,
            restored.get(&w.key)
        ))
        .requirement("02-R15"))
}

/// Compares the spy's events with the oracle's, naming the first record whose function
/// call saw the wrong key or the wrong state. `offset` numbers records after a restore;
/// a wrong state is `rule`'s (isolation, or durability after a restore) unless the key
/// was cleared, whose rule is the clearing one.
fn judge_events(
    records: &[(String, u32)],
    want: &[SpyEvent],
    got: &[SpyEvent],
    offset: usize,
    rule: &'static str,
) -> Result<(), Failure> {
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        if w == g {
            continue;
        }
        let n = offset + i;
        let (step, rule) = if w.key != g.key || w.value != g.value {
            (
                format!("record {n} {:?} was handed key {:?}", records[n], g.key),
                "02-R8",
            )
        } else {
            let rule = if w.seen.is_none() && cleared_before(records, n) && rule == "02-R14" {
                "02-R16"
            } else {
                rule
            };
            (
                format!(
                    "record {n} {:?}: the function saw state {:?} for key {:?}, but that key's earlier records leave {:?}",
                    records[n], g.seen, w.key, w.seen
                ),
                rule,
            )
        };
        return Err(Failure::new(format!("{w:?}"), format!("{g:?}"))
            .step(step)
            .requirement(rule));
    }
    if want.len() != got.len() {
        return Err(Failure::new(
            format!("{} function calls, one per record", want.len()),
            format!("{} calls", got.len()),
        )
        .step("the function was not called exactly once per record")
        .requirement("02-R8"));
    }
    Ok(())
}

/// Compares the final state; a cleared key still held is the clearing rule's.
fn judge_state(
    records: &[(String, u32)],
    want: &BTreeMap<String, Vec<u32>>,
    got: &BTreeMap<String, Vec<u32>>,
    rule: &'static str,
) -> Result<(), Failure> {
    if want == got {
        return Ok(());
    }
    let cleared_kept = got
        .keys()
        .any(|k| !want.contains_key(k) && records.iter().any(|(r, _)| r == k));
    let rule = if cleared_kept && rule == "02-R14" {
        "02-R16"
    } else {
        rule
    };
    Err(
        Failure::new(format!("state {want:?}"), format!("state {got:?}"))
            .step(first_state_difference(want, got))
            .requirement(rule),
    )
}

fn first_state_difference<V: std::fmt::Debug + PartialEq>(
    want: &BTreeMap<String, V>,
    got: &BTreeMap<String, V>,
) -> String {
    let keys: std::collections::BTreeSet<&String> = want.keys().chain(got.keys()).collect();
    for key in keys {
        match (want.get(key), got.get(key)) {
            (w, g) if w == g => continue,
            (Some(w), None) => return format!("key {key:?} lost its state {w:?}"),
            (None, Some(g)) => {
                return format!(
                    "key {key:?} still holds {g:?}, but its state was cleared or never set"
                );
            }
            (w, g) => return format!("key {key:?} holds {g:?}, expected {w:?}"),
        }
    }
    "the states differ".to_owned()
}
