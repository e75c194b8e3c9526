//! Runs one stage-08 case against an implementation and records what happened.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::binding::{Implementation, SpyCall, SpyLog};
use super::plan::{Case, SinkOp, sequences_from};
use crate::harness::driver::begin_run;

/// How one run of the job ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunResult {
    /// It returned this output.
    Output(Vec<u32>),
    /// It returned an error with this message.
    Error(String),
    /// It panicked with this message.
    Panicked(String),
}

/// One cell of a grid run through the spy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpiedRun {
    /// How the job ended.
    pub result: RunResult,
    /// The calls on every sink the job created, in creation order.
    pub sinks: Vec<Vec<SpyCall>>,
}

/// What the driver saw while running one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// `committed()` after the last operation of every sequence, in plan order.
    SinkModel {
        /// One entry per sequence of `sequences_from([first])`.
        committed: Vec<Vec<u32>>,
    },
    /// One result per cell of the grid (`Case::cells` order).
    ExactlyOnce {
        /// The results.
        cells: Vec<RunResult>,
    },
    /// One spied run per cell of the grid.
    Protocol {
        /// The runs.
        cells: Vec<SpiedRun>,
    },
    /// Both entry points on invalid arguments.
    BadInput {
        /// `run_exactly_once_sink`.
        plain: RunResult,
        /// `run_exactly_once_sink_with` a spy.
        spied: RunResult,
    },
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    match case {
        Case::SinkModel { first } => Observation::SinkModel {
            committed: sequences_from(&[*first])
                .iter()
                .map(|ops| {
                    let mut sink = I::sink_new();
                    let mut written = 0;
                    for &op in ops {
                        if op == SinkOp::Write {
                            written += 1;
                        }
                        I::sink_apply(&mut sink, op, written);
                    }
                    I::sink_committed(&sink)
                })
                .collect(),
        },
        Case::ExactlyOnce {
            records,
            barrier_every,
        } => Observation::ExactlyOnce {
            cells: Case::cells(records.len())
                .into_iter()
                .map(|(crash, commit_lag)| {
                    begin_run(|| run_label(crash, commit_lag));
                    guarded(|| I::run(records, *barrier_every, crash, commit_lag))
                })
                .collect(),
        },
        Case::Protocol {
            records,
            barrier_every,
        } => Observation::Protocol {
            cells: Case::cells(records.len())
                .into_iter()
                .map(|(crash, commit_lag)| {
                    begin_run(|| run_label(crash, commit_lag));
                    spied::<I>(records, *barrier_every, crash, commit_lag)
                })
                .collect(),
        },
        Case::BadInput {
            records,
            barrier_every,
            crash_after,
        } => Observation::BadInput {
            plain: {
                begin_run(|| "run_exactly_once_sink".to_owned());
                guarded(|| I::run(records, *barrier_every, *crash_after, 0))
            },
            spied: {
                begin_run(|| "run_exactly_once_sink_with a spy".to_owned());
                spied::<I>(records, *barrier_every, *crash_after, 0).result
            },
        },
    }
}

/// A run of a grid as `byo trace` names it: its crash point and commit lag.
pub fn run_label(crash_after: Option<usize>, commit_lag: usize) -> String {
    match crash_after {
        Some(k) => format!("crash after {k}, lag {commit_lag}"),
        None => format!("no crash, lag {commit_lag}"),
    }
}

/// Runs the job with spies; the log survives a panic.
pub fn spied<I: Implementation>(
    records: &[u32],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
) -> SpiedRun {
    let log: SpyLog = Rc::new(RefCell::new(Vec::new()));
    let result = guarded(|| I::run_spied(records, barrier_every, crash_after, commit_lag, &log));
    let sinks = log.borrow().clone();
    SpiedRun { result, sinks }
}

/// Runs one cell, turning a panic into a result so the other cells still run, except a
/// `todo!()`, which must reach the harness as one ("not started").
fn guarded(run: impl FnOnce() -> anyhow::Result<Vec<u32>>) -> RunResult {
    match panic::catch_unwind(AssertUnwindSafe(run)) {
        Ok(Ok(output)) => RunResult::Output(output),
        Ok(Err(e)) => RunResult::Error(format!("{e:#}")),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panicked with a non-string payload".to_owned());
            if message.starts_with("not yet implemented") {
                panic::resume_unwind(payload);
            }
            RunResult::Panicked(message)
        }
    }
}
