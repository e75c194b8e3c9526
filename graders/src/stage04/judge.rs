//! Judges stage-04 observations against the watermark formula, the lateness rule and the
//! running minimum.

use super::plan::Case;
use super::{Element, Observation, oracle};
use crate::harness::Failure;
use crate::harness::arguments::expect_error_naming;

/// `Ok` when `observation` is what `case` demands.
pub fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
    match (case, observation) {
        (
            Case::Generator {
                arrivals,
                max_delay,
            },
            Observation::Watermarks {
                restore,
                watermarks,
            },
        ) => judge_watermarks(arrivals, *max_delay, restore, watermarks),
        (
            Case::GeneratorCrash {
                arrivals,
                crash_after,
                ..
            },
            Observation::Crash { cut, uninterrupted },
        ) => match (cut.as_ref(), uninterrupted.as_ref()) {
            (
                Observation::Watermarks {
                    restore,
                    watermarks,
                },
                Observation::Watermarks {
                    watermarks: whole, ..
                },
            ) => {
                if let Err(e) = restore {
                    return Err(restore_failed(*crash_after, e));
                }
                judge_same_run(*crash_after, whole, watermarks, |i| {
                    if i == 0 {
                        "before the first record".to_owned()
                    } else {
                        format!("after record {i} (timestamp {})", arrivals[i - 1].0)
                    }
                })
            }
            _ => Err(Failure::new("two generator runs", format!("{cut:?}"))),
        },
        (
            Case::WithWatermarks {
                arrivals,
                max_delay,
            },
            Observation::Stream { elements },
        ) => judge_stream(arrivals, *max_delay, elements),
        (
            Case::Lateness {
                arrivals,
                max_delay,
            },
            Observation::Split { on_time, late },
        ) => judge_split(arrivals, *max_delay, on_time, late),
        (
            Case::Combiner {
                inputs,
                interleaving,
            },
            Observation::Combined { restore, results },
        ) => judge_combined(*inputs, interleaving, restore, results),
        (
            Case::CombinerCrash {
                interleaving,
                crash_after,
                ..
            },
            Observation::Crash { cut, uninterrupted },
        ) => match (cut.as_ref(), uninterrupted.as_ref()) {
            (
                Observation::Combined { restore, results },
                Observation::Combined { results: whole, .. },
            ) => {
                if let Err(e) = restore {
                    return Err(restore_failed(*crash_after, e));
                }
                judge_same_run(*crash_after, whole, results, |i| {
                    let (input, ts) = interleaving[i];
                    format!("at step {} on_watermark({input}, {ts})", i + 1)
                })
            }
            _ => Err(Failure::new("two combiner runs", format!("{cut:?}"))),
        },
        (Case::Errors { call }, Observation::Errors { result }) => {
            expect_error_naming(result, call.argument(), call.code())
        }
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

fn restore_failed(crash_after: usize, e: &str) -> Failure {
    Failure::new("snapshot() then restore(..) succeed", format!("Err({e})")).step(format!(
        "snapshot or restore after {crash_after} element(s) failed"
    ))
}

/// The cut run must say exactly what the uninterrupted run says, from the restore on.
fn judge_same_run<T: std::fmt::Debug + PartialEq>(
    crash_after: usize,
    whole: &[T],
    cut: &[T],
    at: impl Fn(usize) -> String,
) -> Result<(), Failure> {
    if let Some(i) = whole.iter().zip(cut).position(|(w, c)| w != c) {
        return Err(Failure::new(
            format!("the uninterrupted run: {whole:?}"),
            format!("with a restore after {crash_after}: {cut:?}"),
        )
        .step(format!(
            "{}, the restored instance says {:?} where the uninterrupted one says {:?}: something it needs is not in its snapshot",
            at(i),
            cut[i],
            whole[i]
        )));
    }
    if whole.len() != cut.len() {
        return Err(Failure::new(
            format!("{} results", whole.len()),
            format!("{} results", cut.len()),
        ));
    }
    Ok(())
}

fn judge_watermarks(
    arrivals: &[(u64, u32)],
    max_delay: u64,
    restore: &Result<(), String>,
    got: &[Option<u64>],
) -> Result<(), Failure> {
    if let Err(e) = restore {
        return Err(Failure::new("a generator", format!("Err({e})")));
    }
    let mut want = vec![None];
    want.extend(oracle::watermarks(arrivals, max_delay));
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        if w == g {
            continue;
        }
        let step = if i == 0 {
            "a generator that has seen no record has no watermark".to_owned()
        } else {
            let max_ts = arrivals[..i].iter().map(|(ts, _)| *ts).max().unwrap_or(0);
            let why = match w {
                Some(w) => format!("{max_ts} - {max_delay} - 1 = {w}"),
                None => format!("None, since max_ts {max_ts} <= max_delay {max_delay}"),
            };
            format!(
                "after record {i} (timestamp {}), current_watermark() is {g:?}; the largest timestamp so far is {max_ts}, so it must be {why}",
                arrivals[i - 1].0
            )
        };
        return Err(Failure::new(format!("{want:?}"), format!("{got:?}")).step(step));
    }
    if want.len() != got.len() {
        return Err(Failure::new(
            format!("{} readings", want.len()),
            format!("{} readings", got.len()),
        ));
    }
    Ok(())
}

