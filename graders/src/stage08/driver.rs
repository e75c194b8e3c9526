//! Runs one stage-08 case against an implementation and records what happened.

use std::panic::{self, AssertUnwindSafe};

use serde::{Deserialize, Serialize};

use super::binding::{Implementation, SpyBook, SpyCall, SpyLog};
use super::commit_order::out_of_order_prefixes;
use super::id_zero::id_zero_sequences;
use super::many_checkpoints::{all_prepared_at_once, high_ids, many_checkpoints};
use super::own_sink::{OwnSinkRun, own_sink_run};
use super::plan::{
    AT_CRASH, Case, MANY_CHECKPOINTS_AT_ONCE, OTHER_WRITER, SHOWN_BEFORE, SinkOp,
    pending_at_once_input,
};
use super::run_result::{RunResult, panic_message};
use super::sequences::sequences_from;
use super::sink_snapshot::{finishing, snapshot_sequences};
use crate::harness::driver::begin_run;

/// One cell of a grid run through the spy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpiedRun {
    /// How the job ended.
    pub result: RunResult,
    /// The calls on every sink the job created, in creation order.
    pub sinks: Vec<Vec<SpyCall>>,
    /// Which sink each creation and call was on, in time order ([`SpyBook::order`]).
    ///
    /// [`SpyBook::order`]: super::binding::SpyBook::order
    #[serde(default)]
    pub order: Vec<usize>,
    /// The same cell with the learner's own sink behind the spy, where that shows
    /// something else (for `byo trace 08 --mine`; the judge does not look at it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own: Option<Box<OwnSinkRun>>,
}

/// What the driver saw while running one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Observation {
    /// `committed()` after the last operation of every sequence, in plan order, or
    /// where the sequence panicked.
    SinkModel {
        /// One entry per sequence of `sequences_from([first])`.
        committed: Vec<Result<Vec<u32>, SinkPanic>>,
    },
    /// What each sequence's sink showed after `restore(&snapshot()?)` and the finishing
    /// calls, or why that failed (an error of `snapshot` or `restore`, or a panic).
    SinkSnapshot {
        /// One entry per sequence of `snapshot_sequences(first)`.
        after: Vec<Result<Vec<u32>, String>>,
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
        /// The calls on every sink that spied run created, in creation order.
        #[serde(default)]
        sinks: Vec<Vec<SpyCall>>,
    },
}

/// A panic of the sink alone: where in its sequence it happened, and its message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SinkPanic {
    /// How many operations of the sequence ran before the one that panicked (the
    /// sequence's length: the closing `committed()` panicked).
    pub after: usize,
    /// The panic's message.
    pub message: String,
}

/// Runs every sequence of `sequences` on fresh sinks; a panic ends its sequence only, and
/// says in which operation it happened, so a report can show the sequence.
fn sink_model<I: Implementation>(sequences: &[Vec<SinkOp>]) -> Observation {
    let committed = sequences
        .iter()
        .map(|ops| {
            let mut sink =
                caught(I::sink_new).map_err(|message| SinkPanic { after: 0, message })?;
            let mut written = 0;
            for (n, &op) in ops.iter().enumerate() {
                if op == SinkOp::Write {
                    written += 1;
                }
                caught(AssertUnwindSafe(|| I::sink_apply(&mut sink, op, written)))
                    .map_err(|message| SinkPanic { after: n, message })?;
            }
            caught(AssertUnwindSafe(|| I::sink_committed(&sink))).map_err(|message| SinkPanic {
                after: ops.len(),
                message,
            })
        })
        .collect();
    Observation::SinkModel { committed }
}

/// Runs every sequence of `sequences` on a fresh sink, takes it through
/// `restore(&snapshot()?)` and finishes it on the restored sink.
fn sink_snapshot<I: Implementation>(sequences: &[Vec<SinkOp>]) -> Observation {
    let after = sequences
        .iter()
        .map(|ops| {
            let panicked = |message| format!("panicked: {message}");
            let mut sink = caught(I::sink_new).map_err(panicked)?;
            let mut written = 0;
            let mut apply = |sink: &mut I::Sink, op: SinkOp| {
                if op == SinkOp::Write {
                    written += 1;
                }
                caught(AssertUnwindSafe(|| I::sink_apply(sink, op, written))).map_err(panicked)
            };
            for &op in ops {
                apply(&mut sink, op)?;
            }
            let mut restored = caught(AssertUnwindSafe(|| I::sink_round_trip(&sink)))
                .map_err(panicked)?
                .map_err(|e| format!("Err({e:#})"))?;
            for op in finishing(ops) {
                apply(&mut restored, op)?;
            }
            caught(AssertUnwindSafe(|| I::sink_committed(&restored))).map_err(panicked)
        })
        .collect();
    Observation::SinkSnapshot { after }
}

