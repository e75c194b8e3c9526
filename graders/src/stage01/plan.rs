//! The cases of stage 01, smallest first.

use serde::{Deserialize, Serialize};

use super::contract::{self, Call};
use super::{ChainId, OperatorId};
use crate::harness::rng::Rng;
use crate::harness::{Check, case};

/// The longest input the plan uses. Every offset and crash point of every length up to
/// it is enumerated.
pub const MAX_LEN: usize = 6;

pub(super) const SEEK: Check = Check {
    name: "seek",
    law: "after seek(o), draining yields exactly records[o..] and position() counts along",
};
pub(super) const SEEK_PAST_END: Check = Check {
    name: "seek-past-end",
    law: "seeking past the end is an error and leaves the source where it was",
};
pub(super) const CHAIN: Check = Check {
    name: "chain",
    law: "a chain of operators produces what the same functions produce over an iterator",
};
pub(super) const CRASH: Check = Check {
    name: "crash",
    law: "stopping after any record and resuming a fresh source at position() loses and repeats nothing",
};

pub(super) const CONTRACT: Check = Check {
    name: "contract",
    law: "every short sequence of poll and seek calls does, at every step, what the brief says",
};
pub(super) const PROCESS: Check = Check {
    name: "process",
    law: "an operator called once appends exactly its records to out, in order",
};

/// The inputs of the `process` check: a zero, values of each remainder mod 2 and 3, and
/// one that divides nothing the operators test.
pub const PROCESS_INPUTS: [u32; 4] = [0, 1, 2, 5];

/// One case of stage 01.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Case {
    /// Seek to `offset` (at most the length) and drain.
    Seek {
        /// The source's records.
        records: Vec<u32>,
        /// Where to seek.
        offset: u64,
    },
    /// Poll once (if there is a record), then seek to `offset`, past the end.
    SeekPastEnd {
        /// The source's records.
        records: Vec<u32>,
        /// Where to seek: beyond the end.
        offset: u64,
    },
    /// Run `chain` over the records.
    Chain {
        /// The chain.
        chain: ChainId,
        /// The source's records.
        records: Vec<u32>,
    },
    /// Run `chain`, stopping after `crash_after` records and resuming a fresh source.
    Crash {
        /// The chain.
        chain: ChainId,
        /// The source's records.
        records: Vec<u32>,
        /// How many records are polled before the crash.
        crash_after: usize,
    },
    /// `calls` on a fresh source of `records`, then polls until `None`.
    Contract {
        /// The source's records.
        records: Vec<u32>,
        /// The calls, in order.
        calls: Vec<Call>,
    },
    /// The long log of `len` records, record `i` being `i` (`long.rs`).
    LongLog {
        /// How many records.
        len: u64,
    },
    /// Two sources read side by side (`side_by_side.rs`).
    SideBySide,
    /// `FlatMap(|x| 0..x).process(input, &mut out)`, `input` past any cap (`wide.rs`).
    WideFlatMap {
        /// The record: how many records the function returns.
        input: u32,
    },
    /// `run` over a source of `len` records, past any cap (`wide.rs`).
    LongRun {
        /// How many records.
        len: u32,
    },
    /// One `operator.process(input, &mut out)` call.
    Process {
        /// The operator (or chain).
        operator: OperatorId,
        /// The record.
        input: u32,
        /// What `out` holds before the call.
        out: Vec<u32>,
    },
}

impl case::Case for Case {
    fn check(&self) -> Check {
        match self {
            Case::Seek { .. } => SEEK,
            Case::SeekPastEnd { .. } => SEEK_PAST_END,
            Case::Chain { .. } | Case::LongRun { .. } => CHAIN,
            Case::Crash { .. } => CRASH,
            Case::Contract { .. } | Case::LongLog { .. } | Case::SideBySide => CONTRACT,
            Case::Process { .. } | Case::WideFlatMap { .. } => PROCESS,
        }
    }

