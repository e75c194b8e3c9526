//! Judges stage-04 observations against the watermark formula, the lateness rule and the
//! running minimum.

use super::Observation;
use super::case::Case;
use super::contract::judge_contract;
use super::oracle;
use super::watermarks::{
    judge_combined, judge_split, judge_stream, judge_watermarks, split_returned,
};
use crate::harness::Failure;
use crate::stage03::guard::Answer;

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
                judge_same_run(*crash_after, whole, watermarks, "04-R13", |i| {
                    if i == 0 {
                        "before the first record".to_owned()
                    } else {
                        format!("after record {i} (timestamp {})", arrivals[i - 1].0)
                    }
                })
            }
            _ => Err(Failure::new("two generator runs", format!("{cut:?}")).requirement("04-R13")),
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
            Observation::Split {
                on_time,
                late,
                panicked,
            },
        ) => {
            let stream = oracle::with_watermarks(arrivals, *max_delay);
            split_returned(&stream, panicked.as_deref())
                .and_then(|()| judge_split(&stream, Some((arrivals, *max_delay)), on_time, late))
        }
        (
            Case::Split { elements },
            Observation::Split {
                on_time,
                late,
                panicked,
            },
        ) => split_returned(elements, panicked.as_deref())
            .and_then(|()| judge_split(elements, None, on_time, late)),
        (Case::Contract { subject, ops }, Observation::Contract { readings }) => {
            judge_contract(*subject, ops, readings)
        }
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
                judge_same_run(*crash_after, whole, results, "04-R14", |i| {
                    let (input, ts) = interleaving[i];
                    format!("at step {} on_watermark({input}, {ts})", i + 1)
                })
            }
            _ => Err(Failure::new("two combiner runs", format!("{cut:?}")).requirement("04-R13")),
        },
        (Case::Errors { call }, Observation::Errors { answer }) => judge_error(*call, answer),
        _ => Err(Failure::new(
            "an observation of the same kind as the case",
            format!("{observation:?}"),
        )),
    }
}

fn restore_failed(crash_after: usize, e: &str) -> Failure {
    Failure::new("snapshot() then restore(..) succeed", format!("Err({e})"))
        .step(format!(
            "snapshot or restore after {crash_after} element(s) failed"
        ))
        .requirement("04-R13")
}

/// `Ok` when the invalid call was refused with an error (naming its argument, if any).
fn judge_error(call: super::ErrorCall, answer: &Answer<String>) -> Result<(), Failure> {
    let expected = call.expected();
    let fail = |step: String| {
        Err(Failure::new(expected.clone(), answer.show())
            .step(step)
            .requirement(call.requirement()))
    };
    match (answer, call.argument()) {
        (Answer::Panicked(m), _) => fail(format!(
            "{} panicked ({m}) instead of returning an error",
            call.code()
        )),
        (Answer::Ok(value), _) => fail(format!("{} was accepted, returning {value}", call.code())),
        (Answer::Err(message), Some(argument))
            if !crate::harness::arguments::contains_name(message, argument) =>
        {
            fail("the error does not say which argument is wrong".to_owned())
        }
        (Answer::Err(_), _) => Ok(()),
    }
}

/// The cut run must say exactly what the uninterrupted run says, from the restore on.
fn judge_same_run<T: std::fmt::Debug + PartialEq>(
    crash_after: usize,
    whole: &[T],
    cut: &[T],
    id: &'static str,
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
        ))
        .requirement(id));
    }
    if whole.len() != cut.len() {
        return Err(Failure::new(
            format!("{} results", whole.len()),
            format!("{} results", cut.len()),
        )
        .requirement(id));
    }
    Ok(())
}
