//! The long log of the `contract` check: one source of [`LONG_LEN`] records, more than a
//! `u16` counts and more than a bounded `run` or a compacting source keeps, read to the
//! end by hand, then sought far and back to 0, then drained by `run`.
//!
//! Record `i` is `i`, so a record read from the wrong offset shows its offset. The
//! observation is compressed ([`Stretches`]: runs of values that grow by a fixed step),
//! so a right answer travels whole in a few numbers; a wrong one keeps its first eight
//! runs, which hold its first wrong value.

use serde::{Deserialize, Serialize};

use super::contract::{self, Call, Returned, Step};
use super::{ChainId, Implementation};
use crate::harness::Failure;

/// The records of the long log: `2^16 + 3`, so a position kept in a `u16` wraps inside
/// it, and a seek to `len - 1` lands past `2^16`.
pub const LONG_LEN: u64 = (1 << 16) + 3;

/// The most stretches an observation keeps: a right reading is one stretch, so the first
/// wrong value is always within the first two.
const KEPT: usize = 8;

/// The chain `run` drains the long log with.
pub const LONG_CHAIN: ChainId = ChainId::Map;

/// The records of a long log of `len` records: record `i` is `i`.
pub fn records(len: u64) -> Vec<u32> {
    (0..len).map(|i| i as u32).collect()
}

/// The calls made on the log once it was read to the end by hand: back to 0, far
/// forward past `2^16`, to the end, and a poll there. The source ends at the end, so the
/// polls that follow yield nothing.
pub fn calls(len: u64) -> Vec<Call> {
    vec![
        Call::Seek(0),
        Call::Poll,
        Call::Seek(len - 1),
        Call::Poll,
        Call::Poll,
    ]
}

/// A run of `count` values, the first `first`, each `step` more than the one before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stretch {
    /// The first value.
    pub first: u64,
    /// What each value adds to the one before (wrapping).
    pub step: u64,
    /// How many values.
    pub count: u64,
}

/// A sequence of values as stretches: the first few (eight) of them, and how many values
/// there were in all.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Stretches {
    /// The first stretches.
    pub kept: Vec<Stretch>,
    /// How many values in all (the kept stretches may hold fewer).
    pub total: u64,
}

impl Stretches {
    /// Adds `value` at the end.
    pub fn push(&mut self, value: u64) {
        self.total += 1;
        match self.kept.last_mut() {
            Some(last) if last.count == 1 => {
                last.step = value.wrapping_sub(last.first);
                last.count = 2;
                return;
            }
            Some(last) if last.first.wrapping_add(last.step.wrapping_mul(last.count)) == value => {
                last.count += 1;
                return;
            }
            _ => {}
        }
        if self.kept.len() < KEPT {
            self.kept.push(Stretch {
                first: value,
                step: 1,
                count: 1,
            });
        }
    }

    /// The values the kept stretches hold, in order, at most `LONG_LEN + 1` of them
    /// (the most a reading of the long log polls: an observation is evidence, and a
    /// count no driver could have seen allocates nothing).
    pub fn values(&self) -> Vec<u64> {
        self.iter().take(LONG_LEN as usize + 1).collect()
    }

    /// The values the kept stretches hold, in order, one at a time (nothing allocated,
    /// however many a forged observation claims).
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.kept
            .iter()
            .flat_map(|s| (0..s.count).map(move |k| s.first.wrapping_add(s.step.wrapping_mul(k))))
    }

    /// The stretches of `values`, in order.
    pub fn of(values: impl IntoIterator<Item = u64>) -> Self {
        let mut stretches = Self::default();
        for value in values {
            stretches.push(value);
        }
        stretches
    }

    /// Whether every value is kept.
    pub fn whole(&self) -> bool {
        self.values().len() as u64 == self.total
    }
}

