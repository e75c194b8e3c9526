//! Runs through a store whose `save` or `complete` fails once, as a real store's does on
//! a full disk or a lost connection: the run must return an error and call the store no
//! more (07-R23). A job that ignores the error goes on as if the checkpoint were kept, and
//! one day restores a checkpoint that was never saved, or never restores one that was.

use super::oracle::{self, Call};
use super::plan::Run;
use crate::harness::Failure;
use crate::stage03::guard::Answer;

/// The runs whose store calls fail, one call at a time: over three words, a checkpoint
/// per record, a crash after two, with lag 0 (each save completed at once), lag 1 (a
/// completion after the next save, and the end's completions after the replay) and lag 2
/// (two completions in a row at the end, so a finish that goes on completing after a
/// failed one shows), so that every kind of call fails once before the crash and once
/// after it.
pub fn runs() -> Vec<Run> {
    (0..=2)
        .map(|commit_lag| Run {
            words: ["a", "b", "a"].map(str::to_owned).to_vec(),
            barrier_every: 1,
            crash_after: Some(2),
            commit_lag,
        })
        .collect()
}

/// The same three words without a crash, then with a crash after the last record (a
/// restore with nothing left to replay), at the same lags: a job that lets a failed call
/// end only a run that will crash, and logs it and goes on in a run that will not, passes
/// [`runs`].
pub fn clean_runs() -> Vec<Run> {
    [None, Some(3)]
        .into_iter()
        .flat_map(|crash_after| {
            runs()
                .into_iter()
                .map(move |run| Run { crash_after, ..run })
        })
        .collect()
}

/// Every `(run, n)` of [`runs`]: the run whose `n`-th `save` or `complete` (from 1)
/// fails, for every such call the correct job makes, first to last.
pub fn cases() -> Vec<(Run, usize)> {
    each_call_failing(runs())
}

/// Every `(run, n)` of [`clean_runs`], as [`cases`].
pub fn clean_cases() -> Vec<(Run, usize)> {
    each_call_failing(clean_runs())
}

fn each_call_failing(runs: Vec<Run>) -> Vec<(Run, usize)> {
    runs.into_iter()
        .flat_map(|run| {
            let calls = oracle::expected(&run).calls.len();
            (1..=calls).map(move |n| (run.clone(), n))
        })
        .collect()
}

/// Whether `call` is one the failing store counts: a `save` or a `complete`.
pub fn counted(call: &Call) -> bool {
    !matches!(call, Call::LatestCompleted { .. })
}

/// The message of the store's failure, which the run may wrap as it likes.
pub fn message(call: &Call) -> String {
    format!(
        "the grader's store failed {} on purpose, as a store does when its disk is full",
        oracle::show(call)
    )
}

/// Judges a run whose `failing`-th counted store call failed: an error, and no store
/// call after that one. A run that never made that call took another path, which the
/// other checks judge; a panic is judged here, since a panicking run's calls are lost.
pub fn judge(
    failing: usize,
    answer: &Answer<impl std::fmt::Debug>,
    calls: &[Call],
) -> Result<(), Failure> {
    if let Answer::Panicked(_) = answer {
        return Err(Failure::new("an error", answer.show())
            .step(format!(
                "the store's save or complete call number {failing} failed, as a store does \
                 when its disk is full: the run must return an error, not panic"
            ))
            .requirement("07-R23"));
    }
    let Some(at) = calls
        .iter()
        .enumerate()
        .filter(|(_, call)| counted(call))
        .nth(failing - 1)
        .map(|(i, _)| i)
    else {
        return Ok(());
    };
    let failed = format!(
        "store call {} ({}) failed, as a store does when its disk is full",
        at + 1,
        oracle::show(&calls[at])
    );
    if let Some(next) = calls.get(at + 1) {
        let after: Vec<String> = calls[at + 1..].iter().map(oracle::show).collect();
        return Err(Failure::new(
            "no store call after the failed one",
            format!("[{}]", after.join(", ")),
        )
        .step(format!(
            "{failed}; the run called the store again ({}): a failed store call ends the run \
             with its error, without retrying it, going on or recovering as from a crash",
            oracle::show(next)
        ))
        .requirement("07-R23"));
    }
    match answer {
        Answer::Err(_) => Ok(()),
        other => Err(Failure::new("an error", other.show())
            .step(format!(
                "{failed}; the run must return an error: a checkpoint the store did not keep \
                 cannot be counted on"
            ))
            .requirement("07-R23")),
    }
}
