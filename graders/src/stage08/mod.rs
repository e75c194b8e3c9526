//! Stage 08 · transactional sink: two-phase commit, end-to-end exactly-once.
//!
//! Checks, smallest case first:
//! - `sink-model`: the sink alone against a model, for every well-formed sequence of up
//!   to [`MAX_OPS`] operations over ids 1 and 2: `committed()` after every operation;
//! - `exactly-once`: `run_exactly_once_sink` for every input length `0..=MAX_LEN`
//!   (duplicate values), `barrier_every` in `1..=len + 1`, crash point in
//!   `None, 0..=len` and `commit_lag` in `0..=2`: the sorted output is the sorted input;
//! - `protocol`: the same grid through `run_exactly_once_sink_with` and a spying sink,
//!   judged on invariants (see [`judge`](self::judge_protocol)), not on the reference's calls;
//! - `bad-input`: a `barrier_every` of 0 and a crash point past the end are errors that
//!   name the argument.
//!
//! A grid case (one input and one `barrier_every`) covers every crash point x lag, so a
//! failure can show the whole matrix of its smallest failing input, each failing cell
//! marked with its anomaly.

mod anomaly;
mod binding;
mod driver;
mod first_sink;
mod judge;
mod oracle;
mod plan;
pub mod trace;

pub use anomaly::Anomaly;
pub use binding::{Implementation, MAX_CALLS_PER_SINK, Spy, SpyCall, SpyLog};
pub use driver::{Observation, RunResult, SpiedRun, drive, spied};
pub use judge::{CellFailure, judge_exactly_once, judge_protocol, multiset_anomaly};
pub use oracle::{ModelSink, Schedule, reference_calls};
pub use plan::{Case, MAX_LAG, MAX_LEN, MAX_OPS, SINK_IDS, SinkOp, input, sequences_from};

use std::fmt::Write as _;

use crate::harness::{Failure, Stage};

/// The stage-08 grader.
#[derive(Debug, Clone, Copy)]
pub struct TransactionalSinkStage;

impl Stage for TransactionalSinkStage {
    const NUMBER: u8 = 8;
    type Case = Case;
    type Observation = Observation;

    fn plan(seed: u64) -> Vec<Case> {
        plan::plan(seed)
    }

    fn judge(case: &Case, observation: &Observation) -> Result<(), Failure> {
        match (case, observation) {
            (Case::SinkModel { first }, Observation::SinkModel { committed }) => {
                judge_sink_model(*first, committed)
            }
            (
                Case::ExactlyOnce {
                    records,
                    barrier_every,
                },
                Observation::ExactlyOnce { cells },
            ) => {
                let verdicts = grid(records, *barrier_every, cells, |schedule, cell| {
                    let _ = schedule;
                    judge_exactly_once(records, cell)
                });
                let outputs = cells.iter().map(output_of).collect::<Vec<_>>();
                grid_failure(records, *barrier_every, &verdicts, &outputs, "exactly-once")
            }
            (
                Case::Protocol {
                    records,
                    barrier_every,
                },
                Observation::Protocol { cells },
            ) => {
                let verdicts = grid(records, *barrier_every, cells, |schedule, cell| {
                    judge_protocol(records, schedule, cell)
                });
                let outputs = cells
                    .iter()
                    .map(|c| output_of(&c.result))
                    .collect::<Vec<_>>();
                grid_failure(records, *barrier_every, &verdicts, &outputs, "protocol")
            }
            (
                Case::BadInput {
                    barrier_every,
                    crash_after,
                    ..
                },
                Observation::BadInput { plain, spied },
            ) => {
                let argument = if *barrier_every == 0 {
                    "barrier_every"
                } else {
                    "crash_after"
                };
                let expected = format!("Err(..) whose message names `{argument}`");
                for (entry, result) in [
                    ("run_exactly_once_sink", plain),
                    ("run_exactly_once_sink_with", spied),
                ] {
                    let (anomaly, actual) = match result {
                        RunResult::Error(e) if e.contains(argument) => continue,
                        RunResult::Error(e) => (Anomaly::ErrorWithoutArgument, format!("Err({e})")),
                        RunResult::Output(o) => (Anomaly::AcceptedBadInput, format!("Ok({o:?})")),
                        RunResult::Panicked(m) => (Anomaly::Panicked, format!("panicked: {m}")),
                    };
                    return Err(Failure::new(expected, format!("{}: {actual}", anomaly.name()))
                        .step(format!("{entry} with barrier_every = {barrier_every}, crash_after = {crash_after:?}")));
                }
                Ok(())
            }
            _ => Err(Failure::new(
                "an observation of the same kind as the case",
                format!("{observation:?}"),
            )),
        }
    }
}

