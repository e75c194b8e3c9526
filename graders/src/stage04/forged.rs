//! Stage 04's own snapshots with one number changed: `restore` may refuse each, or take
//! it for a state a generator or combiner can be in, never for one no run reaches.
//!
//! Why by behaviour and not by bytes: a format may carry what the rest already says (a
//! cached watermark, a count of the inputs that reported, the combined watermark) and a
//! restore that trusts it unchecked makes an instance no run makes. Whether the restored
//! instance is a real one is read from its answers, so a format that also keeps what no
//! rule reads (a count of records, say) is judged by what it does, not by what it writes.
//! Every format is forged: a snapshot that is not JSON (a line of text, JSON behind a
//! version header) has each run of digits changed instead, to a digit, so that what a
//! correct restore takes is still a state within [`REAL_UP_TO`]; a JSON one has its runs
//! of digits changed too, after its numbers, for the numbers it writes as member names;
//! and one that is not JSON has each byte changed too, which may make a number past every
//! probe: real instances holding such numbers ([`BIG`]) are among those compared, and a
//! watermark past every probe reads as any other ([`canonical`]).

use std::collections::BTreeSet;

use super::binding::Implementation;
use serde_json::Value;

use crate::harness::damaged::{every_number_changed as forgeries, renumbered};

/// Real instances are enumerated with every `max_delay`, timestamp and watermark up to
/// this: past any number a changed snapshot holds (9), with room for a format that keeps
/// a sum of two (a watermark for the largest timestamp, say).
pub const REAL_UP_TO: u64 = 19;

/// Each probe is one call on a fresh restore of the bytes: `on_event(t)`, or
/// `on_watermark(input, t)` for each input, for every `t` up to this, past any
/// `max_delay + timestamp + 1` of a real instance enumerated.
const PROBED_UP_TO: u64 = 2 * REAL_UP_TO + 2;

/// What an instance answers: `current` first, then each probe on a fresh restore.
type Answers = Vec<Option<u64>>;

/// A `max_delay`, timestamp or watermark past every probe, standing for all of them: a
/// changed byte of a binary format makes such numbers (a bit 7 or a byte up), and a real
/// instance that holds one answers every probe as one that holds this.
const BIG: u64 = u64::MAX / 2;

/// `answers` with every watermark past [`PROBED_UP_TO`] read as the one after it: no probe
/// moves past such a watermark, so which one it is tells nothing more.
fn canonical(answers: Answers) -> Answers {
    answers.into_iter().map(past_probes_as_one).collect()
}

/// One answer of [`canonical`].
fn past_probes_as_one(answer: Option<u64>) -> Option<u64> {
    answer.map(|w| w.min(PROBED_UP_TO + 1))
}

/// The first of `forged` that a restore takes for an instance no run makes, described;
/// `None` when each is refused or restores a real one. `restore` gives `None` for a
/// refusal, and the answers of the instance the bytes restore otherwise; `real` the
/// answers of every real instance.
fn first_unreal(
    forged: &[Vec<u8>],
    restore: impl Fn(&[u8]) -> Option<Answers>,
    real: impl FnOnce() -> BTreeSet<Answers>,
    readings: impl Fn(&Answers) -> String,
) -> Option<String> {
    let mut real = Some(real);
    let mut known: Option<BTreeSet<Answers>> = None;
    for bytes in forged {
        let Some(answers) = restore(bytes) else {
            continue;
        };
        let known = known.get_or_insert_with(|| real.take().map(|real| real()).unwrap_or_default());
        if !known.contains(&answers) {
            return Some(format!(
                "{} restored as an instance that answers (each call on a fresh restore) {}: no run makes one that answers all of these",
                String::from_utf8_lossy(bytes),
                readings(&answers)
            ));
        }
    }
    None
}

/// What a generator answers: `current_watermark()`, then, for each `t` up to
/// [`PROBED_UP_TO`], `current_watermark()` after `on_event(t)` on a fresh instance
/// (`make` gives each).
fn generator_answers<I: Implementation>(
    make: impl Fn() -> Option<I::Generator>,
) -> Option<Answers> {
    let mut answers = vec![I::current_watermark(&make()?)];
    for t in 0..=PROBED_UP_TO {
        let mut generator = make()?;
        I::on_event(&mut generator, t);
        answers.push(I::current_watermark(&generator));
    }
    // A generator's watermark is `max_ts - max_delay - 1`, so never `u64::MAX`: kept
    // apart from the big ones a run makes, a restore that answers it is told from them.
    Some(
        answers
            .into_iter()
            .map(|answer| match answer {
                Some(u64::MAX) => answer,
                _ => past_probes_as_one(answer),
            })
            .collect(),
    )
}

