//! A grid case judged cell by cell (every crash point x commit lag of one input and one
//! `barrier_every`): its failure shows the first failing cell in full and the whole
//! matrix, each failing cell marked with its anomaly.

use std::fmt::Write as _;

use super::anomaly::Anomaly;
use super::cell::CellFailure;
use super::oracle::Schedule;
use super::plan::{Case, MAX_LAG};
use super::run_result::RunResult;
use crate::harness::case::Failure;

pub(super) fn output_of(result: &RunResult) -> Option<Vec<u32>> {
    match result {
        RunResult::Output(output) => Some(output.clone()),
        _ => None,
    }
}

/// Judges every cell of a grid; `None` where the observation has no cell.
pub(super) fn grid<C>(
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

/// The failure of a grid: its first failing cell in full, and the crash x commit lag matrix.
pub(super) fn grid_failure(
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
    let _ = write!(step, "\n      {}", reading(records.len(), verdicts));
    let crash_flag = crash_after.map_or(String::new(), |k| format!(" --crash-after {k}"));
    let _ = write!(
        step,
        "\n      see it: cargo byo trace 08 --records {} --barrier-every {barrier_every}{crash_flag} --lag {commit_lag} --mine",
        records.len()
    );
    let failure = Failure::new(expected, actual)
        .step(step)
        .requirement(failure.anomaly.requirement());
    Err(match &outputs[i] {
        Some(output) => failure.multiset(records, output),
        None => failure,
    })
}

/// How to read the matrix's pattern, in one line. Lag 0 is the column where "prepared"
/// and "notified" coincide (a checkpoint is notified at its own barrier), so a mix-up
/// of the two fails only at lag > 0, whether it lives in the notification queue or in
/// the crash handling: the columns do not tell those apart, the rows do.
fn reading(len: usize, verdicts: &[Result<(), CellFailure>]) -> String {
    let failing: Vec<(Option<usize>, usize)> = Case::cells(len)
        .into_iter()
        .zip(verdicts)
        .filter(|(_, v)| v.is_err())
        .map(|(cell, _)| cell)
        .collect();
    // What the job's own calls showed in every failing cell, when that names the mistake
    // better than the pattern does.
    let stray_aborts = verdicts
        .iter()
        .filter_map(|v| v.as_ref().err())
        .all(|f| f.anomaly == Anomaly::AbortedOnFreshSink);
    if stray_aborts {
        "reading it: only a crash with a checkpoint prepared and not yet notified fails (lag > 0), and each time the job sent its abort to the fresh sink; look at which sink the crash's aborts go to".to_owned()
    } else if failing.iter().all(|(_, lag)| *lag > 0) {
        "reading it: only lag > 0 fails; at lag 0 a checkpoint is notified at its own barrier, so a mix-up of \"prepared\" and \"notified\" hides there (a commit before the notification, a commit instead of an abort at the crash, a replay from the last checkpoint taken, an off queue)".to_owned()
    } else if failing.iter().any(|(crash, _)| crash.is_none()) {
        "reading it: the run without a crash fails too; start with the normal run (writes, barriers, notifications, the final commit)".to_owned()
    } else {
        "reading it: only crashes fail, at lag 0 too; look at the crash handling and the replay (what is aborted, the fresh sink, where the replay starts, its ids)".to_owned()
    }
}

/// The crash-point x commit lag matrix of a grid: `ok`, or the failing cell's anomaly code.
pub fn matrix(len: usize, verdicts: &[Result<(), CellFailure>]) -> String {
    let mut out = String::from("      crash point x commit_lag (ok, or the anomaly):\n");
    let _ = write!(out, "      {:<10}", "");
    for commit_lag in 0..=MAX_LAG {
        let _ = write!(out, "{:<10}", format!("lag {commit_lag}"));
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