/// What the driver saw on the long log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LongObservation {
    /// `position()` before each poll of the first reading, until `None` (at most
    /// `len + 1` polls).
    pub positions: Stretches,
    /// The records of those polls.
    pub polled: Stretches,
    /// Whether that reading ended with `None`.
    pub ended: bool,
    /// `position()` after it.
    pub end_position: u64,
    /// The steps of [`calls`] (fewer after a panic).
    pub steps: Vec<Step>,
    /// The records polled after the calls, until `None` (at most `len + 1`).
    pub drain: Stretches,
    /// What `seek(0)` returned after them, and `position()` then.
    pub rewind: Option<(Result<(), String>, u64)>,
    /// What `run` returned from there (not called on a source that never ended).
    pub output: Option<Stretches>,
    /// `position()` after `run`, and what the next `poll` returned.
    pub after_run: Option<(u64, Option<u32>)>,
}

/// Reads the long log of `len` records through the implementation `I`.
pub fn drive<I: Implementation>(len: u64) -> LongObservation {
    let mut source = I::source(records(len));
    let (mut positions, mut polled) = (Stretches::default(), Stretches::default());
    let mut ended = false;
    // Bounded: a source that never returns None (a position that wraps) must not hang
    // the driver.
    for _ in 0..=len {
        positions.push(I::position(&source));
        match I::poll(&mut source) {
            Some(record) => polled.push(u64::from(record)),
            None => {
                ended = true;
                break;
            }
        }
    }
    let end_position = I::position(&source);
    let mut seen = LongObservation {
        positions,
        polled,
        ended,
        end_position,
        steps: Vec::new(),
        drain: Stretches::default(),
        rewind: None,
        output: None,
        after_run: None,
    };
    for call in calls(len) {
        let returned = match call {
            Call::Poll => super::driver::caught(|| Returned::Polled(I::poll(&mut source))),
            Call::Seek(offset) => super::driver::seek_caught::<I>(&mut source, offset),
        };
        if let Returned::Panicked(_) = returned {
            seen.steps.push(Step {
                returned,
                position: None,
            });
            return seen;
        }
        seen.steps.push(Step {
            returned,
            position: Some(I::position(&source)),
        });
    }
    for record in (0..=len).map_while(|_| I::poll(&mut source)) {
        seen.drain.push(u64::from(record));
    }
    let rewind = I::seek(&mut source, 0).map_err(|e| format!("{e:#}"));
    let rewound = rewind.is_ok();
    seen.rewind = Some((rewind, I::position(&source)));
    // `run` polls until None: only on a source that showed it ends.
    if rewound && seen.ended {
        let mut output = Stretches::default();
        for record in I::run(&mut source, LONG_CHAIN) {
            output.push(u64::from(record));
        }
        seen.output = Some(output);
        seen.after_run = Some((I::position(&source), I::poll(&mut source)));
    }
    seen
}

/// The ids the long log can find broken.
pub fn requirements() -> Vec<&'static str> {
    vec![
        "01-R1", "01-R2", "01-R3", "01-R9", "01-R10", "01-R11", "01-R13",
    ]
}

/// The case as code.
pub fn describe(len: u64) -> String {
    let calls: Vec<String> = calls(len).into_iter().map(Call::describe).collect();
    format!(
        "VecSource::new((0..{len}).collect()) ({len} = 2^16 + 3 records, record i is i): poll \
         until None, then {}, poll until None, then seek(0) and run(source, {})",
        calls.join(", "),
        LONG_CHAIN.describe()
    )
}

/// The first index where `got` (possibly cut short) differs from `want(i)` over `0..n`;
/// `None` when it holds all `n` values and they agree.
fn first_wrong(got: &Stretches, n: u64, want: impl Fn(u64) -> u64) -> Option<(u64, Option<u64>)> {
    let values = got.values();
    for i in 0..n {
        match values.get(i as usize) {
            Some(v) if *v == want(i) => {}
            Some(v) => return Some((i, Some(*v))),
            // Past the values kept (never so for a right reading, one stretch): the
            // first wrong value was among them, so only a forged observation gets here.
            None => return Some((i, None)),
        }
    }
    (got.total != n).then(|| (n, values.get(n as usize).copied()))
}

