//! Runs one stage-04 case against an implementation and records what happened.

use serde::{Deserialize, Serialize};

use super::case::{Case, ErrorCall};
use super::contract::{Reading, drive_contract};
use super::forged::{unreal_combiner, unreal_generator, unreal_maxed_generator};
use super::{Element, Implementation, oracle};
use crate::harness::counter::numbers_that_differ;
use crate::harness::damaged::{emptied, restore_retyped};
use crate::harness::padding::paddings;
use crate::stage03::guard::{Answer, caught};

/// What the driver saw while running one case. `Err` holds an error's message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// `current_watermark()` before the first record, then after each record.
    Watermarks {
        /// `Err` when snapshot or restore failed.
        restore: Result<(), String>,
        /// One entry more than records fed.
        watermarks: Vec<Option<u64>>,
    },
    /// The stream `with_watermarks` made.
    Stream {
        /// Its elements.
        elements: Vec<Element>,
    },
    /// What `split_late` returned.
    Split {
        /// Records `(ts, id)` judged on time.
        on_time: Vec<(u64, u32)>,
        /// Records `(ts, id)` judged late.
        late: Vec<(u64, u32)>,
        /// The panic's message, when `split_late` panicked (both lists then empty).
        #[serde(default)]
        panicked: Option<String>,
    },
    /// What `on_watermark` returned at each step.
    Combined {
        /// `Err` when `new`, snapshot or restore failed.
        restore: Result<(), String>,
        /// One entry per step run.
        results: Vec<Result<Option<u64>, String>>,
        /// `current()` after each step run.
        current: Vec<Option<u64>>,
    },
    /// A run cut by a snapshot and a restore, beside the same run uninterrupted.
    Crash {
        /// The cut run (a `Watermarks` or `Combined` observation).
        cut: Box<Observation>,
        /// The uninterrupted run.
        uninterrupted: Box<Observation>,
    },
    /// Every step of a contract sequence: what it answered, then what was read.
    Contract {
        /// One reading per step, the fresh instance's first.
        readings: Vec<Reading>,
    },
    /// The answer to an invalid call, the value it returned shown as text.
    Errors {
        /// What the call answered.
        answer: Answer<String>,
    },
}

fn message(e: anyhow::Error) -> String {
    format!("{e:#}")
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    match case {
        Case::Generator {
            arrivals,
            max_delay,
        } => generate::<I>(arrivals, *max_delay, None),
        Case::GeneratorCrash {
            arrivals,
            max_delay,
            crash_after,
        } => Observation::Crash {
            cut: Box::new(generate::<I>(arrivals, *max_delay, Some(*crash_after))),
            uninterrupted: Box::new(generate::<I>(arrivals, *max_delay, None)),
        },
        Case::WithWatermarks {
            arrivals,
            max_delay,
        } => Observation::Stream {
            elements: I::with_watermarks(arrivals, *max_delay),
        },
        Case::Lateness {
            arrivals,
            max_delay,
        } => split::<I>(&oracle::with_watermarks(arrivals, *max_delay)),
        Case::Combiner {
            inputs,
            interleaving,
        } => combine::<I>(*inputs, interleaving, None),
        Case::CombinerCrash {
            inputs,
            interleaving,
            crash_after,
        } => Observation::Crash {
            cut: Box::new(combine::<I>(*inputs, interleaving, Some(*crash_after))),
            uninterrupted: Box::new(combine::<I>(*inputs, interleaving, None)),
        },
        Case::Split { elements } => split::<I>(elements),
        Case::Contract { subject, ops } => Observation::Contract {
            readings: drive_contract::<I>(*subject, ops),
        },
        Case::Errors { call } => Observation::Errors {
            answer: caught(|| invalid_call::<I>(*call)),
        },
    }
}