fn output_of(result: &RunResult) -> Option<Vec<u32>> {
    match result {
        RunResult::Output(output) => Some(output.clone()),
        _ => None,
    }
}

/// Judges every cell of a grid; `None` where the observation has no cell.
fn grid<C>(
    records: &[u32],
    barrier_every: usize,
    cells: &[C],
    judge: impl Fn(Schedule, &C) -> Result<(), CellFailure>,
) -> Vec<Result<(), CellFailure>> {
    Case::cells(records.len())
        .into_iter()
        .enumerate()
        .map(|(i, (crash_after, commit_lag))| {
            let schedule = Schedule {
                len: records.len(),
                barrier_every,
                crash_after,
                commit_lag,
            };
            match cells.get(i) {
                Some(cell) => judge(schedule, cell),
                None => Err(CellFailure {
                    anomaly: Anomaly::Panicked,
                    step: "the driver recorded no result for this cell".to_owned(),
                }),
            }
        })
        .collect()
}

/// The failure of a grid: its first failing cell in full, and the crash x lag matrix.
fn grid_failure(
    records: &[u32],
    barrier_every: usize,
    verdicts: &[Result<(), CellFailure>],
    outputs: &[Option<Vec<u32>>],
    check: &str,
) -> Result<(), Failure> {
    let cells = Case::cells(records.len());
    let Some((i, failure)) = verdicts
        .iter()
        .enumerate()
        .find_map(|(i, v)| v.as_ref().err().map(|f| (i, f)))
    else {
        return Ok(());
    };
    let (crash_after, commit_lag) = cells[i];
    let crash = crash_after.map_or("none".to_owned(), |k| k.to_string());
    let expected = if check == "exactly-once" {
        format!("each of the records {records:?} exactly once")
    } else {
        let schedule = Schedule {
            len: records.len(),
            barrier_every,
            crash_after,
            commit_lag,
        };
        match crash_after {
            None => "every checkpoint committed when notified, the output = records".to_owned(),
            Some(k) => format!(
                "at the crash after record {k}: records[..{}] visible, the rest aborted; the fresh sink gets records[{}..]",
                schedule.restart_offset(),
                schedule.restart_offset()
            ),
        }
    };
    let actual = format!(
        "{}: {}",
        failure.anomaly.name(),
        outputs[i]
            .as_ref()
            .map_or_else(|| "no output".to_owned(), |o| format!("output {o:?}"),)
    );
    let mut step = format!(
        "with barrier_every = {barrier_every}, crash_after = {crash}, commit_lag = {commit_lag}: {}",
        failure.step
    );
    let _ = write!(step, "\n{}", matrix(records.len(), verdicts));
    let crash_flag = crash_after.map_or(String::new(), |k| format!(" --crash-after {k}"));
    let _ = write!(
        step,
        "\n      see it: cargo byo trace 08 --records {} --barrier-every {barrier_every}{crash_flag} --lag {commit_lag} --mine",
        records.len()
    );
    let failure = Failure::new(expected, actual).step(step);
    Err(match &outputs[i] {
        Some(output) => failure.multiset(records, output),
        None => failure,
    })
}

