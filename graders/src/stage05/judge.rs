//! Judges stage-05 observations against the window oracle.

use std::collections::BTreeSet;

use super::oracle::{self, Expected};
use super::plan::{Case, show};
use super::{AssignerSpec, Element, Fired, LateRecord, Observation, Output, Run};
use crate::harness::Failure;
use crate::harness::arguments::expect_error_naming;
use crate::harness::case::expect_sequence;

use super::readings::{judge_assign, judge_current_watermark, show_windows};

/// `Ok` when `observation` is what `case` demands.
pub fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
    match (case, observation) {
        (Case::Assign { spec, .. }, Observation::Assign { windows }) => {
            judge_assign(*spec, windows)
        }
        (Case::Firing { spec, elements }, Observation::Run { run }) => {
            judge_firing(*spec, elements, built(run)?)
        }
        (Case::Lateness { spec, elements }, Observation::Run { run }) => {
            judge_lateness(*spec, elements, built(run)?)
        }
        (Case::State { spec, elements }, Observation::Run { run }) => {
            judge_state(*spec, elements, built(run)?)
        }
        (
            Case::Crash {
                elements,
                crash_after,
                ..
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
            built(uninterrupted)?,
        ),
        (Case::WindowSums { spec, elements }, Observation::Sums { result }) => {
            let (fired, late) = result.as_ref().map_err(|e| {
                Failure::new("window_sums results", format!("Err({e})")).step("window_sums failed")
            })?;
            let (want_fired, want_late) = oracle::window_sums(*spec, elements);
            expect_sequence("fired results", &want_fired, fired)?;
            expect_sequence("late records", &want_late, late)
        }
        (Case::Errors { call }, Observation::Errors { result, boundary }) => {
            expect_error_naming(result, call.argument(), call.spec())?;
            judge_assign(call.boundary(), boundary)
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

fn built(run: &Result<Run, String>) -> Result<&Run, Failure> {
    run.as_ref().map_err(|e| {
        Failure::new("a window operator", format!("Err({e})")).step("building the operator failed")
    })
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

/// "at element 5 (W(3)), after [a@1=2, ...]".
fn at(elements: &[Element], i: usize) -> String {
    format!(
        "at element {} ({}), after {}",
        i + 1,
        elements[i],
        show(&elements[..i])
    )
}

fn judge_firing(spec: AssignerSpec, elements: &[Element], run: &Run) -> Result<(), Failure> {
    let (want, _) = oracle::run(spec, elements);
    let mut fired_before: Vec<(Fired, u64)> = Vec::new();
    for (i, (element, expected)) in elements.iter().zip(&want).enumerate() {
        let (Element::Watermark(wm), Expected::Fired(w)) = (element, expected) else {
            continue;
        };
        let got = match run.outputs.get(i) {
            Some(Output::Fired(got)) => got,
            other => {
                return Err(Failure::new(show_fired(w), answer(other))
                    .step(format!("{}: no results", at(elements, i))));
            }
        };
        if got != w {
            let id = |f: &Fired| (f.start, f.end, f.key.clone());
            let want_ids: BTreeSet<_> = w.iter().map(id).collect();
            let reason = if let Some(extra) = got.iter().find(|f| !want_ids.contains(&id(f))) {
                if let Some((_, earlier)) = fired_before.iter().find(|(f, _)| id(f) == id(extra)) {
                    format!(
                        "{} fired again; it already fired at W({earlier})",
                        window_of(extra)
                    )
                } else if extra.end - 1 > *wm {
                    format!(
                        "{} fired early: its last timestamp {} is above {element}",
                        window_of(extra),
                        extra.end - 1
                    )
                } else {
                    format!("{} fired, but no record reached it", window_of(extra))
                }
            } else if let Some(missing) = w.iter().find(|f| !got.iter().any(|g| id(g) == id(f))) {
                format!(
                    "{} did not fire, though {} >= its end - 1 = {} for the first time",
                    window_of(missing),
                    element,
                    missing.end - 1
                )
            } else if let Some((g, f)) = got.iter().zip(w).find(|(g, f)| id(g) == id(f) && g != f) {
                format!(
                    "{} has sum {} count {}, expected sum {} count {} (the records that reached it before this call)",
                    window_of(f),
                    g.sum,
                    g.count,
                    f.sum,
                    f.count
                )
            } else {
                "the right results in the wrong order: by window (start, end), then key".to_owned()
            };
            return Err(Failure::new(show_fired(w), show_fired(got))
                .step(format!("{}: {reason}", at(elements, i)))
                .multiset(w, got));
        }
        fired_before.extend(got.iter().cloned().map(|f| (f, *wm)));
    }
    judge_current_watermark(elements, run)
}

fn window_of(fired: &Fired) -> String {
    format!(
        "window [{}, {}) of key {:?}",
        fired.start, fired.end, fired.key
    )
}

fn judge_lateness(spec: AssignerSpec, elements: &[Element], run: &Run) -> Result<(), Failure> {
    let (want, _) = oracle::run(spec, elements);
    let mut watermark: Option<u64> = None;
    for (i, (element, expected)) in elements.iter().zip(&want).enumerate() {
        match (element, expected) {
            (Element::Watermark(wm), _) => watermark = watermark.max(Some(*wm)),
            (Element::Record(_, ts, _), Expected::Late(w)) => {
                let got = match run.outputs.get(i) {
                    Some(Output::Late(got)) => got,
                    other => {
                        return Err(Failure::new(late(w.as_ref()), answer(other))
                            .step(format!("{}: no answer", at(elements, i))));
                    }
                };
                if got == w {
                    continue;
                }
                let windows = oracle::windows(spec, *ts);
                let open: Vec<(u64, u64)> = windows
                    .iter()
                    .copied()
                    .filter(|&(_, end)| watermark.is_none_or(|wm| end - 1 > wm))
                    .collect();
                let reason = match watermark {
                    _ if open.is_empty() => format!(
                        "every window of timestamp {ts}, {}, fired already (end - 1 <= {}): the record is late and counts nowhere",
                        show_windows(&windows),
                        watermark.unwrap_or_default()
                    ),
                    Some(wm) => format!(
                        "its windows {} have not fired yet (end - 1 > {wm}): the record counts there and is not late",
                        show_windows(&open)
                    ),
                    None => "no watermark came yet: nothing is late".to_owned(),
                };
                return Err(Failure::new(late(w.as_ref()), late(got.as_ref()))
                    .step(format!("{}: {reason}", at(elements, i))));
            }
            _ => {}
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
                .map(|((s, e), k)| format!("{k} [{s}, {e})"))
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
            )));
        }
    }
    Ok(())
}

fn judge_crash(
    elements: &[Element],
    crash_after: usize,
    restore: &Result<(), String>,
    restored_size: usize,
    cut: &Run,
    whole: &Run,
) -> Result<(), Failure> {
    if let Err(e) = restore {
        return Err(
            Failure::new("snapshot() then restore(..) succeed", format!("Err({e})")).step(format!(
                "snapshot or restore after {crash_after} element(s) failed"
            )),
        );
    }
    let size_before = if crash_after == 0 {
        0
    } else {
        whole
            .sizes
            .get(crash_after - 1)
            .copied()
            .unwrap_or_default()
    };
    if restored_size != size_before {
        return Err(Failure::new(
            format!("state_size() = {size_before} right after the restore"),
            format!("state_size() = {restored_size}"),
        )
        .step("the restored operator does not hold the open windows the snapshot was taken with"));
    }
    for (i, (w, g)) in whole.outputs.iter().zip(&cut.outputs).enumerate() {
        if w != g {
            return Err(Failure::new(
                format!("the uninterrupted run: {w:?}"),
                format!("after the restore: {g:?}"),
            )
            .step(format!(
                "{}: the restored operator answers {g:?} where the uninterrupted one answers {w:?}: something it needs (open windows, the current watermark) is not in its snapshot",
                at(elements, i)
            )));
        }
    }
    if whole.outputs.len() != cut.outputs.len() {
        return Err(Failure::new(
            format!("{} answers", whole.outputs.len()),
            format!("{} answers", cut.outputs.len()),
        ));
    }
    Ok(())
}