/// Makes the invalid call; what it returned shown as text. A restore of junk bytes that
/// are the implementation's own snapshot ([`ErrorCall::is_junk`]) answers as the refusal
/// asked of every other implementation.
fn invalid_call<I: Implementation>(call: ErrorCall) -> anyhow::Result<String> {
    let junk = call.is_junk();
    match call {
        ErrorCall::NoInputs => I::combiner(0).map(|_| "a combiner".to_owned()),
        ErrorCall::UnknownInput => I::combiner(2)
            .and_then(|mut c| I::on_watermark(&mut c, 2, 5))
            .map(|r| format!("{r:?}")),
        ErrorCall::FarInput => I::combiner(2)
            .and_then(|mut c| I::on_watermark(&mut c, usize::MAX, 5))
            .map(|r| format!("{r:?}")),
        ErrorCall::WrappedInput => I::combiner(2)
            .and_then(|mut c| I::on_watermark(&mut c, 1 << 32, 5))
            .map(|r| format!("{r:?}")),
        ErrorCall::GeneratorGarbage => restore_generator::<I>(b"not a snapshot", junk),
        ErrorCall::CombinerGarbage => restore_combiner::<I>(b"not a snapshot", junk),
        ErrorCall::GeneratorEmptyObject => restore_generator::<I>(b"{}", junk),
        ErrorCall::CombinerEmptyObject => restore_combiner::<I>(b"{}", junk),
        ErrorCall::GeneratorEmptyArray => restore_generator::<I>(b"[]", junk),
        ErrorCall::GeneratorNull => restore_generator::<I>(b"null", junk),
        ErrorCall::CombinerEmptyArray => restore_combiner::<I>(b"[]", junk),
        ErrorCall::CombinerNull => restore_combiner::<I>(b"null", junk),
        ErrorCall::GeneratorTrailing => {
            let bytes = I::generator_snapshot(&I::generator(2))?;
            first_restored(&bytes, |b| restore_generator::<I>(b, junk))
        }
        ErrorCall::CombinerTrailing => {
            let bytes = I::combiner_snapshot(&I::combiner(2)?)?;
            first_restored(&bytes, |b| restore_combiner::<I>(b, junk))
        }
        ErrorCall::GeneratorHalf => {
            let mut generator = I::generator(2);
            I::on_event(&mut generator, 7);
            let bytes = I::generator_snapshot(&generator)?;
            restore_generator::<I>(&bytes[..bytes.len() / 2], junk)
        }
        ErrorCall::CombinerHalf => {
            let bytes = reported_combiner::<I>()?;
            restore_combiner::<I>(&bytes[..bytes.len() / 2], junk)
        }
        ErrorCall::GeneratorRetyped => {
            let mut generator = I::generator(2);
            I::on_event(&mut generator, 7);
            restore_retyped(&I::generator_snapshot(&generator)?, |bytes| {
                restore_generator::<I>(bytes, junk)
            })
        }
        ErrorCall::CombinerRetyped => restore_retyped(&reported_combiner::<I>()?, |bytes| {
            restore_combiner::<I>(bytes, junk)
        }),
        ErrorCall::CombinerEmptied => match emptied(&I::combiner_snapshot(&I::combiner(2)?)?) {
            Some(bytes) => restore_combiner::<I>(&bytes, junk),
            None => anyhow::bail!("its snapshot holds no list"),
        },
        ErrorCall::CombinerOutOfStep => first_forged_restored::<I>(out_of_step::<I>()?, junk),
        ErrorCall::CombinerSingleOutOfStep => {
            first_forged_restored::<I>(single_out_of_step::<I>()?, junk)
        }
        ErrorCall::GeneratorNumberChanged => match unreal_generator::<I>()? {
            Some(restored) => Ok(restored),
            None => anyhow::bail!("each is refused, or restores a generator some run makes"),
        },
        ErrorCall::GeneratorNumbersMax => match unreal_maxed_generator::<I>()? {
            Some(restored) => Ok(restored),
            None => anyhow::bail!("each is refused, or restores a generator some run makes"),
        },
        ErrorCall::CombinerNumberChanged => match unreal_combiner::<I>()? {
            Some(restored) => Ok(restored),
            None => anyhow::bail!("each is refused, or restores a combiner some run makes"),
        },
    }
}