/// What a combiner answers through its inputs 0 and 1: `current()`, then, for each input and each `t` up
/// to [`PROBED_UP_TO`], what `on_watermark(input, t)` returns and `current()` after it
/// on a fresh instance (`make` gives each); then the same after a second call, which
/// takes the other input to [`PROBED_UP_TO`]. An error reads as `None`: only the real
/// instances' answers are compared, and theirs never err.
///
/// Why a second call: a combiner may cache what its inputs already say (which input is
/// the slowest, say) and trust it on restore; a forged cache can answer every single call
/// as some real combiner does and still show on the call after, once the first has moved
/// its inputs (the red team's `argmin`).
fn combiner_answers<I: Implementation>(make: impl Fn() -> Option<I::Combiner>) -> Option<Answers> {
    let mut answers = vec![I::combiner_current(&make()?)];
    for input in 0..2 {
        for t in 0..=PROBED_UP_TO {
            let mut combiner = make()?;
            answers.push(I::on_watermark(&mut combiner, input, t).ok().flatten());
            answers.push(I::combiner_current(&combiner));
        }
    }
    for input in 0..2 {
        for t in 0..=PROBED_UP_TO {
            let mut combiner = make()?;
            // The first call's answers are read above; only the second's are new.
            let _ = I::on_watermark(&mut combiner, input, t);
            answers.push(
                I::on_watermark(&mut combiner, 1 - input, PROBED_UP_TO)
                    .ok()
                    .flatten(),
            );
            answers.push(I::combiner_current(&combiner));
        }
    }
    Some(canonical(answers))
}

/// How many readings a failure shows.
const SHOWN_AT_MOST: usize = 8;

/// The readings of `answers` that a learner can check: the first two probes of each
/// input, then each probe whose readings differ from the probe's before (where a real
/// instance's answers turn). `stride` readings make one probe; `label` names probe `i`
/// with its readings.
fn shown(
    answers: &Answers,
    stride: usize,
    label: impl Fn(usize, &[Option<u64>]) -> String,
) -> String {
    let per_input = PROBED_UP_TO as usize + 1;
    let probes: Vec<&[Option<u64>]> = answers[1..].chunks(stride).collect();
    let mut parts = vec![format!("{:?} at once", answers[0])];
    for (i, readings) in probes.iter().enumerate() {
        if i % per_input < 2 || probes[i - 1] != *readings {
            parts.push(label(i, readings));
        }
    }
    // The first turns tell; a line per probe up to 40 would bury them.
    if parts.len() > SHOWN_AT_MOST {
        parts.truncate(SHOWN_AT_MOST);
        parts.push("...".to_owned());
    }
    parts.join(", ")
}

/// The implementation's own snapshots of a generator: of `new(2)`, and of `new(2)` after
/// `on_event(5)`.
fn generator_snapshots<I: Implementation>() -> anyhow::Result<[Vec<u8>; 2]> {
    let mut used = I::generator(2);
    I::on_event(&mut used, 5);
    Ok([
        I::generator_snapshot(&I::generator(2))?,
        I::generator_snapshot(&used)?,
    ])
}

/// The first forged generator snapshot (of `new(2)`, and of `new(2)` after
/// `on_event(5)`, one number changed) whose restore is a generator no run makes.
pub fn unreal_generator<I: Implementation>() -> anyhow::Result<Option<String>> {
    let forged = generator_snapshots::<I>()?
        .iter()
        .flat_map(|snapshot| forgeries(snapshot))
        .collect();
    Ok(first_unreal_generator::<I>(forged))
}

/// The same snapshots with every JSON number in them set to `u64::MAX`, whose restore
/// must be refused or a generator some run makes: a `max_delay` of `u64::MAX` is real, and
/// a restore that rebuilds what it does not write (the largest timestamp from a watermark
/// and `max_delay`, say) must not overflow doing so. `Err` when neither snapshot is JSON
/// holding a number: the case is moot.
pub fn unreal_maxed_generator<I: Implementation>() -> anyhow::Result<Option<String>> {
    let forged: Vec<Vec<u8>> = generator_snapshots::<I>()?
        .iter()
        .filter_map(|snapshot| renumbered(snapshot, |_| Value::from(u64::MAX)))
        .collect();
    if forged.is_empty() {
        anyhow::bail!("its snapshot holds no JSON number");
    }
    Ok(first_unreal_generator::<I>(forged))
}