/// Judges the long log of `len` records.
pub fn judge(len: u64, seen: &LongObservation) -> Result<(), Failure> {
    let reading = "reading the log to the end by hand";
    if let Some((i, got)) = first_wrong(&seen.polled, len, |i| i) {
        let (want, got) = (
            if i < len {
                format!("Some({i})")
            } else {
                "None".to_owned()
            },
            got.map_or_else(|| "None".to_owned(), |v| format!("Some({v})")),
        );
        let (what, rule) = if i < len {
            (
                format!(
                    "poll number {} (of the record at offset {i}) returned {got}",
                    i + 1
                ),
                "01-R1",
            )
        } else {
            (
                format!("after the last record, poll returned {got}"),
                "01-R13",
            )
        };
        return Err(
            Failure::new(format!("poll() = {want}"), format!("poll() = {got}"))
                .step(format!("{reading}: {what}"))
                .requirement(rule),
        );
    }
    // One reading before each poll, the one that returned None included.
    if let Some((i, got)) = first_wrong(&seen.positions, len + 1, |i| i) {
        let got = got.map_or_else(|| "nothing".to_owned(), |p| format!("position() = {p}"));
        return Err(Failure::new(format!("position() = {i}"), got)
            .step(format!(
                "{reading}: position() before poll number {}",
                i + 1
            ))
            // Every record came right: only the reading is wrong.
            .requirement("01-R2"));
    }
    if !seen.ended || seen.end_position != len {
        return Err(Failure::new(
            format!("position() = {len}, then poll() = None"),
            format!("position() = {}", seen.end_position),
        )
        .step(format!("{reading}: position() once poll returned None"))
        .requirement("01-R13"));
    }
    // The calls, from the end: the contract's model, started where the reading left it.
    let records = records(len);
    // A right source yields nothing here; a few records show a wrong one.
    let drain: Vec<u32> = seen
        .drain
        .values()
        .into_iter()
        .take(16)
        .map(|v| v as u32)
        .collect();
    contract::judge_from(&records, len, &calls(len), &seen.steps, &drain).map_err(|f| {
        let step = f.first_wrong_step.clone().unwrap_or_default();
        f.step(format!("after {reading}, {step}"))
    })?;
    match &seen.rewind {
        Some((Ok(()), 0)) => {}
        other => {
            let got = match other {
                Some((Ok(()), p)) => format!("Ok(()), then position() = {p}"),
                Some((Err(e), _)) => format!("Err({e})"),
                None => "no result".to_owned(),
            };
            return Err(Failure::new("Ok(()), then position() = 0", got)
                .step(format!(
                    "after {reading} twice, seek(0) did not take the source back to offset 0"
                ))
                .requirement("01-R3"));
        }
    }
    let (Some(output), Some((position, next))) = (&seen.output, seen.after_run) else {
        return Err(Failure::new("run returns", "run was not called")
            .step("run after seek(0)")
            .requirement("01-R9"));
    };
    if next.is_some() || position != len {
        return Err(Failure::new(
            format!("position() = {len}, then poll() = None"),
            format!("position() = {position}, then poll() = {next:?}"),
        )
        .step(format!(
            "run from offset 0 returned {} record(s) and left the source before its end",
            output.total
        ))
        .requirement(if next.is_some() { "01-R9" } else { "01-R13" }));
    }
    let want = |i: u64| u64::from(super::catalogue::triple_plus_one(i as u32));
    if let Some((i, got)) = first_wrong(output, len, want) {
        let got = got.map_or_else(|| "nothing".to_owned(), |v| v.to_string());
        return Err(Failure::new(
            format!("run returns {len} records, output[{i}] = {}", want(i)),
            format!("{} records, output[{i}] = {got}", output.total),
        )
        .step("run does not return what the chain emits, record by record, in order")
        .requirement("01-R10"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stretches_keep_every_value_of_a_few_runs() {
        let mut s = Stretches::default();
        for v in [0, 1, 2, 3, 0, 1, 7, 4, 1] {
            s.push(v);
        }
        assert_eq!(s.values(), vec![0, 1, 2, 3, 0, 1, 7, 4, 1]);
        assert!(s.whole());
        let mut right = Stretches::default();
        (0..LONG_LEN).for_each(|v| right.push(v));
        assert_eq!(right.kept.len(), 1);
    }

    #[test]
    fn a_long_wrong_reading_keeps_its_first_wrong_value() {
        let mut s = Stretches::default();
        for v in (0..100).map(|i| i * i % 7) {
            s.push(v);
        }
        assert!(!s.whole());
        assert_eq!(first_wrong(&s, 100, |i| i), Some((2, Some(4))));
    }
}
