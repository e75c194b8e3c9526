//! The `contract` check: every sequence of up to three calls on one generator or one
//! combiner, over values chosen to break convenient assumptions (0, 1, `u64::MAX`, a
//! `max_delay` of 0 and of `u64::MAX`, watermarks that go back, an input that does not
//! exist, a snapshot and restore anywhere, twice), each step's answer and the reading
//! right after it compared with a model of what the brief fixes.

use serde::{Deserialize, Serialize};

mod model;

pub use model::judge_contract;

use super::Implementation;
use crate::harness::enumerate::call_sequences;
use crate::stage03::guard::{Answer, caught};

/// What the sequence drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Subject {
    /// `BoundedOutOfOrderness::new(max_delay)`.
    Generator {
        /// The bound.
        max_delay: u64,
    },
    /// `CombinedWatermark::new(inputs)`.
    Combiner {
        /// The number of inputs.
        inputs: usize,
    },
}

/// One call of a sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// `on_event(ts)` on the generator.
    Event(u64),
    /// `on_watermark(input, ts)` on the combiner.
    Mark(usize, u64),
    /// `snapshot()`, then `restore(bytes)`: only the bytes go on.
    Crash,
}

impl Op {
    pub(super) fn code(self) -> String {
        match self {
            Op::Event(ts) => format!("on_event({ts})"),
            Op::Mark(input, ts) => format!("on_watermark({input}, {ts})"),
            Op::Crash => "restore(&snapshot()?)".to_owned(),
        }
    }
}

/// A call's answer (`on_watermark`'s value; `None` for the others) and, right after it,
/// `current_watermark()` or `current()`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    /// What the call answered.
    pub answer: Answer<Option<u64>>,
    /// The reading right after it.
    pub current: Option<u64>,
}

/// The description of a sequence, as a report shows it.
pub fn describe(subject: Subject, ops: &[Op]) -> String {
    let mut calls = vec![match subject {
        Subject::Generator { max_delay } => format!("BoundedOutOfOrderness::new({max_delay})"),
        Subject::Combiner { inputs } => format!("CombinedWatermark::new({inputs})"),
    }];
    calls.extend(ops.iter().map(|op| op.code()));
    calls.join(", then ")
}

/// Every contract sequence, the same under every seed.
pub fn plan() -> Vec<super::Case> {
    const MAX: u64 = u64::MAX;
    let families: [(Subject, Vec<Op>); 6] = [
        (
            Subject::Generator { max_delay: 0 },
            vec![Op::Event(0), Op::Event(1), Op::Event(MAX), Op::Crash],
        ),
        (
            Subject::Generator { max_delay: 2 },
            vec![
                Op::Event(0),
                Op::Event(3),
                Op::Event(MAX),
                Op::Event(4),
                Op::Crash,
            ],
        ),
        (
            Subject::Generator { max_delay: MAX },
            vec![Op::Event(0), Op::Event(MAX), Op::Crash],
        ),
        (
            Subject::Combiner { inputs: 1 },
            vec![
                Op::Mark(0, 3),
                Op::Mark(0, 0),
                Op::Mark(0, MAX),
                Op::Mark(1, 2),
                Op::Crash,
            ],
        ),
        (
            Subject::Combiner { inputs: 2 },
            vec![
                Op::Mark(0, 3),
                Op::Mark(1, 5),
                Op::Mark(0, 1),
                Op::Mark(1, MAX),
                Op::Mark(2, 0),
                Op::Crash,
            ],
        ),
        (
            Subject::Combiner { inputs: 3 },
            vec![
                Op::Mark(0, 4),
                Op::Mark(1, 2),
                Op::Mark(2, MAX),
                Op::Mark(1, 0),
                Op::Mark(3, 1),
                Op::Crash,
            ],
        ),
    ];
    let mut cases = Vec::new();
    for (subject, alphabet) in families {
        // Two restores in a row tell nothing a single one does not.
        let keep = |ops: &[Op]| !ops.windows(2).any(|w| w == [Op::Crash, Op::Crash]);
        for ops in call_sequences(&alphabet, 3, keep) {
            cases.push(super::Case::Contract { subject, ops });
        }
    }
    // After them, so the cases above keep their numbers: timestamps past 2^53, where an
    // `f64` holds only even integers, through a restore (a snapshot read as a float
    // restores another watermark).
    const PAST_F64: u64 = (1 << 53) + 1;
    for (subject, ops) in [
        (
            Subject::Generator { max_delay: 0 },
            vec![Op::Event(PAST_F64 + 2), Op::Crash],
        ),
        (
            Subject::Generator { max_delay: 2 },
            vec![Op::Event(PAST_F64 + 4), Op::Crash, Op::Event(PAST_F64 + 6)],
        ),
        (
            Subject::Combiner { inputs: 2 },
            vec![Op::Mark(0, PAST_F64), Op::Mark(1, PAST_F64 + 2), Op::Crash],
        ),
    ] {
        cases.push(super::Case::Contract { subject, ops });
    }
    cases
}

