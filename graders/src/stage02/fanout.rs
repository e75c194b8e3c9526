//! The `contract` check's fan-out runs: a keyed operator over `Vec<u8>` keys (one is not
//! UTF-8) whose function emits zero to three records per record, out of order, into one
//! `out` that already holds a record, with snapshot-drop-restores between records; and,
//! planned last, the same over keys of 256 and 2^16 + 1 bytes, which a length written in
//! one or two bytes cannot count.
//!
//! The spy emits exactly one record per call and is keyed by text, so an operator that
//! reverses, sorts or keeps one of the function's records, or a snapshot that only text
//! keys survive (a JSON object), would pass with it alone.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Implementation;
use crate::harness::Failure;

/// What `out` holds before the first call: every call must keep it first.
pub const HELD: u32 = u32::MAX;

/// What the fan-out function emits for `value`: `value % 4` records (0 to 3), in an order
/// that is neither sorted nor reversed.
pub fn fanout_emits(value: u32) -> Vec<u32> {
    let all = [10 * value + 2, 10 * value, 10 * value + 1];
    all[..(value % 4) as usize].to_vec()
}

/// The key of a fan-out record.
pub fn fanout_key(record: &(Vec<u8>, u32)) -> Vec<u8> {
    record.0.clone()
}

/// The records of every fan-out run: keys `a`, `[0xff, 0]` (not UTF-8) and empty; values
/// that emit three, two, one and no record.
pub fn records() -> Vec<(Vec<u8>, u32)> {
    vec![
        (b"a".to_vec(), 3),
        (vec![0xff, 0], 2),
        (b"a".to_vec(), 1),
        (Vec::new(), 0),
        (vec![0xff, 0], 3),
    ]
}

/// The records of the long-key run: a key of 256 bytes (past what a length in one byte
/// counts) and one of 2^16 + 1 (past two bytes), each twice.
pub fn long_key_records() -> Vec<(Vec<u8>, u32)> {
    let short = vec![b'k'; 256];
    let long = vec![b'w'; (1 << 16) + 1];
    vec![(short.clone(), 3), (long.clone(), 2), (short, 1), (long, 3)]
}

/// Where the long-key run snapshots, drops and restores: after the first record, and
/// after the last.
pub const LONG_KEY_RESTORES: [usize; 2] = [1, 4];

/// A key as code: a run of one byte as `vec![byte; n]`, any other as its bytes.
fn shown_key(key: &[u8]) -> String {
    match key {
        [first, rest @ ..] if rest.len() >= 8 && rest.iter().all(|b| b == first) => {
            format!("vec![{first}; {}]", key.len())
        }
        _ => format!("{key:?}"),
    }
}

/// Pairs of a key and a number, the keys as [`shown_key`] writes them.
fn shown_pairs(pairs: &[(Vec<u8>, u32)]) -> String {
    let pairs: Vec<String> = pairs
        .iter()
        .map(|(key, n)| format!("({}, {n})", shown_key(key)))
        .collect();
    format!("[{}]", pairs.join(", "))
}

/// A step as the report shows it.
fn shown_step(step: Option<&FanoutStep>) -> String {
    match step {
        None => "nothing (the run stopped)".to_owned(),
        Some(FanoutStep::Processed { out, state }) => {
            format!("out = {out:?}, state() = {}", shown_pairs(state))
        }
        Some(FanoutStep::Restored { result, state }) => {
            format!("{result:?}, then state() = {}", shown_pairs(state))
        }
        Some(FanoutStep::Panicked(message)) => format!("a panic: {message}"),
    }
}

/// Where the runs snapshot, drop and restore (after that many records): never, once in
/// the middle, and first, twice in a row and at the end.
pub fn restore_points() -> [Vec<usize>; 3] {
    [vec![], vec![2], vec![0, 3, 3, 5]]
}

/// What one step of a fan-out run did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FanoutStep {
    /// `process` returned: the whole `out` and `state()` (as pairs) after it.
    Processed {
        /// `out` after the call.
        out: Vec<u32>,
        /// `state().snapshot()` after the call.
        state: Vec<(Vec<u8>, u32)>,
    },
    /// Snapshot, drop, restore returned (`Err` as its message), and `state()` after it.
    Restored {
        /// What snapshot-then-restore returned.
        result: Result<(), String>,
        /// `state().snapshot()` of the restored operator.
        state: Vec<(Vec<u8>, u32)>,
    },
    /// The call panicked (the run stops there).
    Panicked(String),
}

