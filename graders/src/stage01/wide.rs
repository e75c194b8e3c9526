//! The wide cases: one `FlatMap` call whose function returns [`WIDE`] records, and one
//! `run` over a source of as many, past any cap a "guard" might set (a `u16`'s 65,536,
//! a round million): the brief puts no bound on what a function returns or how long a
//! source is.
//!
//! Outputs travel as [`Stretches`] (a right one is one or two stretches), so a million
//! records cost the observation a few numbers.

use serde::{Deserialize, Serialize};

use super::long::Stretches;
use super::{Implementation, OperatorId};
use crate::harness::Failure;

/// How many records: `2^20 + 3` (1,048,579).
pub const WIDE: u32 = (1 << 20) + 3;

/// What `out` holds before the wide `FlatMap` call: every call must keep it first.
pub const HELD: [u32; 2] = [9, 4];

/// The operator of the wide `FlatMap` call.
pub const WIDE_OPERATOR: OperatorId = OperatorId::FlatMapRange;

/// What `run` over the long source did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum LongRun {
    /// A source of as many records, polled by hand first, did not return `None` after
    /// its last record, so `run` was not called: it would never return.
    Endless {
        /// What that poll returned.
        polled: u32,
    },
    /// `run` returned.
    Ran {
        /// What `run` returned.
        output: Stretches,
        /// `position()` after `run`, and what the next `poll` returned.
        after_run: (u64, Option<u32>),
    },
}

/// `out` after `FlatMap(|x| 0..x).process(input, &mut out)`, `out` holding [`HELD`].
pub fn drive_flat_map<I: Implementation>(input: u32) -> Stretches {
    let out = I::process(WIDE_OPERATOR, input, HELD.to_vec());
    Stretches::of(out.into_iter().map(u64::from))
}

/// `run` over `VecSource::new((0..len).collect())`, once a source of as many records
/// polled by hand showed that it ends (`run` polls until `None`: over a source that
/// never ends it would never return).
pub fn drive_run<I: Implementation>(len: u32) -> LongRun {
    let mut probe = I::source((0..len).collect());
    for _ in 0..len {
        if I::poll(&mut probe).is_none() {
            break;
        }
    }
    if let Some(polled) = I::poll(&mut probe) {
        return LongRun::Endless { polled };
    }
    let mut source = I::source((0..len).collect());
    let output = Stretches::of(I::run_through(&mut source).into_iter().map(u64::from));
    let after_run = (I::position(&source), I::poll(&mut source));
    LongRun::Ran { output, after_run }
}

/// The wide `FlatMap` call as code.
pub fn describe_flat_map(input: u32) -> String {
    format!(
        "{}.process({input}, &mut out) with out = vec!{HELD:?} ({input} = 2^20 + 3)",
        WIDE_OPERATOR.describe()
    )
}

/// The long `run` as code.
pub fn describe_run(len: u32) -> String {
    format!(
        "run(VecSource::new((0..{len}).collect()), op) ({len} = 2^20 + 3 records, record i \
         is i), op an operator of the grader's that passes each record through"
    )
}

/// The first index where `got` differs from `want`, with both values there (`None`
/// past an end); `None` when they agree.
fn first_difference(
    got: &Stretches,
    want: impl Iterator<Item = u64>,
) -> Option<(u64, Option<u64>, Option<u64>)> {
    let mut got = got.iter();
    let mut want = want;
    let mut i = 0;
    loop {
        match (want.next(), got.next()) {
            (None, None) => return None,
            (w, g) if w != g => return Some((i, w, g)),
            _ => i += 1,
        }
    }
}

fn shown(value: Option<u64>) -> String {
    value.map_or_else(|| "nothing".to_owned(), |v| v.to_string())
}