/// Runs `case` against the implementation `I`.
pub fn drive<I: Implementation>(case: &Case) -> Observation {
    match case {
        Case::SinkModel { first } => sink_model::<I>(&sequences_from(&[*first])),
        Case::SinkHighIds => sink_model::<I>(&high_ids()),
        Case::SinkMany { checkpoints, lag } => {
            sink_model::<I>(&many_checkpoints(*checkpoints, *lag))
        }
        Case::SinkSnapshot { first } => sink_snapshot::<I>(&snapshot_sequences(*first)),
        Case::SinkCommitOrder => sink_model::<I>(&out_of_order_prefixes()),
        Case::SinkCommitOrderSnapshot => sink_snapshot::<I>(&out_of_order_prefixes()),
        Case::SinkIdZero { first } => sink_model::<I>(&id_zero_sequences(*first)),
        Case::SinkManyAtOnce => sink_model::<I>(&[all_prepared_at_once(MANY_CHECKPOINTS_AT_ONCE)]),
        Case::ManyPending => {
            let records = pending_at_once_input();
            Observation::Protocol {
                cells: each_run(
                    Case::many_pending_cells(records.len()),
                    |crash, commit_lag| spied::<I>(&records, 1, crash, commit_lag),
                ),
            }
        }
        Case::ExactlyOnce {
            records,
            barrier_every,
        } => Observation::ExactlyOnce {
            cells: each_run(Case::cells(records.len()), |crash, commit_lag| {
                guarded(|| I::run(records, *barrier_every, crash, commit_lag))
            }),
        },
        Case::Protocol {
            records,
            barrier_every,
        } => Observation::Protocol {
            cells: each_run(Case::cells(records.len()), |crash, commit_lag| {
                let mut run = spied::<I>(records, *barrier_every, crash, commit_lag);
                run.own =
                    own_sink_run::<I>(records, *barrier_every, crash, commit_lag, &run.result)
                        .map(Box::new);
                run
            }),
        },
        Case::Contract {
            records,
            barrier_every,
        } => Observation::Protocol {
            cells: each_run(Case::contract_cells(records.len()), |crash, commit_lag| {
                spied::<I>(records, *barrier_every, crash, commit_lag)
            }),
        },
        Case::ShownBefore {
            records,
            barrier_every,
        } => Observation::Protocol {
            cells: each_run(Case::cells(records.len()), |crash, commit_lag| {
                let book = SpyBook {
                    shown_before: SHOWN_BEFORE.map(<[u32]>::to_vec).to_vec(),
                    other_writer: OTHER_WRITER.to_vec(),
                    ..SpyBook::default()
                };
                spied_showing::<I>(records, *barrier_every, crash, commit_lag, book)
            }),
        },
        Case::WriterAtCrash {
            records,
            barrier_every,
        } => Observation::Protocol {
            cells: each_run(Case::cells(records.len()), |crash, commit_lag| {
                let book = SpyBook {
                    shown_before: SHOWN_BEFORE.map(<[u32]>::to_vec).to_vec(),
                    other_writer: OTHER_WRITER.to_vec(),
                    at_crash: crash.map(|k| (k, AT_CRASH)),
                    ..SpyBook::default()
                };
                spied_showing::<I>(records, *barrier_every, crash, commit_lag, book)
            }),
        },
        Case::BadInput {
            records,
            barrier_every,
            crash_after,
        } => {
            let plain = {
                begin_run(|| "run_exactly_once_sink".to_owned());
                guarded(|| I::run(records, *barrier_every, *crash_after, 0))
            };
            begin_run(|| "run_exactly_once_sink_with a spy".to_owned());
            let run = spied::<I>(records, *barrier_every, *crash_after, 0);
            Observation::BadInput {
                plain,
                spied: run.result,
                sinks: run.sinks,
            }
        }
    }
}

/// One run per `(crash_after, commit_lag)` cell, each announced as `byo trace` names it.
fn each_run<T>(
    cells: Vec<(Option<usize>, usize)>,
    mut run: impl FnMut(Option<usize>, usize) -> T,
) -> Vec<T> {
    cells
        .into_iter()
        .map(|(crash, commit_lag)| {
            begin_run(|| run_label(crash, commit_lag));
            run(crash, commit_lag)
        })
        .collect()
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
    spied_showing::<I>(
        records,
        barrier_every,
        crash_after,
        commit_lag,
        SpyBook::default(),
    )
}

/// Runs the job with spies whose tables hold what `book` says besides the job's rows:
/// rows from before the job, and another writer's row.
fn spied_showing<I: Implementation>(
    records: &[u32],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
    book: SpyBook,
) -> SpiedRun {
    let log = SpyLog::new(std::cell::RefCell::new(book));
    let result = guarded(|| I::run_spied(records, barrier_every, crash_after, commit_lag, &log));
    let SpyBook { sinks, order, .. } = log.borrow().clone();
    SpiedRun {
        result,
        sinks,
        order,
        own: None,
    }
}

/// Runs one cell, turning a panic into a result so the other cells still run, except a
/// `todo!()`, which must reach the harness as one ("not started").
fn guarded(run: impl FnOnce() -> anyhow::Result<Vec<u32>>) -> RunResult {
    match caught(AssertUnwindSafe(run)) {
        Ok(Ok(output)) => RunResult::Output(output),
        Ok(Err(e)) => RunResult::Error(format!("{e:#}")),
        Err(message) => RunResult::Panicked(message),
    }
}

/// `run`'s value, or its panic's message; a `todo!()` goes on unwinding, to reach the
/// harness as one ("not started").
fn caught<T>(run: impl FnOnce() -> T + panic::UnwindSafe) -> Result<T, String> {
    panic::catch_unwind(run).map_err(|payload| {
        let message = panic_message(payload.as_ref());
        if message.starts_with("not yet implemented") {
            panic::resume_unwind(payload);
        }
        message
    })
}
