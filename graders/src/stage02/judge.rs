//! Judges stage-02 observations against the laws of isolation and durability.

use std::collections::BTreeMap;

use super::binding::SpyEvent;
use super::{Case, Observation, StateOp, oracle};
use crate::harness::Failure;
use crate::harness::case::expect_sequence;

/// `Ok` when `observation` is what `case` demands.
pub fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
    match (case, observation) {
        (Case::KeyedState { ops }, Observation::KeyedState { after_each }) => {
            let mut model: BTreeMap<String, u32> = BTreeMap::new();
            for (i, op) in ops.iter().enumerate() {
                apply(&mut model, op);
                let want = (
                    model.get("a").copied(),
                    model.get("b").copied(),
                    model.clone(),
                );
                let got = after_each.get(i);
                if got != Some(&want) {
                    // Both sides as the same three readings, not the observation's Option.
                    return Err(Failure::new(
                        format!("get(a), get(b), snapshot = {want:?}"),
                        got.map_or_else(
                            || "no readings".to_owned(),
                            |g| format!("get(a), get(b), snapshot = {g:?}"),
                        ),
                    )
                    .step(format!(
                        "after operation {} ({})",
                        i + 1,
                        op.describe()
                    )));
                }
            }
            Ok(())
        }
        (Case::Isolation { records }, Observation::Run { events, .. }) => {
            let (want, _) = oracle::spy_run(records);
            judge_events(records, &want, events, 0)
        }
        (Case::FinalState { records }, Observation::Run { final_state, .. }) => {
            let (_, want) = oracle::spy_run(records);
            if *final_state != want {
                return Err(Failure::new(
                    format!("state {want:?}"),
                    format!("state {final_state:?}"),
                )
                .step(first_state_difference(&want, final_state)));
            }
            Ok(())
        }
        (
            Case::Crash {
                records,
                crash_after,
            },
            Observation::Crash {
                before,
                restore,
                after,
                final_state,
            },
        ) => {
            if let Err(e) = restore {
                return Err(Failure::new(
                    "snapshot() then restore(..) succeed",
                    format!("Err({e})"),
                )
                .step(format!(
                    "snapshot or restore after record {crash_after} failed"
                )));
            }
            let (want, want_state) = oracle::spy_run(records);
            judge_events(records, &want[..*crash_after], before, 0)?;
            judge_events(records, &want[*crash_after..], after, *crash_after).map_err(|f| {
                f.step(format!(
                    "after restoring from the snapshot taken after record {crash_after}, the operator no longer holds the state it had"
                ))
            })?;
            if *final_state != want_state {
                return Err(Failure::new(
                    format!("state {want_state:?}"),
                    format!("state {final_state:?}"),
                )
                .step(first_state_difference(&want_state, final_state)));
            }
            Ok(())
        }
        (Case::WordCount { lines }, Observation::WordCount { updates }) => {
            expect_sequence("updates", &oracle::word_count(lines), updates)
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

fn apply(model: &mut BTreeMap<String, u32>, op: &StateOp) {
    match op {
        StateOp::Put(key, value) => {
            model.insert(key.clone(), *value);
        }
        StateOp::Bump(key) => {
            if let Some(v) = model.get_mut(key) {
                *v += 1;
            }
        }
        StateOp::Clear(key) | StateOp::Remove(key) => {
            model.remove(key);
        }
    }
}

/// Compares the spy's events with the oracle's, naming the first record whose function
/// call saw the wrong key or the wrong state. `offset` numbers records after a restore.
fn judge_events(
    records: &[(String, u32)],
    want: &[SpyEvent],
    got: &[SpyEvent],
    offset: usize,
) -> Result<(), Failure> {
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        if w == g {
            continue;
        }
        let n = offset + i;
        let step = if w.key != g.key {
            format!("record {n} {:?} was handed key {:?}", records[n], g.key)
        } else {
            format!(
                "record {n} {:?}: the function saw state {:?} for key {:?}, but that key's earlier records leave {:?}",
                records[n], g.seen, w.key, w.seen
            )
        };
        return Err(Failure::new(format!("{w:?}"), format!("{g:?}")).step(step));
    }
    if want.len() != got.len() {
        return Err(Failure::new(
            format!("{} function calls, one per record", want.len()),
            format!("{} calls", got.len()),
        )
        .step("the function was not called exactly once per record"));
    }
    Ok(())
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