fn show(elements: &[Element]) -> String {
    let shown: Vec<String> = elements.iter().map(Element::to_string).collect();
    format!("[{}]", shown.join(", "))
}

fn judge_stream(arrivals: &[(u64, u32)], max_delay: u64, got: &[Element]) -> Result<(), Failure> {
    let want = oracle::with_watermarks(arrivals, max_delay);
    if want == got {
        return Ok(());
    }
    let n = want
        .iter()
        .zip(got)
        .position(|(w, g)| w != g)
        .unwrap_or(want.len().min(got.len()));
    let last_emitted = got[..n].iter().rev().find_map(|e| match e {
        Element::Watermark(wm) => Some(*wm),
        Element::Record(..) => None,
    });
    let prefix = show(&got[..n]);
    let step = match (want.get(n), got.get(n)) {
        (_, Some(Element::Watermark(wm))) if last_emitted.is_some_and(|last| *wm <= last) => {
            format!(
                "after {prefix} came W({wm}), but the last watermark emitted was W({}): a watermark is emitted only when it advances",
                last_emitted.unwrap_or_default()
            )
        }
        (Some(w), Some(g)) => format!("after {prefix} came {g}, expected {w}"),
        (Some(w), None) => format!("the stream ends after {prefix}; expected {w} next"),
        (None, Some(g)) => format!("after {prefix}, which is complete, came {g}"),
        (None, None) => "the streams differ".to_owned(),
    };
    Err(Failure::new(show(&want), show(got)).step(step))
}

fn judge_split(
    arrivals: &[(u64, u32)],
    max_delay: u64,
    on_time: &[(u64, u32)],
    late: &[(u64, u32)],
) -> Result<(), Failure> {
    let stream = oracle::with_watermarks(arrivals, max_delay);
    let (want_on_time, want_late) = oracle::split_late(&stream);
    if want_on_time == on_time && want_late == late {
        return Ok(());
    }
    let mut seen: Option<u64> = None;
    let mut step = format!(
        "the records must come out in stream order, on time {want_on_time:?} and late {want_late:?}"
    );
    for element in &stream {
        match *element {
            Element::Watermark(wm) => seen = seen.max(Some(wm)),
            Element::Record(ts, id) => {
                let is_late = seen.is_some_and(|wm| ts <= wm);
                let called_late = late.contains(&(ts, id));
                let called_on_time = on_time.contains(&(ts, id));
                if called_late != is_late || called_on_time == is_late {
                    let rule = match seen {
                        Some(wm) if is_late => format!("W({wm}) came before it and {ts} <= {wm}"),
                        Some(wm) => format!("the largest watermark before it is W({wm}) < {ts}"),
                        None => "no watermark came before it".to_owned(),
                    };
                    let bound = if oracle::within_bound(arrivals, max_delay) {
                        format!(" (this order stays within max_delay {max_delay}: nothing is late)")
                    } else {
                        String::new()
                    };
                    step = format!(
                        "record (ts {ts}, id {id}) must be {}: {rule}{bound}",
                        if is_late { "late" } else { "on time" }
                    );
                    break;
                }
            }
        }
    }
    Err(Failure::new(
        format!("on time {want_on_time:?}, late {want_late:?}"),
        format!("on time {on_time:?}, late {late:?}"),
    )
    .step(format!("in {}: {step}", show(&stream))))
}

fn judge_combined(
    inputs: usize,
    interleaving: &[(usize, u64)],
    restore: &Result<(), String>,
    got: &[Result<Option<u64>, String>],
) -> Result<(), Failure> {
    if let Err(e) = restore {
        return Err(Failure::new("a combiner", format!("Err({e})")));
    }
    let want = oracle::combined(inputs, interleaving);
    let mut marks: Vec<Option<u64>> = vec![None; inputs];
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        let (input, ts) = interleaving[i];
        marks[input] = marks[input].max(Some(ts));
        if g.as_ref() == Ok(w) {
            continue;
        }
        let state = if marks.iter().any(Option::is_none) {
            let silent: Vec<usize> = (0..inputs).filter(|&j| marks[j].is_none()).collect();
            format!("inputs {silent:?} have not reported yet, so there is no combined watermark")
        } else {
            format!(
                "the inputs' watermarks are {:?}, whose minimum is {}; the last combined watermark reported was {:?}",
                marks.iter().flatten().collect::<Vec<_>>(),
                marks.iter().flatten().min().copied().unwrap_or_default(),
                want[..i].iter().rev().flatten().next()
            )
        };
        return Err(
            Failure::new(format!("{want:?}"), format!("{got:?}")).step(format!(
                "step {} on_watermark({input}, {ts}) returned {g:?}, expected {w:?}: {state}",
                i + 1
            )),
        );
    }
    if want.len() != got.len() {
        return Err(Failure::new(
            format!("{} results", want.len()),
            format!("{} results", got.len()),
        ));
    }
    Ok(())
}
