//! Judges stage-07 observations: the store protocol call by call, then state and output;
//! each failure names the brief's requirement it found broken.

use super::calls::judge_calls;
use super::lost::{handed_out, resumed_where_handed};
use super::oracle::{self, Call, Counts};
use super::output::judge_emitted;
use super::own_store::{own_store_step, wrong_answer};
use super::recovered::wrong_restore;
use super::store::judge_store;
use super::{Case, Observation, Outcome, Run};
use crate::harness::Failure;
use crate::harness::arguments::{Refusal, contains_name, refusal};
use crate::stage03::guard::Answer;

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
        ) => judge_arguments(argument, spied, calls, plain),
        (
            Case::Store { ops, falling },
            Observation::Store {
                after_each,
                panicked,
            },
        ) => judge_store(ops, *falling, after_each, panicked.as_deref()),
        (Case::TwoStores, Observation::TwoStores { readings }) => {
            super::two_stores::judge(readings)
        }
        (Case::Protocol(run), Observation::Run { result, calls }) => {
            // The calls first: when a run fails, the call that went wrong explains why;
            // unless it panicked (the spy's calls went with it), or made none, refusing a
            // crash after the last record as past the end.
            no_panic(run, result, "07-R19")?;
            if calls.is_empty() && run.crash_after == Some(run.words.len()) {
                returned(run, result, "07-R11")?;
            }
            judge_calls(run, &oracle::expected(run), calls)?;
            returned(run, result, "07-R19").map(|_| ())
        }
        (Case::State(run), Observation::Run { result, calls }) => {
            let (counts, _) = returned(run, result, "07-R19")?;
            let want = oracle::expected(run);
            judge_counts(&want.counts, counts, "07-R19")
                .map_err(|failure| restored_wrong(run, &want, calls, failure))
        }
        (Case::Output(run), Observation::Run { result, calls }) => {
            let (_, emitted) = returned(run, result, "07-R21")?;
            judge_emitted(run, &oracle::expected(run), emitted, calls)
        }
        (Case::LostCheckpoints { run, kept }, Observation::Run { result, calls }) => {
            no_panic(run, result, "07-R12")?;
            let want = oracle::expected_after_loss(run, Some(*kept));
            let (counts, emitted) = returned(run, result, "07-R12").map_err(|f| {
                let step = f.first_wrong_step.clone().unwrap_or_default();
                f.step(format!("{step}; {}", handed_out(&want)))
            })?;
            resumed_where_handed(run, &want, emitted, calls)?;
            judge_calls(run, &want, calls)?;
            judge_counts(&want.counts, counts, "07-R19")?;
            judge_emitted(run, &want, emitted, calls)
        }
        (Case::CorruptState { state, .. }, Observation::Unreadable { answer, calls }) => {
            unrestorable(
                answer,
                calls,
                &format!(
                    "latest_completed() handed back checkpoint 2 with the state b{:?}, which is not the \
                     JSON of a BTreeMap<String, u64>: the restart point is that checkpoint, and no \
                     state can be restored from it, so the run must fail: not start from other \
                     counts, and not panic",
                    String::from_utf8_lossy(state)
                ),
            )
        }
        (Case::ForgedState { run, counts }, Observation::Run { result, calls }) => {
            super::forged::judge_forged(run, counts, result, calls)
        }
        (Case::FailingStore { failing_call, .. }, Observation::Run { result, calls }) => {
            super::failing::judge(*failing_call, result, calls)
        }
        (Case::OffsetPastEnd { run, offset }, Observation::Unreadable { answer, calls }) => {
            unrestorable(
                answer,
                calls,
                &format!(
                    "latest_completed() handed back checkpoint 2 at offset {offset}, past the end of \
                     the {} words: the restart point is that checkpoint, and no source can be \
                     sought there, so the run must fail: not resume at the end, at 0 or anywhere \
                     else, and not panic",
                    run.words.len()
                ),
            )
        }
        (
            Case::OwnStore(run),
            Observation::OwnStore {
                result,
                spied,
                replayed,
            },
        ) => {
            let want = oracle::expected(run);
            // An error after the learner's store handed out the wrong checkpoint is that
            // answer's doing: say the answer, not only that the run failed.
            let result_failed = returned(run, result, "07-R18");
            if let (Err(failure), Some(why)) = (&result_failed, wrong_answer(replayed)) {
                return Err(failure.clone().step(why));
            }
            let spied_right = matches!(
                spied,
                Answer::Ok((counts, emitted)) if *counts == want.counts && *emitted == want.emitted
            );
            if spied_right {
                judge_own_store(run, &want, result, Some(replayed.as_slice()))
            } else {
                // The job itself is wrong, whatever the store: told from its calls on the
                // learner's own store, as the spied checks tell it from the spy's.
                let (counts, emitted) = returned(run, result, "07-R18")?;
                judge_counts(&want.counts, counts, "07-R18")
                    .map_err(|f| restored_wrong(run, &want, replayed, f))?;
                judge_emitted(run, &want, emitted, replayed).map_err(|f| f.requirement("07-R18"))
            }
        }
        (
            Case::Contract(run),
            Observation::Contract {
                spied,
                calls,
                plain,
            },
        ) => {
            let want = oracle::expected(run);
            no_panic(run, spied, "07-R19")?;
            judge_calls(run, &want, calls)?;
            let (counts, emitted) = returned(run, spied, "07-R19")?;
            judge_counts(&want.counts, counts, "07-R19")?;
            judge_emitted(run, &want, emitted, calls)?;
            judge_own_store(run, &want, plain, None)
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

/// `barrier_every` is 07-R15, `crash_after` 07-R16; both before any store call, 07-R17.
fn judge_arguments(
    argument: &str,
    spied: &Answer<Outcome>,
    calls: &[Call],
    plain: &Answer<Outcome>,
) -> Result<(), Failure> {
    let rule = if argument == "barrier_every" {
        "07-R15"
    } else {
        "07-R16"
    };
    for (entry, answer) in [
        ("run_with_recovery_in", spied),
        ("run_with_recovery", plain),
    ] {
        let result = match answer {
            Answer::Ok(outcome) => Ok(outcome),
            Answer::Err(e) => Err(e.clone()),
            Answer::Panicked(message) => {
                return Err(Failure::new(
                    format!("Err(.. naming `{argument}` ..)"),
                    format!("panicked: {message}"),
                )
                .step(format!(
                    "{entry} panicked on an invalid `{argument}`: the brief asks for an error \
                     naming the argument (errors instead of panics)"
                ))
                .requirement(rule));
            }
        };
        match refusal(&result, argument) {
            Refusal::Named => {}
            Refusal::Accepted(_) => {
                return Err(
                    Failure::new(format!("Err(.. naming `{argument}` ..)"), "Ok(..)")
                        .step(format!("{entry} accepted an invalid `{argument}`"))
                        .requirement(rule),
                );
            }
            Refusal::Unnamed(e) => {
                return Err(Failure::new(
                    format!("an error naming `{argument}`"),
                    format!("Err({e})"),
                )
                .step(format!(
                    "{entry}'s error does not say which argument is wrong"
                ))
                .requirement(rule));
            }
        }
    }
    if let Some(first) = calls.first() {
        return Err(Failure::new("no store call", format!("{first:?} first"))
            .step("an invalid run must be refused before anything runs")
            .requirement("07-R17"));
    }
    Ok(())
}

/// A run's panic, judged before anything else of the run: the brief asks for errors
/// instead of panics, and a valid run returns its outcome (`rule`, the check's).
fn no_panic(run: &Run, answer: &Answer<Outcome>, rule: &'static str) -> Result<(), Failure> {
    match answer {
        Answer::Panicked(_) => returned(run, answer, rule).map(|_| ()),
        _ => Ok(()),
    }
}

fn returned<'a>(
    run: &Run,
    answer: &'a Answer<Outcome>,
    rule: &'static str,
) -> Result<&'a Outcome, Failure> {
    let result = match answer {
        Answer::Ok(outcome) => Ok(outcome),
        Answer::Err(e) => Err(e),
        Answer::Panicked(message) => {
            return Err(Failure::new("Ok(outcome)", format!("panicked: {message}"))
                .step(format!(
                    "a valid run (barrier_every {}, crash_after {:?}, commit_lag {}) panicked: the \
                     brief asks for errors instead of panics, and a valid run returns its outcome",
                    run.barrier_every, run.crash_after, run.commit_lag
                ))
                .requirement(rule));
        }
    };
    result.map_err(|e| {
        let at_the_end =
            run.crash_after == Some(run.words.len()) && contains_name(e, "crash_after");
        let failure = Failure::new("Ok(outcome)", format!("Err({e})"));
        if at_the_end {
            return failure
                .step(format!(
                    "a crash after the last record (crash_after = {} = the input's length) is a \
                     valid run: only crash_after > words.len() is an error",
                    run.words.len()
                ))
                .requirement("07-R11");
        }
        failure
            .step(format!(
                "a valid run (barrier_every {}, crash_after {:?}) returned an error",
                run.barrier_every, run.crash_after
            ))
            .requirement(rule)
    })
}