/// The implementation's own snapshot of a combiner at inputs 3 and 5 with its combined
/// watermark set to 4, above the minimum, to 2, below it (a check that only asks
/// whether it is ahead of the inputs misses that one), and to 5, the other input's (a
/// check that only asks whether it is one of the inputs' misses that one); and, where it writes "none" as
/// `null` there, its snapshot after input 0 alone reported 4 with the combined watermark
/// set to 4 (a minimum taken over the inputs that reported, not over all). `None` when no
/// number of it is the combined watermark alone: the one number that moves when the
/// inputs go to 4 and 5 (the minimum moves with the first) and not when they go to 5 and
/// 3 (the minimum stays).
fn out_of_step<I: Implementation>() -> anyhow::Result<Option<Vec<Vec<u8>>>> {
    let Some((base, combined)) = combined_pointer::<I>()? else {
        return Ok(None);
    };
    let Some(mut forged): Option<Vec<Vec<u8>>> = [4, 2, 5]
        .into_iter()
        .map(|value| set_at(&base, &combined, value))
        .collect()
    else {
        return Ok(None);
    };
    let mut silent = I::combiner(2)?;
    I::on_watermark(&mut silent, 0, 4)?;
    forged.extend(null_set_to::<I>(&silent, &combined, 4)?);
    Ok(Some(forged))
}

/// The implementation's own snapshot of a combiner of one input, its combined watermark
/// (where [`combined_pointer`] finds it) set where the input does not put it: after the
/// input reported 3, to 4 and to 2; and, where it writes none as `null` there, before any
/// report, to 5. One input is no reason to trust the combined watermark: it is the
/// input's. `None` when the combined watermark cannot be told, or is not 3 there.
fn single_out_of_step<I: Implementation>() -> anyhow::Result<Option<Vec<Vec<u8>>>> {
    let Some((_, combined)) = combined_pointer::<I>()? else {
        return Ok(None);
    };
    let mut reported = I::combiner(1)?;
    I::on_watermark(&mut reported, 0, 3)?;
    let Ok(base) = serde_json::from_slice::<serde_json::Value>(&I::combiner_snapshot(&reported)?)
    else {
        return Ok(None);
    };
    if base.pointer(&combined).and_then(serde_json::Value::as_u64) != Some(3) {
        return Ok(None);
    }
    let mut forged: Vec<Vec<u8>> = [4, 2]
        .into_iter()
        .filter_map(|value| set_at(&base, &combined, value))
        .collect();
    forged.extend(null_set_to::<I>(&I::combiner(1)?, &combined, 5)?);
    Ok(Some(forged))
}

/// The first of the `forged` combiner snapshots that restores, as the answer: each must be
/// refused. `None` (no combined watermark could be told) fails the case.
fn first_forged_restored<I: Implementation>(
    forged: Option<Vec<Vec<u8>>>,
    junk: bool,
) -> anyhow::Result<String> {
    let Some(forged) = forged else {
        anyhow::bail!("its snapshot keeps no combined watermark that can be told")
    };
    forged
        .iter()
        .map(|bytes| restore_combiner::<I>(bytes, junk))
        .find(Result::is_ok)
        .unwrap_or_else(|| Err(anyhow::anyhow!("each forged snapshot is refused")))
}

/// `snapshot` with the number at `pointer` set to `value`, as bytes; `None` when nothing
/// is at `pointer`.
fn set_at(snapshot: &serde_json::Value, pointer: &str, value: u64) -> Option<Vec<u8>> {
    let mut forged = snapshot.clone();
    *forged.pointer_mut(pointer)? = serde_json::Value::from(value);
    serde_json::to_vec(&forged).ok()
}

/// The implementation's own snapshot of `combiner` with its `null` at `combined` set to
/// `value`; `None` when the snapshot writes no `null` there.
fn null_set_to<I: Implementation>(
    combiner: &I::Combiner,
    combined: &str,
    value: u64,
) -> anyhow::Result<Option<Vec<u8>>> {
    let snapshot = serde_json::from_slice::<serde_json::Value>(&I::combiner_snapshot(combiner)?);
    Ok(match snapshot {
        Ok(snapshot) if snapshot.pointer(combined) == Some(&serde_json::Value::Null) => {
            set_at(&snapshot, combined, value)
        }
        _ => None,
    })
}