/// Runs the sequence: the fresh instance's reading, then one per call (a panic ends it).
pub fn drive_contract<I: Implementation>(subject: Subject, ops: &[Op]) -> Vec<Reading> {
    let mut readings = Vec::new();
    match subject {
        Subject::Generator { max_delay } => {
            let mut generator = I::generator(max_delay);
            readings.push(Reading {
                answer: Answer::Ok(None),
                current: I::current_watermark(&generator),
            });
            for op in ops {
                let answer = match *op {
                    Op::Event(ts) => caught(|| {
                        I::on_event(&mut generator, ts);
                        Ok(None)
                    }),
                    Op::Mark(..) => Answer::Ok(None),
                    Op::Crash => {
                        match caught(|| I::generator_restore(&I::generator_snapshot(&generator)?)) {
                            Answer::Ok(restored) => {
                                generator = restored;
                                Answer::Ok(None)
                            }
                            Answer::Err(e) => Answer::Err(e),
                            Answer::Panicked(m) => Answer::Panicked(m),
                        }
                    }
                };
                let (answer, current) =
                    match (answer, caught(|| Ok(I::current_watermark(&generator)))) {
                        (Answer::Ok(a), Answer::Ok(current)) => (Answer::Ok(a), current),
                        (Answer::Ok(_), Answer::Panicked(m)) => (
                            Answer::Panicked(format!("in current_watermark(): {m}")),
                            None,
                        ),
                        (answer, _) => (answer, None),
                    };
                let stop = !answer.is_ok();
                readings.push(Reading { answer, current });
                if stop {
                    break;
                }
            }
        }
        Subject::Combiner { inputs } => {
            let Ok(mut combiner) = I::combiner(inputs) else {
                return readings;
            };
            readings.push(Reading {
                answer: Answer::Ok(None),
                current: I::combiner_current(&combiner),
            });
            for op in ops {
                let answer = match *op {
                    Op::Mark(input, ts) => caught(|| I::on_watermark(&mut combiner, input, ts)),
                    Op::Event(_) => Answer::Ok(None),
                    Op::Crash => {
                        match caught(|| I::combiner_restore(&I::combiner_snapshot(&combiner)?)) {
                            Answer::Ok(restored) => {
                                combiner = restored;
                                Answer::Ok(None)
                            }
                            Answer::Err(e) => Answer::Err(format!("snapshot or restore: {e}")),
                            Answer::Panicked(m) => Answer::Panicked(m),
                        }
                    }
                };
                let stop =
                    matches!(answer, Answer::Panicked(_)) || (*op == Op::Crash && !answer.is_ok());
                readings.push(Reading {
                    answer,
                    current: I::combiner_current(&combiner),
                });
                if stop {
                    break;
                }
            }
        }
    }
    readings
}