/// Runs `records` through the implementation's fan-out operator, restoring at `restores`.
pub fn run<I: Implementation>(records: &[(Vec<u8>, u32)], restores: &[usize]) -> Vec<FanoutStep> {
    let mut steps = Vec::new();
    let mut out = vec![HELD];
    let mut operator = I::fanout();
    for at in 0..=records.len() {
        for _ in restores.iter().filter(|r| **r == at) {
            match super::driver::caught(|| I::fanout_restore(operator)) {
                Ok(Ok(op)) => {
                    steps.push(FanoutStep::Restored {
                        result: Ok(()),
                        state: I::fanout_state(&op),
                    });
                    operator = op;
                }
                Ok(Err(e)) => {
                    let result = Err(format!("{e:#}"));
                    steps.push(FanoutStep::Restored {
                        result,
                        state: vec![],
                    });
                    return steps;
                }
                Err(message) => {
                    steps.push(FanoutStep::Panicked(message));
                    return steps;
                }
            }
        }
        let Some(record) = records.get(at) else {
            break;
        };
        match super::driver::caught(|| I::fanout_process(&mut operator, record.clone(), &mut out)) {
            Ok(()) => steps.push(FanoutStep::Processed {
                out: out.clone(),
                state: I::fanout_state(&operator),
            }),
            Err(message) => {
                steps.push(FanoutStep::Panicked(message));
                return steps;
            }
        }
    }
    steps
}

/// The ids a fan-out run can find broken.
pub fn requirements(restores: &[usize]) -> Vec<&'static str> {
    if restores.is_empty() {
        vec!["02-R9", "02-R14"]
    } else {
        vec!["02-R9", "02-R14", "02-R15"]
    }
}

/// The run as code.
pub fn describe(records: &[(Vec<u8>, u32)], restores: &[usize]) -> String {
    format!(
        "a KeyedProcessOperator keyed by Vec<u8> whose function counts its key's records and emits \
         [10v + 2, 10v, 10v + 1][..v % 4], out holding [{HELD}]: records (key, v) = {records:?}, \
         snapshot, drop and restore after {restores:?} record(s)",
        records = shown_pairs(records)
    )
}

/// Judges the steps of a run against the brief: `out` is what it held, then every
/// emitted record in order; `state()` counts each key's records, restores included.
pub fn judge(
    records: &[(Vec<u8>, u32)],
    restores: &[usize],
    steps: &[FanoutStep],
) -> Result<(), Failure> {
    let mut model: BTreeMap<Vec<u8>, u32> = BTreeMap::new();
    let mut out = vec![HELD];
    let mut restored = false;
    let mut step = steps.iter();
    for at in 0..=records.len() {
        for _ in restores.iter().filter(|r| **r == at) {
            restored = true;
            let want: Vec<(Vec<u8>, u32)> = model.clone().into_iter().collect();
            let at_what = format!("snapshot, drop and restore after {at} record(s)");
            match step.next() {
                Some(FanoutStep::Restored {
                    result: Ok(()),
                    state,
                }) if *state == want => {}
                other => {
                    return Err(Failure::new(
                        format!("Ok(..), then state() = {}", shown_pairs(&want)),
                        shown_step(other),
                    )
                    .step(at_what + ": the state of byte keys did not come back as it was")
                    .requirement("02-R15"));
                }
            }
        }
        let Some((key, value)) = records.get(at) else {
            break;
        };
        *model.entry(key.clone()).or_default() += 1;
        out.extend(fanout_emits(*value));
        let want: Vec<(Vec<u8>, u32)> = model.clone().into_iter().collect();
        let at_what = format!("process(({}, {value})) (record {})", shown_key(key), at + 1);
        match step.next() {
            Some(FanoutStep::Processed { out: got, .. }) if *got != out => {
                return Err(
                    Failure::new(format!("out = {out:?}"), format!("out = {got:?}"))
                        .step(
                            at_what
                                + ": out is not what it held, then every record emitted, in order",
                        )
                        .requirement("02-R9"),
                );
            }
            Some(FanoutStep::Processed { state, .. }) if *state != want => {
                let rule = if restored { "02-R15" } else { "02-R14" };
                return Err(Failure::new(
                    format!("state() = {}", shown_pairs(&want)),
                    format!("state() = {}", shown_pairs(state)),
                )
                .step(at_what + ": state() after it is not what the function left")
                .requirement(rule));
            }
            Some(FanoutStep::Processed { .. }) => {}
            other => {
                let rule = if restored { "02-R15" } else { "02-R9" };
                return Err(Failure::new("process returns", shown_step(other))
                    .step(at_what + ": process did not return")
                    .requirement(rule));
            }
        }
    }
    Ok(())
}