/// `run_with_recovery`, with the implementation's own store, is the spied run's twin,
/// which returned the right outcome; `replayed` are the job's calls made again on that
/// store, when the driver made them.
fn judge_own_store(
    run: &Run,
    want: &oracle::Expected,
    result: &Answer<Outcome>,
    replayed: Option<&[Call]>,
) -> Result<(), Failure> {
    let (counts, emitted) = returned(run, result, "07-R18")?;
    let wrong = judge_counts(&want.counts, counts, "07-R18")
        .and_then(|()| judge_emitted(run, want, emitted, &[]).map_err(|f| f.requirement("07-R18")));
    wrong.map_err(|f| f.step(own_store_step(run, emitted, replayed)))
}

/// Wrong counts after a recovery that restored the wrong checkpoint, or the right one
/// saved wrong: that is the job's first wrong step, not the count.
fn restored_wrong(run: &Run, want: &oracle::Expected, calls: &[Call], failure: Failure) -> Failure {
    match wrong_restore(run, want, calls) {
        Some((why, rule)) => failure
            .step(format!(
                "after the crash after {} record(s): {why}",
                run.crash_after.unwrap_or(run.words.len())
            ))
            .requirement(rule),
        None => failure,
    }
}

fn judge_counts(want: &Counts, got: &Counts, rule: &'static str) -> Result<(), Failure> {
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
    Err(Failure::new(format!("{want:?}"), format!("{got:?}"))
        .step(step)
        .requirement(rule))
}

/// A run whose restart point cannot be restored (`handed`, what the store handed out)
/// fails there: an error, not a panic or a success, and no save or completion after the
/// store handed that checkpoint out, since a run that goes on from anything else (empty
/// counts, offset 0, the end) is a run from another cut, whatever error ends it later.
fn unrestorable(answer: &Answer<Outcome>, calls: &[Call], handed: &str) -> Result<(), Failure> {
    let handed_at = calls
        .iter()
        .rposition(|c| matches!(c, Call::LatestCompleted { returned: Some(_) }));
    let went_on = handed_at.and_then(|at| {
        calls[at..]
            .iter()
            .find(|c| !matches!(c, Call::LatestCompleted { .. }))
    });
    match (answer, went_on) {
        (Answer::Err(_), None) => Ok(()),
        (Answer::Err(_), Some(call)) => Err(Failure::new(
            "an error, and no store call after latest_completed()",
            format!("{}, after {}", answer.show(), oracle::show(call)),
        )
        .step(format!(
            "{handed}; the run went on all the same: {} came after it",
            oracle::show(call)
        ))
        .requirement("07-R12")),
        (other, _) => Err(Failure::new("an error", other.show())
            .step(handed.to_owned())
            .requirement("07-R12")),
    }
}
