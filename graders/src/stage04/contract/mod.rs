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
    /// The reading right after it (`None` too when it was not taken or panicked).
    pub current: Option<u64>,
    /// The panic of that reading: a read-back is judged as itself, not as the call
    /// before it.
    pub current_panic: Option<String>,
}

impl Reading {
    /// A call's answer and the read-back taken after it.
    fn after(answer: Answer<Option<u64>>, (current, current_panic): ReadBack) -> Self {
        Reading {
            answer,
            current,
            current_panic,
        }
    }

    /// Whether nothing follows this reading: its call or its read-back panicked, or
    /// (for a generator, or a restore) the call failed.
    pub fn ends_the_run(&self, op: Option<Op>, subject: Subject) -> bool {
        let failed = match (subject, op) {
            (Subject::Generator { .. }, _) | (_, Some(Op::Crash)) => !self.answer.is_ok(),
            _ => matches!(self.answer, Answer::Panicked(_)),
        };
        failed || self.current_panic.is_some()
    }
}

/// Records `reading` of the call `op` (`None`: of the fresh instance) and tells whether
/// the run stops there.
fn taken(readings: &mut Vec<Reading>, reading: Reading, op: Option<Op>, subject: Subject) -> bool {
    let end = reading.ends_the_run(op, subject);
    readings.push(reading);
    end
}

/// A read-back's value, or its panic.
type ReadBack = (Option<u64>, Option<String>);

/// Reads `current_watermark()` or `current()`: its value, or its panic.
fn read_back(read: impl FnOnce() -> Option<u64>) -> ReadBack {
    match caught(|| Ok(read())) {
        Answer::Ok(current) => (current, None),
        Answer::Err(_) => unreachable!("a read-back returns no error"),
        Answer::Panicked(m) => (None, Some(m)),
    }
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

/// Runs the sequence: the fresh instance's reading, then one per call, until a reading
/// ends the run ([`Reading::ends_the_run`]).
pub fn drive_contract<I: Implementation>(subject: Subject, ops: &[Op]) -> Vec<Reading> {
    let mut readings = Vec::new();
    match subject {
        Subject::Generator { max_delay } => {
            let mut generator = I::generator(max_delay);
            let fresh = Reading::after(
                Answer::Ok(None),
                read_back(|| I::current_watermark(&generator)),
            );
            if taken(&mut readings, fresh, None, subject) {
                return readings;
            }
            for op in ops {
                let answer = match *op {
                    Op::Event(ts) => caught(|| {
                        I::on_event(&mut generator, ts);
                        Ok(None)
                    }),
                    Op::Mark(..) => Answer::Ok(None),
                    Op::Crash => {
                        caught(|| I::generator_restore(&I::generator_snapshot(&generator)?)).map(
                            |restored| {
                                generator = restored;
                                None
                            },
                        )
                    }
                };
                let read = match answer {
                    Answer::Ok(_) => read_back(|| I::current_watermark(&generator)),
                    _ => (None, None),
                };
                let reading = Reading::after(answer, read);
                if taken(&mut readings, reading, Some(*op), subject) {
                    break;
                }
            }
        }
        Subject::Combiner { inputs } => {
            let Ok(mut combiner) = I::combiner(inputs) else {
                return readings;
            };
            let fresh = Reading::after(
                Answer::Ok(None),
                read_back(|| I::combiner_current(&combiner)),
            );
            if taken(&mut readings, fresh, None, subject) {
                return readings;
            }
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
                let read = match answer {
                    Answer::Panicked(_) => (None, None),
                    _ => read_back(|| I::combiner_current(&combiner)),
                };
                let reading = Reading::after(answer, read);
                if taken(&mut readings, reading, Some(*op), subject) {
                    break;
                }
            }
        }
    }
    readings
}