/// The implementation's own snapshot of a combiner whose inputs reported 3 and 5, and the
/// JSON pointer of its combined watermark: the one number that moves when the inputs go
/// to 4 and 5 (the minimum moves with the first) and not when they go to 5 and 3 (the
/// minimum stays). `None` when no number of it is the combined watermark alone.
fn combined_pointer<I: Implementation>() -> anyhow::Result<Option<(serde_json::Value, String)>> {
    let at = |first: u64, second: u64| -> anyhow::Result<Option<serde_json::Value>> {
        let mut combiner = I::combiner(2)?;
        I::on_watermark(&mut combiner, 0, first)?;
        I::on_watermark(&mut combiner, 1, second)?;
        Ok(serde_json::from_slice(&I::combiner_snapshot(&combiner)?).ok())
    };
    let (Some(base), Some(moved), Some(swapped)) = (at(3, 5)?, at(4, 5)?, at(5, 3)?) else {
        return Ok(None);
    };
    let (Some(moved), Some(swapped)) = (
        numbers_that_differ(&base, &moved),
        numbers_that_differ(&base, &swapped),
    ) else {
        return Ok(None);
    };
    let combined: Vec<&String> = moved.iter().filter(|at| !swapped.contains(at)).collect();
    let [combined] = combined[..] else {
        return Ok(None);
    };
    if base.pointer(combined).and_then(serde_json::Value::as_u64) != Some(3) {
        return Ok(None);
    }
    let combined = combined.clone();
    Ok(Some((base, combined)))
}

/// The implementation's own snapshot of `new(2)` after `on_watermark(0, 5)` and
/// `on_watermark(1, 3)`.
fn reported_combiner<I: Implementation>() -> anyhow::Result<Vec<u8>> {
    let mut combiner = I::combiner(2)?;
    I::on_watermark(&mut combiner, 0, 5)?;
    I::on_watermark(&mut combiner, 1, 3)?;
    I::combiner_snapshot(&combiner)
}

/// `BoundedOutOfOrderness::restore(bytes)` of bytes that are not a snapshot; with `junk`,
/// a restore of the implementation's own snapshot is judged a refusal.
fn restore_generator<I: Implementation>(bytes: &[u8], junk: bool) -> anyhow::Result<String> {
    let generator = I::generator_restore(bytes)?;
    if junk
        && own_snapshot(
            bytes,
            || {
                (0..=3)
                    .map(|d| I::generator_snapshot(&I::generator(d)))
                    .collect()
            },
            I::generator_snapshot(&generator),
        )
    {
        return own_snapshot_restored();
    }
    Ok(format!(
        "a generator at {:?}",
        I::current_watermark(&generator)
    ))
}

/// `CombinedWatermark::restore(bytes)`, as [`restore_generator`].
fn restore_combiner<I: Implementation>(bytes: &[u8], junk: bool) -> anyhow::Result<String> {
    let combiner = I::combiner_restore(bytes)?;
    if junk
        && own_snapshot(
            bytes,
            || {
                (1..=3)
                    .map(|n| I::combiner(n).and_then(|c| I::combiner_snapshot(&c)))
                    .collect()
            },
            I::combiner_snapshot(&combiner),
        )
    {
        return own_snapshot_restored();
    }
    Ok(format!(
        "a combiner at {:?}",
        I::combiner_current(&combiner)
    ))
}

/// `current_watermark()` on the fresh generator, then after each record; with a crash
/// point `k`, the generator is snapshotted and restored right after record `k` (before
/// that reading).
fn generate<I: Implementation>(
    arrivals: &[(u64, u32)],
    max_delay: u64,
    crash_after: Option<usize>,
) -> Observation {
    let mut generator = I::generator(max_delay);
    let mut watermarks = Vec::new();
    for i in 0..=arrivals.len() {
        if i > 0 {
            // A panic (an overflow the brief rules out) ends the run, as a failure that
            // can name its rule.
            let fed = caught(|| {
                I::on_event(&mut generator, arrivals[i - 1].0);
                Ok(())
            });
            if let Answer::Panicked(m) = fed {
                return Observation::Watermarks {
                    restore: Err(format!("panicked in on_event({}): {m}", arrivals[i - 1].0)),
                    watermarks,
                };
            }
        }
        if crash_after == Some(i) {
            // Only the bytes survive the crash.
            let restored = I::generator_snapshot(&generator).and_then(|bytes| {
                drop(generator);
                I::generator_restore(&bytes)
            });
            generator = match restored {
                Ok(generator) => generator,
                Err(e) => {
                    return Observation::Watermarks {
                        restore: Err(message(e)),
                        watermarks,
                    };
                }
            };
        }
        match caught(|| Ok(I::current_watermark(&generator))) {
            Answer::Ok(reading) => watermarks.push(reading),
            other => {
                return Observation::Watermarks {
                    restore: Err(format!("current_watermark(): {}", other.show())),
                    watermarks,
                };
            }
        }
    }
    Observation::Watermarks {
        restore: Ok(()),
        watermarks,
    }
}

