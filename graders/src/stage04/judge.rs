//! Judges stage-04 observations against the watermark formula, the lateness rule and the
//! running minimum.

use super::Observation;
use super::case::Case;
use super::watermarks::{judge_combined, judge_split, judge_stream, judge_watermarks};
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
            Observation::Combined {
                restore,
                results,
                current,
            },
        ) => judge_combined(*inputs, interleaving, restore, results, current),
        (
            Case::CombinerCrash {
                interleaving,
                crash_after,
                ..
            },
            Observation::Crash { cut, uninterrupted },
        ) => match (cut.as_ref(), uninterrupted.as_ref()) {
            (
                Observation::Combined {
                    restore, results, ..
                },
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