/// The first of `forged` whose restore is a generator no run makes.
fn first_unreal_generator<I: Implementation>(forged: Vec<Vec<u8>>) -> Option<String> {
    let real = || {
        let mut all = BTreeSet::new();
        // With a `max_delay` past every probe, a largest timestamp that leaves each small
        // watermark, or a big one.
        let past_probes = (0..=REAL_UP_TO).map(|w| BIG + 1 + w).chain([2 * BIG]);
        let pairs = (0..=REAL_UP_TO)
            .flat_map(|max_delay| {
                let small = (0..=REAL_UP_TO).chain([BIG]).map(Some);
                let largest = std::iter::once(None).chain(small);
                largest.map(move |largest| (max_delay, largest))
            })
            .chain([(BIG, None), (BIG, Some(0))])
            .chain(past_probes.map(|largest| (BIG, Some(largest))));
        for (max_delay, largest) in pairs {
            all.extend(generator_answers::<I>(|| {
                let mut generator = I::generator(max_delay);
                if let Some(ts) = largest {
                    I::on_event(&mut generator, ts);
                }
                Some(generator)
            }));
        }
        all
    };
    first_unreal(
        &forged,
        |bytes| {
            I::generator_restore(bytes).ok()?;
            generator_answers::<I>(|| I::generator_restore(bytes).ok())
        },
        real,
        |answers| {
            let label =
                |t: usize, read: &[Option<u64>]| format!("{:?} after on_event({t})", read[0]);
            format!("current_watermark() {}", shown(answers, 1, label))
        },
    )
}

/// The first forged combiner snapshot (of `new(2)` after inputs 3 and 5 reported, and
/// after input 0 alone reported 4, one number changed) whose restore is a combiner no
/// run makes.
pub fn unreal_combiner<I: Implementation>() -> anyhow::Result<Option<String>> {
    let after = |reports: &[(usize, u64)]| -> anyhow::Result<Vec<u8>> {
        let mut combiner = I::combiner(2)?;
        for &(input, ts) in reports {
            I::on_watermark(&mut combiner, input, ts)?;
        }
        I::combiner_snapshot(&combiner)
    };
    let mut forged = forgeries(&after(&[(0, 3), (1, 5)])?);
    forged.extend(forgeries(&after(&[(0, 4)])?));
    let marks = || std::iter::once(None).chain((0..=REAL_UP_TO).chain([BIG]).map(Some));
    // Combiners of 1 and 3 inputs too: a changed count of inputs may be another real
    // combiner's snapshot (3 inputs, the third silent, answers as every one of more).
    let real = || {
        let mut all = BTreeSet::new();
        for inputs in 1..=3 {
            for first in marks() {
                for second in marks().take(if inputs == 1 { 1 } else { usize::MAX }) {
                    all.extend(combiner_answers::<I>(|| {
                        let mut combiner = I::combiner(inputs).ok()?;
                        for (input, mark) in [first, second].into_iter().enumerate() {
                            if let Some(ts) = mark {
                                I::on_watermark(&mut combiner, input, ts).ok()?;
                            }
                        }
                        Some(combiner)
                    }));
                }
            }
        }
        all
    };
    let per_input = PROBED_UP_TO as usize + 1;
    let label = |i: usize, read: &[Option<u64>]| {
        let (probe, t) = (i / per_input, i % per_input);
        if probe < 2 {
            format!(
                "on_watermark({probe}, {t}) = {:?} (current() {:?})",
                read[0], read[1]
            )
        } else {
            let input = probe - 2;
            format!(
                "on_watermark({input}, {t}) then on_watermark({}, {PROBED_UP_TO}) = {:?} (current() {:?})",
                1 - input,
                read[0],
                read[1]
            )
        }
    };
    Ok(first_unreal(
        &forged,
        |bytes| {
            I::combiner_restore(bytes).ok()?;
            combiner_answers::<I>(|| I::combiner_restore(bytes).ok())
        },
        real,
        |answers| format!("current() {}", shown(answers, 2, label)),
    ))
}