/// `split_late` of `elements`, a panic caught: the brief says every timestamp up to
/// `u64::MAX` is valid (04-R16), so a panic is a failure that names that rule.
fn split<I: Implementation>(elements: &[Element]) -> Observation {
    match caught(|| Ok(I::split_late(elements))) {
        Answer::Ok((on_time, late)) => Observation::Split {
            on_time,
            late,
            panicked: None,
        },
        Answer::Err(message) | Answer::Panicked(message) => Observation::Split {
            on_time: Vec::new(),
            late: Vec::new(),
            panicked: Some(message),
        },
    }
}

fn combine<I: Implementation>(
    inputs: usize,
    interleaving: &[(usize, u64)],
    crash_after: Option<usize>,
) -> Observation {
    let mut combiner = match I::combiner(inputs) {
        Ok(combiner) => combiner,
        Err(e) => {
            return Observation::Combined {
                restore: Err(format!("CombinedWatermark::new({inputs}): {e:#}")),
                results: Vec::new(),
                current: Vec::new(),
            };
        }
    };
    let mut results = Vec::new();
    let mut current = Vec::new();
    for i in 0..=interleaving.len() {
        if crash_after == Some(i) {
            let restored = I::combiner_snapshot(&combiner).and_then(|bytes| {
                drop(combiner);
                I::combiner_restore(&bytes)
            });
            combiner = match restored {
                Ok(combiner) => combiner,
                Err(e) => {
                    return Observation::Combined {
                        restore: Err(message(e)),
                        results,
                        current,
                    };
                }
            };
        }
        if let Some(&(input, ts)) = interleaving.get(i) {
            results.push(match caught(|| I::on_watermark(&mut combiner, input, ts)) {
                Answer::Ok(result) => Ok(result),
                Answer::Err(e) => Err(e),
                Answer::Panicked(m) => Err(format!("panicked: {m}")),
            });
            current.push(I::combiner_current(&combiner));
        }
    }
    Observation::Combined {
        restore: Ok(()),
        results,
        current,
    }
}

/// `restore` of `snapshot` with ` trailing` after it, then padded ([`paddings`]): the
/// answer to the first that restores, or the last refusal. None is a snapshot,
/// whatever the format.
fn first_restored(
    snapshot: &[u8],
    restore: impl Fn(&[u8]) -> anyhow::Result<String>,
) -> anyhow::Result<String> {
    let trailed = [snapshot, b" trailing"].concat();
    let mut answer = restore(&trailed);
    for (_, bytes) in paddings(snapshot) {
        if answer.is_ok() {
            break;
        }
        answer = restore(&bytes);
    }
    answer
}

/// Whether `bytes` are a snapshot the implementation writes: its own snapshot of a fresh
/// instance (serde's `skip_serializing_if` on default fields writes `{}` for one), or
/// `again`, its snapshot of the instance restored from them. Such bytes may restore.
fn own_snapshot(
    bytes: &[u8],
    fresh: impl FnOnce() -> Vec<anyhow::Result<Vec<u8>>>,
    again: anyhow::Result<Vec<u8>>,
) -> bool {
    again.is_ok_and(|b| b == bytes) || fresh().into_iter().any(|b| b.is_ok_and(|b| b == bytes))
}

/// The answer of a restore of bytes the implementation may accept, its own snapshot:
/// judged as the refusal the check asks of every other implementation.
fn own_snapshot_restored() -> anyhow::Result<String> {
    anyhow::bail!("these bytes are this implementation's own snapshot, which it may restore")
}