/// Judges the wide `FlatMap` call: `out` is [`HELD`], then `0..input`, in order.
pub fn judge_flat_map(input: u32, got: &Stretches) -> Result<(), Failure> {
    let held = HELD.iter().map(|v| u64::from(*v));
    let want = held.chain(0..u64::from(input));
    let Some((i, w, g)) = first_difference(got, want) else {
        return Ok(());
    };
    let emitted = got.total.saturating_sub(HELD.len() as u64);
    let (why, rule) = if i < HELD.len() as u64 {
        (
            format!("out held {HELD:?} before the call, and no longer starts with it"),
            "01-R7",
        )
    } else if g.is_none() {
        (
            format!(
                "FlatMap emitted {emitted} of the {input} records its function returned: it \
                 emits every one, however many"
            ),
            "01-R6",
        )
    } else {
        (
            format!(
                "out[{i}] is {} where the function's record {} belongs",
                shown(g),
                shown(w)
            ),
            "01-R6",
        )
    };
    Err(Failure::new(
        format!("out = {HELD:?} followed by 0, 1, ..., {}", input - 1),
        format!(
            "{} values, out[{i}] = {} (want {})",
            got.total,
            shown(g),
            shown(w)
        ),
    )
    .step(why)
    .requirement(rule))
}

/// Judges the long `run`: every record, in order, and the source drained.
pub fn judge_run(len: u32, seen: &LongRun) -> Result<(), Failure> {
    let (output, after_run) = match seen {
        LongRun::Endless { polled } => {
            return Err(Failure::new(
                "poll() = None after the last record",
                format!("poll() = Some({polled})"),
            )
            .step(format!(
                "a source of {len} records, polled {len} times by hand, returned a record \
                 after them (run, which polls until None, would never return)"
            ))
            .requirement("01-R13"));
        }
        LongRun::Ran { output, after_run } => (output, after_run),
    };
    if let Some((i, w, g)) = first_difference(output, 0..u64::from(len)) {
        let (why, rule) = if g.is_none() {
            (
                format!(
                    "run returned {} outputs of a source of {len} records: it polls until \
                     the source is exhausted",
                    output.total
                ),
                "01-R9",
            )
        } else {
            (
                format!("output {i} is {} where {} belongs", shown(g), shown(w)),
                "01-R10",
            )
        };
        return Err(Failure::new(
            format!("{len} outputs: 0, 1, 2, ..., {}", len - 1),
            format!(
                "{} outputs, output {i} = {} (want {})",
                output.total,
                shown(g),
                shown(w)
            ),
        )
        .step(why)
        .requirement(rule));
    }
    if *after_run != (u64::from(len), None) {
        return Err(Failure::new(
            format!("position() = {len}, then poll() = None"),
            format!(
                "position() = {}, then poll() = {:?}",
                after_run.0, after_run.1
            ),
        )
        .step("after run returned, the source is not drained")
        .requirement("01-R9"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_flat_map_is_named_short() {
        let got = Stretches::of(HELD.iter().map(|v| u64::from(*v)).chain(0..65_536));
        let failure = judge_flat_map(WIDE, &got).unwrap_err();
        assert_eq!(failure.requirement, Some("01-R6"));
        let right = Stretches::of(HELD.iter().map(|v| u64::from(*v)).chain(0..u64::from(WIDE)));
        assert!(judge_flat_map(WIDE, &right).is_ok());
        assert!(right.kept.len() <= 2, "a right output is a stretch or two");
    }

    #[test]
    fn a_run_that_stops_early_is_named() {
        let short = LongRun::Ran {
            output: Stretches::of(0..1_000_000),
            after_run: (1_000_000, Some(1_000_000)),
        };
        let failure = judge_run(WIDE, &short).unwrap_err();
        assert_eq!(failure.requirement, Some("01-R9"));
        let right = LongRun::Ran {
            output: Stretches::of(0..u64::from(WIDE)),
            after_run: (u64::from(WIDE), None),
        };
        assert!(judge_run(WIDE, &right).is_ok());
        let endless = LongRun::Endless { polled: 0 };
        let failure = judge_run(WIDE, &endless).unwrap_err();
        assert_eq!(failure.requirement, Some("01-R13"));
    }
}
