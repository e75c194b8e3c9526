//! Judges stage-07 observations: the store protocol call by call, then state and output.

use super::calls::judge_calls;
use super::oracle::{self, Counts, Expected, ModelStore};
use super::{Case, Observation, Outcome, Run, StoreOp};
use crate::harness::Failure;
use crate::harness::arguments::{Refusal, refusal};
use crate::harness::case::expect_sequence;

/// `Ok` when `observation` is what `case` demands.
pub fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
    match (case, observation) {
        (
            Case::Arguments { argument, .. },
            Observation::Arguments {
                spied,
                calls,
                plain,
            },
        ) => {
            for (entry, result) in [
                ("run_with_recovery_in", spied),
                ("run_with_recovery", plain),
            ] {
                match refusal(result, argument) {
                    Refusal::Named => {}
                    Refusal::Accepted(_) => {
                        return Err(Failure::new(
                            format!("Err(.. naming `{argument}` ..)"),
                            "Ok(..)",
                        )
                        .step(format!("{entry} accepted an invalid `{argument}`")));
                    }
                    Refusal::Unnamed(e) => {
                        return Err(Failure::new(
                            format!("an error naming `{argument}`"),
                            format!("Err({e})"),
                        )
                        .step(format!(
                            "{entry}'s error does not say which argument is wrong"
                        )));
                    }
                }
            }
            if let Some(first) = calls.first() {
                return Err(Failure::new("no store call", format!("{first:?} first"))
                    .step("an invalid run must be refused before anything runs"));
            }
            Ok(())
        }
        (Case::Store { ops }, Observation::Store { after_each }) => judge_store(ops, after_each),
        (Case::Protocol(run), Observation::Run { result, calls }) => {
            // The calls first: when a run fails, the call that went wrong explains why.
            judge_calls(run, &oracle::expected(run), calls)?;
            returned(run, result).map(|_| ())
        }
        (Case::State(run), Observation::Run { result, .. }) => {
            let (counts, _) = returned(run, result)?;
            judge_counts(&oracle::expected(run).counts, counts)
        }
        (Case::Output(run), Observation::Run { result, .. }) => {
            let (_, emitted) = returned(run, result)?;
            judge_emitted(run, &oracle::expected(run), emitted)
        }
        (Case::OwnStore(run), Observation::Run { result, .. }) => {
            let (counts, emitted) = returned(run, result)?;
            let want = oracle::expected(run);
            judge_counts(&want.counts, counts)?;
            judge_emitted(run, &want, emitted)
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

fn returned<'a>(run: &Run, result: &'a Result<Outcome, String>) -> Result<&'a Outcome, Failure> {
    result.as_ref().map_err(|e| {
        Failure::new("Ok(outcome)", format!("Err({e})")).step(format!(
            "a valid run (barrier_every {}, crash_after {:?}) returned an error",
            run.barrier_every, run.crash_after
        ))
    })
}

fn judge_store(
    ops: &[StoreOp],
    after_each: &[(Result<(), String>, Option<oracle::Stored>)],
) -> Result<(), Failure> {
    let mut model = ModelStore::default();
    let mut saves = std::collections::BTreeMap::<u64, u64>::new();
    for (i, op) in ops.iter().enumerate() {
        let want = match *op {
            StoreOp::Save(id) => {
                let n = saves.entry(id).or_default();
                let (offset, state) = (10 * id + *n, format!("s{id}.{n}"));
                *n += 1;
                model.save(id, offset, state.into_bytes())
            }
            StoreOp::Complete(id) => model.complete(id),
        };
        let want_latest = model.latest_completed();
        let Some((got, got_latest)) = after_each.get(i) else {
            return Err(Failure::new("one observation per operation", "fewer"));
        };
        let label = format!("operation {} ({op:?}) after {:?}", i + 1, &ops[..i]);
        match (&want, got) {
            (Ok(()), Err(e)) => {
                return Err(Failure::new("Ok(())", format!("Err({e})"))
                    .step(format!("{label}: a valid call failed")));
            }
            (Err(why), Ok(())) => {
                return Err(Failure::new(format!("Err(..): {why}"), "Ok(())")
                    .step(format!("{label} must be refused")));
            }
            _ => {}
        }
        if *got_latest != want_latest {
            let show = |l: &Option<oracle::Stored>| match l {
                Some((id, offset, state)) => format!(
                    "Some(checkpoint {id}, offset {offset}, state {:?})",
                    String::from_utf8_lossy(state)
                ),
                None => "None".to_owned(),
            };
            return Err(Failure::new(show(&want_latest), show(got_latest)).step(format!(
                "{label}, then latest_completed(): the completed checkpoint with the highest id, \
                 never one in flight"
            )));
        }
    }
    Ok(())
}