    fn requirements(&self) -> Vec<&'static str> {
        match self {
            Case::Seek { .. } => vec!["01-R2", "01-R3", "01-R11", "01-R13"],
            Case::SeekPastEnd { .. } => {
                vec!["01-R1", "01-R2", "01-R4", "01-R5", "01-R14", "01-R15"]
            }
            Case::Chain { chain, .. } if chain.is_stateful() => {
                vec!["01-R6", "01-R9", "01-R10", "01-R13"]
            }
            Case::Chain { .. } => vec!["01-R9", "01-R10", "01-R12", "01-R13"],
            Case::Crash { .. } => vec![
                "01-R1", "01-R2", "01-R3", "01-R9", "01-R11", "01-R12", "01-R13",
            ],
            Case::Contract { records, calls } => {
                contract::requirements(records.len() as u64, calls)
            }
            Case::LongLog { .. } => super::long::requirements(),
            Case::SideBySide => super::side_by_side::requirements(),
            Case::WideFlatMap { .. } => vec!["01-R6", "01-R7"],
            Case::LongRun { .. } => vec!["01-R9", "01-R10", "01-R13"],
            Case::Process { operator, .. } if operator.is_chain() => vec!["01-R7", "01-R8"],
            Case::Process { .. } => vec!["01-R6", "01-R7"],
        }
    }

    fn describe(&self) -> String {
        match self {
            Case::Seek { records, offset } => {
                format!("VecSource::new(vec!{records:?}), seek({offset}), then poll until None")
            }
            Case::SeekPastEnd { records, offset } => format!(
                "VecSource::new(vec!{records:?}), poll {} time(s), then seek({offset})",
                records.len().min(1)
            ),
            Case::Chain { chain, records } => {
                format!("run(VecSource::new(vec!{records:?}), {})", chain.describe())
            }
            Case::Crash {
                chain,
                records,
                crash_after,
            } => format!(
                "{} over vec!{records:?}, crash after {crash_after} record(s), resume at position()",
                chain.describe()
            ),
            Case::Contract { records, calls } => {
                let mut text = format!("VecSource::new(vec!{records:?})");
                for call in calls {
                    text.push_str(", ");
                    text.push_str(&call.describe());
                }
                text + ", then poll until None"
            }
            Case::LongLog { len } => super::long::describe(*len),
            Case::SideBySide => super::side_by_side::describe(),
            Case::WideFlatMap { input } => super::wide::describe_flat_map(*input),
            Case::LongRun { len } => super::wide::describe_run(*len),
            Case::Process {
                operator,
                input,
                out,
            } => format!(
                "{}.process({input}, &mut out) with out = vec!{out:?}",
                operator.describe()
            ),
        }
    }
}

/// Every case for `seed`: values from the seed, structure exhaustive, shortest first.
pub fn plan(seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed, 1);
    let inputs: Vec<Vec<u32>> = (0..=MAX_LEN).map(|len| rng.values(len, 5)).collect();
    let mut cases = Vec::new();
    for records in &inputs {
        for offset in 0..=records.len() as u64 {
            cases.push(Case::Seek {
                records: records.clone(),
                offset,
            });
        }
    }
    for records in &inputs {
        let len = records.len() as u64;
        for offset in [len + 1, len + 2, 1 << 32, u64::MAX] {
            cases.push(Case::SeekPastEnd {
                records: records.clone(),
                offset,
            });
        }
    }
    for records in &inputs {
        for chain in ChainId::ALL {
            cases.push(Case::Chain {
                chain,
                records: records.clone(),
            });
        }
    }
    for records in &inputs {
        for chain in ChainId::ALL.into_iter().filter(|c| !c.is_stateful()) {
            for crash_after in 0..=records.len() {
                cases.push(Case::Crash {
                    chain,
                    records: records.clone(),
                    crash_after,
                });
            }
        }
    }
    // The contract and process cases are the same under every seed: chosen, not drawn.
    for records in contract::sources() {
        for calls in contract::sequences(records.len() as u64) {
            cases.push(Case::Contract {
                records: records.clone(),
                calls,
            });
        }
    }
    for operator in OperatorId::ALL {
        for out in [vec![], vec![9, 4]] {
            for input in PROCESS_INPUTS {
                cases.push(Case::Process {
                    operator,
                    input,
                    out: out.clone(),
                });
            }
        }
    }
    // Last, so every case above keeps its number: one source longer than a `u16` counts.
    cases.push(Case::LongLog {
        len: super::long::LONG_LEN,
    });
    // After them, so the cases above keep their numbers: two sources read side by side.
    cases.push(Case::SideBySide);
    // After them, so the cases above keep their numbers: functions with state behind and
    // inside a `FlatMap`.
    for records in &inputs {
        for chain in ChainId::LATER {
            cases.push(Case::Chain {
                chain,
                records: records.clone(),
            });
        }
    }
    // After them, so the cases above keep their numbers: a function that returns a
    // million records and more, and a source as long (`wide.rs`).
    cases.push(Case::WideFlatMap {
        input: super::wide::WIDE,
    });
    cases.push(Case::LongRun {
        len: super::wide::WIDE,
    });
    cases
}