/// The crash-point x lag matrix of a grid: `ok`, or the failing cell's anomaly code.
pub fn matrix(len: usize, verdicts: &[Result<(), CellFailure>]) -> String {
    let mut out = String::from("      crash point x commit_lag (ok, or the anomaly):\n");
    let _ = write!(out, "      {:<10}", "");
    for lag in 0..=MAX_LAG {
        let _ = write!(out, "{:<10}", format!("lag {lag}"));
    }
    let mut cells = verdicts.iter();
    for crash in Case::crash_points(len) {
        let label = crash.map_or("no crash".to_owned(), |k| format!("after {k}"));
        let _ = write!(out, "\n      {label:<10}");
        for _ in 0..=MAX_LAG {
            let code = match cells.next() {
                Some(Ok(())) => "ok",
                Some(Err(f)) => f.anomaly.code(),
                None => "?",
            };
            let _ = write!(out, "{code:<10}");
        }
    }
    out.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

fn judge_sink_model(first: SinkOp, committed: &[Vec<u32>]) -> Result<(), Failure> {
    let sequences = sequences_from(&[first]);
    let mut worst: Option<(usize, Failure)> = None;
    for (i, ops) in sequences.iter().enumerate() {
        let mut model = ModelSink::default();
        let mut written = 0;
        for &op in ops {
            let call = match op {
                SinkOp::Write => {
                    written += 1;
                    SpyCall::Write(written)
                }
                SinkOp::PreCommit(id) => SpyCall::PreCommit(id),
                SinkOp::Commit(id) => SpyCall::Commit(id),
                SinkOp::Abort(id) => SpyCall::Abort(id),
                SinkOp::AbortOpen => SpyCall::AbortOpen,
            };
            model.apply(call);
        }
        let got = committed.get(i);
        if got == Some(&model.committed) || worst.as_ref().is_some_and(|(len, _)| *len <= ops.len())
        {
            continue;
        }
        let actual = got.map_or_else(
            || "no observation".to_owned(),
            |g| format!("committed() = {g:?}"),
        );
        let why = got.map_or(String::new(), |g| sink_law(&model, g));
        let failure = Failure::new(
            format!("committed() = {:?}", model.committed),
            format!("{}: {actual}", Anomaly::SinkContract.name()),
        )
        .step(format!(
            "after {} (writes write 1, 2, 3, ... in order): {why}",
            describe_ops(ops)
        ));
        let failure = match got {
            Some(g) => failure.multiset(&model.committed, g),
            None => failure,
        };
        worst = Some((ops.len(), failure));
    }
    worst.map_or(Ok(()), |(_, f)| Err(f))
}

/// Which law of the sink a wrong `committed()` breaks.
fn sink_law(model: &ModelSink, got: &[u32]) -> String {
    let diff = crate::harness::diff::multiset_diff(&model.committed, got);
    let hidden: Vec<u32> = model
        .transactions
        .values()
        .filter_map(|t| match t {
            oracle::ModelTxn::Prepared(r) => Some(r.clone()),
            _ => None,
        })
        .flatten()
        .chain(model.open.iter().copied())
        .collect();
    if let Some(r) = diff.extra.iter().find(|r| model.committed.contains(r)) {
        format!(
            "record {r} is visible twice: a commit must publish once (a repeated commit is ignored)"
        )
    } else if let Some(r) = diff.extra.iter().find(|r| hidden.contains(r)) {
        format!(
            "record {r} is visible, but it is only open or prepared: nothing is visible before commit"
        )
    } else if let Some(r) = diff.extra.first() {
        format!("record {r} is visible, but it was aborted")
    } else if let Some(r) = diff.missing.first() {
        format!("record {r} was committed but is not visible")
    } else {
        "the visible records are in the wrong order: commit appends in commit order".to_owned()
    }
}

fn describe_ops(ops: &[SinkOp]) -> String {
    let mut written = 0;
    let calls: Vec<String> = ops
        .iter()
        .map(|op| match op {
            SinkOp::Write => {
                written += 1;
                format!("write({written})")
            }
            SinkOp::PreCommit(id) => format!("pre_commit({id})"),
            SinkOp::Commit(id) => format!("commit({id})"),
            SinkOp::Abort(id) => format!("abort({id})"),
            SinkOp::AbortOpen => "abort_open()".to_owned(),
        })
        .collect();
    calls.join(", ")
}