fn judge_counts(want: &Counts, got: &Counts) -> Result<(), Failure> {
    if got == want {
        return Ok(());
    }
    let keys: std::collections::BTreeSet<&String> = want.keys().chain(got.keys()).collect();
    let step = keys
        .into_iter()
        .find(|k| want.get(*k) != got.get(*k))
        .map(|k| {
            format!(
                "count of {k:?} is {}, a batch count says {}",
                got.get(k).copied().unwrap_or(0),
                want.get(k).copied().unwrap_or(0)
            )
        })
        .unwrap_or_default();
    Err(Failure::new(format!("{want:?}"), format!("{got:?}")).step(step))
}

fn judge_emitted(run: &Run, want: &Expected, got: &[(String, u64)]) -> Result<(), Failure> {
    if got == want.emitted.as_slice() {
        return Ok(());
    }
    let words = &run.words;
    let len = words.len();
    let k = run.crash_after.unwrap_or(len);
    let before = &want.emitted[..k];
    if got.len() < k || &got[..k] != before {
        return expect_sequence("emitted", &want.emitted, got);
    }
    let tail = &got[k..];
    let (c, o) = want.restored;
    let o = o as usize;
    let explain = |why: String| {
        Err(
            Failure::new(format!("{:?}", want.emitted), format!("{got:?}"))
                .step(format!("after the crash after {k} record(s): {why}"))
                .multiset(&want.emitted, got),
        )
    };
    let latest = if c == 0 {
        "no checkpoint had completed (replay from offset 0, empty counts)".to_owned()
    } else {
        format!("the latest completed checkpoint was {c} (offset {o})")
    };
    if tail.is_empty() {
        return explain(format!(
            "nothing was emitted after the crash, but {latest}: records {o}..{len} must be \
             replayed and emitted again"
        ));
    }
    for start in 0..=len {
        if tail
            == oracle::emissions(words, start, len, oracle::prefix_counts(words, start)).as_slice()
        {
            let every = run.barrier_every;
            let from = start / every;
            let why = if start % every != 0 {
                format!("the replay started at offset {start}, which is no checkpoint's offset")
            } else if from as u64 > c {
                format!(
                    "the replay started from checkpoint {from} (offset {start}), which was still in \
                     flight at the crash (commit_lag = {}): only completed checkpoints may be \
                     restored; {latest}",
                    run.commit_lag
                )
            } else {
                format!("the replay started from offset {start}, but {latest}")
            };
            return explain(why);
        }
    }
    let restored = oracle::prefix_counts(words, o);
    if tail == oracle::emissions(words, 0, len, restored.clone()).as_slice() {
        return explain(format!(
            "the replay started at offset 0 on top of the counts restored from checkpoint {c}: \
             records 0..{o} were counted twice (seek the source to the checkpoint's offset)"
        ));
    }
    if tail == oracle::emissions(words, o, len, oracle::prefix_counts(words, k)).as_slice() {
        return explain(format!(
            "the replay from offset {o} continued from the counts in memory at the crash: nothing \
             in memory survives a crash, the counts must come from the checkpoint's bytes"
        ));
    }
    if tail == oracle::emissions(words, o, len, Counts::new()).as_slice() {
        return explain(format!(
            "the replay from offset {o} started from empty counts: restore the checkpoint's state"
        ));
    }
    expect_sequence("emitted", &want.emitted, got)
}
