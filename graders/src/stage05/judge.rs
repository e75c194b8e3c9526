//! Judges stage-05 observations against the window oracle.

use super::oracle;
use super::plan::{Case, at};
use super::{AssignerSpec, Element, Fired, LateRecord, Observation, Output, Run, Time};
use crate::harness::Failure;
use crate::harness::arguments::{contains_name, expect_error_naming};
use crate::harness::case::expect_sequence;

use super::crash_judge::judge_crash;
use super::explain;
use super::late_fault::{Handed, record_fault};
use super::readings::{
    build_fault, judge_assign, judge_assign_top, judge_assign_wide, judge_current_watermark,
};

/// `Ok` when `observation` is what `case` demands.
pub fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
    match (case, observation) {
        (Case::Assign { spec, .. }, Observation::Assign { windows }) => {
            judge_assign(*spec, windows)
        }
        (Case::AssignTop { spec }, Observation::AssignTop { windows }) => {
            judge_assign_top(*spec, windows)
        }
        (Case::AssignWide { spec }, Observation::AssignWide { windows }) => {
            judge_assign_wide(*spec, windows)
        }
        (Case::Firing { spec, elements }, Observation::Run { run }) => {
            let run = built(*spec, run)?;
            judge_firing(*spec, &elements[..run.answered()], run)?;
            panicked(elements, run)
        }
        (Case::Lateness { spec, elements }, Observation::Run { run }) => {
            let run = built(*spec, run)?;
            judge_lateness(*spec, &elements[..run.answered()], run)?;
            panicked(elements, run)
        }
        (Case::State { spec, elements }, Observation::Run { run }) => {
            let run = built(*spec, run)?;
            judge_state(*spec, &elements[..run.answered()], run)?;
            panicked(elements, run)
        }
        (
            Case::Crash {
                spec,
                elements,
                crash_after,
            },
            Observation::Crash {
                restore,
                restored_size,
                cut,
                uninterrupted,
            },
        ) => judge_crash(
            elements,
            *crash_after,
            restore,
            *restored_size,
            cut,
            built(*spec, uninterrupted)?,
        ),
        (Case::WindowSums { spec, elements }, Observation::Sums { result }) => {
            let (fired, late) = result.as_ref().map_err(|e| {
                Failure::new("window_sums results", format!("Err({e})"))
                    .step("window_sums failed")
                    .requirement(build_fault(*spec))
            })?;
            judge_window_sums(*spec, elements, fired, late)
        }
        (Case::Heavy, Observation::Heavy(seen)) => super::heavy::judge(seen),
        (Case::DenseSnapshot, Observation::Dense(seen)) => super::dense::judge(seen),
        (Case::RecordAtTop { spec }, Observation::TopRecord(seen)) => {
            super::top_record::judge(*spec, seen)
        }
        (Case::AssignerFree, Observation::AssignerFree(seen)) => super::assigner_free::judge(seen),
        (Case::Errors { call }, Observation::Errors { result, boundary }) => {
            expect_error_naming_one_of(result, call.arguments(), call.spec())
                .map_err(|f| f.requirement(call.requirement()))?;
            judge_assign(call.boundary(), boundary)
        }
        (Case::PairKeys, Observation::Sums { result }) => super::pair_keys::judge(
            &result
                .as_ref()
                .map(|(f, _)| f.clone())
                .map_err(Clone::clone),
        ),
        (Case::Contract { spec, calls }, Observation::Contract { steps }) => {
            super::contract_judge::judge(*spec, calls, steps)
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

/// `Ok` when `result` is an error naming one of `arguments`; otherwise the failure of
/// [`expect_error_naming`], which names them all.
fn expect_error_naming_one_of(
    result: &Result<String, String>,
    arguments: &[&str],
    call: AssignerSpec,
) -> Result<(), Failure> {
    match result {
        Err(message) if arguments.iter().any(|a| contains_name(message, a)) => Ok(()),
        _ => expect_error_naming(result, &arguments.join("` or `"), call),
    }
}

fn built(spec: AssignerSpec, run: &Result<Run, String>) -> Result<&Run, Failure> {
    run.as_ref().map_err(|e| {
        Failure::new("a window operator", format!("Err({e})"))
            .step("building the operator failed")
            .requirement(build_fault(spec))
    })
}

/// `Ok` unless a call of the run panicked (caught in the long stream only), judged after
/// the elements answered before it: the rule of the call that panicked, on a stream the
/// brief calls valid.
fn panicked(elements: &[Element], run: &Run) -> Result<(), Failure> {
    let Some((call, message)) = &run.panicked else {
        return Ok(());
    };
    let requirement = match call.as_str() {
        // It adds the record to its windows' sums and counts, and returns.
        "on_record" => "05-R10",
        // It fires the windows it reaches, and returns them.
        "on_watermark" => "05-R2",
        "state_size" => "05-R5",
        _ => "05-R14",
    };
    let i = run.answered().min(elements.len().saturating_sub(1));
    Err(Failure::new(
        format!("{call} to return"),
        format!("{call} panicked: {message}"),
    )
    .step(format!(
        "{}: {call} panicked ({message}), though every element of the stream is valid",
        at(elements, i)
    ))
    .requirement(requirement))
}

/// `window_sums`: the results in firing order and the late records in stream order
/// (05-R17); nothing fires that the stream's own watermarks did not reach (05-R18).
fn judge_window_sums(
    spec: AssignerSpec,
    elements: &[Element],
    fired: &[Fired],
    late: &[LateRecord],
) -> Result<(), Failure> {
    let (want_fired, want_late) = oracle::window_sums(spec, elements);
    let last = elements
        .iter()
        .filter_map(|e| match e {
            Element::Watermark(wm) => Some(*wm),
            Element::Record(..) => None,
        })
        .max();
    if let Some(undue) = fired
        .iter()
        .find(|f| last.is_none_or(|wm| f.end.saturating_sub(1) > wm) && !want_fired.contains(f))
    {
        return Err(Failure::new(
            format!("fired results = {want_fired:?}"),
            format!("fired results = {fired:?}"),
        )
        .step(format!(
            "{undue:?} came out, but no watermark of the stream reached its end - 1 = {}: only the stream's watermarks fire windows, nothing fires at the end of the elements",
            undue.end.saturating_sub(1)
        ))
        .requirement("05-R18"));
    }
    expect_sequence("fired results", &want_fired, fired).map_err(|f| f.requirement("05-R17"))?;
    expect_sequence("late records", &want_late, late).map_err(|f| f.requirement("05-R17"))
}

/// An answer of the operator in the notation of the expected ones.
fn answer(output: Option<&Output>) -> String {
    match output {
        Some(Output::Fired(fired)) => show_fired(fired),
        Some(Output::Late(record)) => late(record.as_ref()),
        None => "no answer".to_owned(),
    }
}

/// `on_record`'s answer, in the notation of the elements: `Some(a@1=2)` (late) or `None`.
fn late(record: Option<&LateRecord>) -> String {
    record.map_or_else(
        || "None".to_owned(),
        |(key, ts, value)| format!("Some({key}@{ts}={value})"),
    )
}

fn show_fired(fired: &[Fired]) -> String {
    let shown: Vec<String> = fired.iter().map(Fired::to_string).collect();
    format!("[{}]", shown.join(", "))
}

fn judge_firing(spec: AssignerSpec, elements: &[Element], run: &Run) -> Result<(), Failure> {
    let models = oracle::models(spec, elements);
    let mut answered = explain::Answered::default();
    for (i, element) in elements.iter().enumerate() {
        let Element::Watermark(wm) = element else {
            answered
                .late
                .push(matches!(run.outputs.get(i), Some(Output::Late(Some(_)))));
            continue;
        };
        let w = models[i].clone().watermark(*wm);
        let got = match run.outputs.get(i) {
            Some(Output::Fired(got)) => got,
            other => {
                return Err(Failure::new(show_fired(&w), answer(other))
                    .step(format!("{}: no results", at(elements, i)))
                    .requirement("05-R2"));
            }
        };
        if *got != w {
            let (reason, requirement) =
                explain::watermark_fault(&models[i], *wm, &w, got, &answered);
            return Err(Failure::new(show_fired(&w), show_fired(got))
                .step(format!("{}: {reason}", at(elements, i)))
                .multiset(&w, got)
                .requirement(requirement));
        }
        answered.fired.extend(got.iter().cloned().map(|f| (f, *wm)));
    }
    judge_current_watermark(elements, run)
}

fn judge_lateness(spec: AssignerSpec, elements: &[Element], run: &Run) -> Result<(), Failure> {
    let models = oracle::models(spec, elements);
    // What the operator answered so far: the explanation of a wrong answer is its own.
    let mut answered = explain::Answered::default();
    for (i, element) in elements.iter().enumerate() {
        answered.watermark = i
            .checked_sub(1)
            .and_then(|j| run.watermarks.get(j).copied().flatten());
        let Element::Record(key, ts, value) = element else {
            if let (Element::Watermark(wm), Some(Output::Fired(got))) =
                (element, run.outputs.get(i))
            {
                answered.fired.extend(got.iter().cloned().map(|f| (f, *wm)));
            }
            continue;
        };
        let w = models[i].clone().record(key, *ts, *value);
        let got = match run.outputs.get(i) {
            Some(Output::Late(got)) => got,
            other => {
                return Err(Failure::new(late(w.as_ref()), answer(other))
                    .step(format!("{}: no answer", at(elements, i)))
                    .requirement("05-R10"));
            }
        };
        if *got != w {
            let handed = Handed { key, ts: *ts };
            let (reason, requirement) = record_fault(
                spec,
                &models[i],
                &handed,
                w.as_ref(),
                got.as_ref(),
                &answered,
            );
            return Err(Failure::new(late(w.as_ref()), late(got.as_ref()))
                .step(format!("{}: {reason}", at(elements, i)))
                .requirement(requirement));
        }
    }
    Ok(())
}

fn judge_state(spec: AssignerSpec, elements: &[Element], run: &Run) -> Result<(), Failure> {
    let (_, open) = oracle::run(spec, elements);
    for (i, (want, got)) in open.iter().zip(&run.sizes).enumerate() {
        if want.len() != *got {
            let listed: Vec<String> = want
                .iter()
                .map(|((s, e), k)| format!("{k} [{}, {})", Time(*s), Time(*e)))
                .collect();
            let end = if i + 1 == elements.len() {
                " (the last watermark passed every window: nothing may be left)"
            } else {
                ""
            };
            return Err(Failure::new(
                format!("state_size() = {}", want.len()),
                format!("state_size() = {got}"),
            )
            .step(format!(
                "after element {} ({}), the open (window, key) aggregates are [{}]{end}",
                i + 1,
                elements[i],
                listed.join(", ")
            ))
            .requirement("05-R5"));
        }
    }
    Ok(())
}
