//! Judges stage-06 observations against the model aligner, naming the first wrong step.

use super::contract::judge_contract;
use super::driver::{Step, blocked_absent};
use super::explain::explain;
use super::oracle::{self, ModelStep};
use super::snapshots::judge_snapshots;
use super::{Case, Elem, Observation, Out, list};
use super::{far, rescale};
use crate::harness::Failure;
use crate::harness::arguments::{Refusal, contains_name, refusal};
use crate::harness::case::expect_sequence;

/// `Ok` when `observation` is what `case` demands.
pub fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
    match (case, observation) {
        (
            Case::Inject {
                records,
                barrier_every,
            },
            Observation::Inject { result },
        ) => {
            let want = inject(records, *barrier_every);
            match result {
                Ok(got) => {
                    expect_sequence("stream", &want, got).map_err(|f| f.requirement("06-R1"))
                }
                Err(e) if e.starts_with("panicked: ") => Err(Failure::new(list(&want), e.clone())
                    .step(format!(
                        "barrier_every = {barrier_every} is valid (any from 1 is; an input shorter \
                         than it has no barrier), and inject_barriers never panics"
                    ))
                    .requirement("06-R1")),
                Err(e) => Err(Failure::new(list(&want), format!("Err({e})"))
                    .step(format!("barrier_every = {barrier_every} is valid"))
                    .requirement("06-R1")),
            }
        }
        (Case::ZeroCadence { .. }, Observation::Inject { result }) => expect_refusal(
            result.as_ref().map(|_| ()).map_err(Clone::clone),
            "barrier_every",
            "inject_barriers",
        )
        .map_err(|f| f.requirement("06-R2")),
        (Case::NoInputs, Observation::NoInputs { result }) => {
            expect_refusal(result.clone(), "inputs", "BarrierAligner::new")
                .map_err(|f| f.requirement("06-R10"))
        }
        (Case::BadCall { call }, Observation::BadCall { result }) => match result {
            Err(message)
                if call
                    .names()
                    .is_some_and(|word| !contains_name(message, word)) =>
            {
                Err(Failure::new(
                    format!(
                        "Err(..) whose message names `{}`",
                        call.names().unwrap_or_default()
                    ),
                    format!("Err({message})"),
                )
                .step(format!(
                    "{}: the error does not say which argument is wrong",
                    call.describe()
                ))
                .requirement(call.requirement()))
            }
            Err(_) => Ok(()),
            Ok(answer) => Err(Failure::new("Err(..)", answer.clone())
                .step(format!(
                    "{}: the brief calls this an error",
                    call.describe()
                ))
                .requirement(call.requirement())),
        },
        (Case::Align { inputs, schedule }, Observation::Align { steps, error }) => {
            let model = oracle::steps(inputs, schedule, 0, &vec![0; inputs.len()]);
            judge_steps(inputs, &model, steps, error.as_deref(), "")
        }
        (Case::Snapshots { inputs, schedule }, Observation::Snapshots { prefixes }) => {
            judge_snapshots(inputs, schedule, prefixes)
        }
        (
            Case::Crash {
                inputs,
                schedule,
                crash_after,
            },
            Observation::Crash {
                before,
                restored,
                after,
                final_state,
                error,
            },
        ) => {
            let n = inputs.len();
            let model = oracle::steps(inputs, &schedule[..*crash_after], 0, &vec![0; n]);
            let err = error.as_deref();
            judge_steps(inputs, &model, before, err, "before the crash, ")?;
            // From the restore on, a difference is the snapshot's or the restore's: the
            // same run without the crash is its own, shorter, `alignment` case.
            let outs: Vec<Out> = model.iter().flat_map(|s| s.out.clone()).collect();
            let snapshots = oracle::fold_snapshots(&outs);
            let (c, snapshot) = snapshots.last().cloned().unwrap_or((0, Vec::new()));
            if *restored != c {
                return Err(Failure::new(
                    format!("restore checkpoint {c}"),
                    format!("restored checkpoint {restored}"),
                )
                .step("the last completed checkpoint at the crash")
                .requirement("06-R13"));
            }
            let cuts = oracle::cuts(inputs, c);
            let replay = oracle::replay_schedule(schedule, &cuts);
            let model_after = oracle::steps(inputs, &replay, c, &cuts);
            let context = if c == 0 {
                "after the crash (no checkpoint completed: a fresh aligner, every input from \
                 the start), "
                    .to_owned()
            } else {
                format!(
                    "after the crash, restored from checkpoint {c} (inputs replayed from just \
                     after their Barrier({c})), "
                )
            };
            judge_steps(inputs, &model_after, after, err, &context)
                .map_err(|f| f.requirement("06-R13"))?;
            let mut want = snapshot;
            want.extend(
                model_after
                    .iter()
                    .flat_map(|s| &s.out)
                    .filter_map(|o| match o {
                        Out::Record(r) => Some(r.clone()),
                        Out::Checkpoint(_) => None,
                    }),
            );
            expect_sequence("folded records", &want, final_state).map_err(|f| {
                f.step("every record must reach the state exactly once across the crash")
                    .requirement("06-R13")
            })
        }
        (Case::Contract { inputs, ops }, Observation::Contract { readings }) => {
            judge_contract(*inputs, ops, readings)
        }
        (Case::Rescale { from, to }, Observation::Align { steps, error }) => {
            let inputs = rescale::inputs(*to);
            let schedule = rescale::schedule(*to);
            let model = oracle::steps(&inputs, &schedule, 1, &vec![1; *to]);
            let context = format!(
                "after restore({to}, ..) of the snapshot of {from} inputs at checkpoint 1, "
            );
            judge_steps(&inputs, &model, steps, error.as_deref(), &context)
                .map_err(|f| f.requirement("06-R13"))
        }
        (Case::Far { completed }, Observation::Align { steps, error }) => {
            let inputs = far::inputs(*completed);
            let model = oracle::steps(&inputs, &far::SCHEDULE, *completed, &[1, 1]);
            let context = format!(
                "after restore(2, ..) of your snapshot with its counter set to say {completed} \
                 checkpoints completed (it expects checkpoint {} next), ",
                completed + 1
            );
            judge_steps(&inputs, &model, steps, error.as_deref(), &context)
                .map_err(|f| f.requirement("06-R13"))
        }
        (Case::Far { .. }, Observation::Moot { .. }) => Ok(()),
        (Case::SameBytes, Observation::SameBytes { snapshots }) => {
            super::same_bytes::judge(snapshots)
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

/// The stream `inject_barriers` must return.
fn inject(records: &[String], every: usize) -> Vec<Elem> {
    let mut stream = Vec::new();
    for (i, r) in records.iter().enumerate() {
        stream.push(Elem::Record(r.clone()));
        if (i + 1) % every == 0 {
            stream.push(Elem::Barrier(((i + 1) / every) as u64));
        }
    }
    stream
}

fn expect_refusal(result: Result<(), String>, name: &str, call: &str) -> Result<(), Failure> {
    match refusal(&result, name) {
        Refusal::Named => Ok(()),
        Refusal::Accepted(()) => Err(
            Failure::new(format!("Err(.. naming `{name}` ..)"), "Ok(..)")
                .step(format!("{call} accepted an invalid `{name}`")),
        ),
        Refusal::Unnamed(e) => Err(Failure::new(
            format!("an error message naming `{name}`"),
            format!("Err({e})"),
        )
        .step(format!(
            "{call}'s error does not say which argument is wrong"
        ))),
    }
}

/// Compares every call with the model's, naming the first one that differs.
fn judge_steps(
    inputs: &[Vec<Elem>],
    model: &[ModelStep],
    got: &[Step],
    error: Option<&str>,
    context: &str,
) -> Result<(), Failure> {
    for (k, m) in model.iter().enumerate() {
        let label = format!(
            "{context}step {} (input {} delivers {})",
            k + 1,
            m.input,
            m.element
        );
        let Some(g) = got.get(k) else {
            // The run stopped here: a refused element, or a snapshot the driver takes
            // right after a checkpoint that failed.
            let (what, rule) = match error {
                Some(e) if e.starts_with("snapshot()") => ("snapshot() failed", "06-R13"),
                _ => ("on_element failed", refused_fault(m)),
            };
            return Err(Failure::new(
                format!("Ok({})", list(&m.out)),
                error.unwrap_or("no call").to_owned(),
            )
            .step(format!("{label}: {what}"))
            .requirement(rule));
        };
        if g.out != m.out {
            let (why, requirement) = explain(inputs, m, &g.out);
            return Err(Failure::new(list(&m.out), list(&g.out))
                .step(format!("{label}: {why}"))
                .multiset(&m.out, &g.out)
                .requirement(requirement));
        }
        if let Some(i) = (0..m.blocked.len()).find(|&i| g.blocked.get(i) != m.blocked.get(i)) {
            let (c, _) = m.before.waiting_for();
            let c = c + m
                .out
                .iter()
                .filter(|o| matches!(o, Out::Checkpoint(_)))
                .count() as u64;
            let why = if m.blocked[i] {
                format!("input {i} delivered Barrier({c}) and checkpoint {c} is not complete")
            } else {
                "no checkpoint is waiting for a barrier from it".to_owned()
            };
            // A barrier that should have blocked its own input breaks "a barrier blocks
            // its input"; any other wrong answer, what `is_blocked` says.
            let completes = m.out.iter().any(|o| matches!(o, Out::Checkpoint(_)));
            let delivered_here = m.blocked[i]
                && m.input == i
                && matches!(m.element, Elem::Barrier(_))
                && !m.before.is_blocked(i);
            return Err(Failure::new(
                format!("is_blocked({i}) = {}", m.blocked[i]),
                format!("is_blocked({i}) = {}", !m.blocked[i]),
            )
            .step(format!("{label}, then is_blocked({i}): {why}"))
            .requirement(if delivered_here {
                "06-R5"
            } else if m.blocked[i] && completes {
                // Blocked again by its own held-back barrier, re-fed after the checkpoint.
                "06-R7"
            } else {
                "06-R3"
            }));
        }
        if let Some(past) = blocked_absent(m.blocked.len(), &g.blocked) {
            return Err(Failure::new(
                format!("is_blocked({past}) = false"),
                format!("is_blocked({past}) = true"),
            )
            .step(format!(
                "{label}, then is_blocked({past}): input {past} does not exist, so it is never blocked"
            ))
            .requirement("06-R3"));
        }
    }
    Ok(())
}

/// The requirement a refused valid `on_element` breaks: what the element must do.
fn refused_fault(m: &ModelStep) -> &'static str {
    match (&m.element, m.before.is_blocked(m.input)) {
        (_, true) => "06-R9",
        (Elem::Record(_), false) => "06-R4",
        (Elem::Barrier(_), false) => "06-R12",
    }
}
