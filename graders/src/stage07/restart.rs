//! The recovery's first store call: `latest_completed()`, right after the first attempt's
//! last call; asked late or never, what the job did instead names the broken rule.

use super::oracle::{Call, Expected, show};
use super::plan::Run;
use crate::harness::Failure;

/// Recovery asks the store, and only the store, where to restart: some
/// `latest_completed()` must come right after the last call before the crash, before any
/// other call (the restart point is the one the spy handed out). Asked only later, the
/// job made calls the crash should have prevented: the end-of-input completions of a
/// crash after the last record (07-R11), or more of the first attempt (07-R10).
pub(super) fn asked_the_store(run: &Run, want: &Expected, calls: &[Call]) -> Result<(), Failure> {
    let k = run.crash_after.unwrap_or(run.words.len());
    // The calls made after the first attempt's last one and before the job asked.
    let mut protocol_calls = 0;
    let mut early = Vec::new();
    let mut asked_later = false;
    for call in calls {
        match call {
            Call::LatestCompleted { .. } if protocol_calls == want.before_crash => return Ok(()),
            Call::LatestCompleted { .. } if protocol_calls > want.before_crash => {
                asked_later = true;
                break;
            }
            Call::LatestCompleted { .. } => {}
            other => {
                if protocol_calls >= want.before_crash {
                    early.push(other);
                }
                protocol_calls += 1;
            }
        }
    }
    let at = format!(
        "store call {} (the recovery after the crash after {k} record(s))",
        want.before_crash + 1
    );
    let actual = early
        .first()
        .map_or_else(|| "no more calls".to_owned(), |c| show(c));
    if asked_later {
        let only_completions = early.iter().all(|c| matches!(c, Call::Complete { .. }));
        let (why, rule) = if k == run.words.len() && only_completions && lag_seen(want) {
            (
                format!(
                    "the job completed its in-flight checkpoints before the crash: crash_after = {k} = the \
                     input's length is a crash after the last record, before the end-of-input completions"
                ),
                "07-R11",
            )
        } else if only_completions {
            (
                format!(
                    "a completion before the crash came too early: with commit_lag = {}, a checkpoint \
                     completes {} barrier(s) after its own save, and a crash after record {k} comes before \
                     the end-of-input completions",
                    run.commit_lag, run.commit_lag
                ),
                "07-R8",
            )
        } else {
            (
                format!(
                    "the job went on after record {k}: it stops after exactly {k} record(s) and the calls of \
                     their barriers, and asks the store where to restart before anything else"
                ),
                "07-R10",
            )
        };
        return Err(Failure::new("latest_completed()", actual)
            .step(format!("{at}: {why}"))
            .requirement(rule));
    }
    let at_the_end = k == run.words.len();
    let only_completions =
        !early.is_empty() && early.iter().all(|c| matches!(c, Call::Complete { .. }));
    if at_the_end && only_completions && lag_seen(want) {
        return Err(Failure::new("latest_completed()", actual)
            .step(format!(
                "{at}: the job ran crash_after = {k} = the input's length as no crash: it completed its \
                 in-flight checkpoints at the end of the input and never recovered, but that is a crash \
                 after the last record, before the end-of-input completions"
            ))
            .requirement("07-R11"));
    }
    let crash_too = if at_the_end {
        format!(" (crash_after = {k}, the input's length, is a crash too)")
    } else {
        String::new()
    };
    Err(Failure::new("latest_completed()", actual)
        .step(format!(
            "{at}: recovery never asked the store for latest_completed(){crash_too}; a real job has \
             nothing but the store after a crash, so the restart point must be the one the store \
             hands out"
        ))
        .requirement("07-R12"))
}

/// Whether the first attempt's calls show the commit lag kept: some save is not followed
/// at once by its own completion. Only then can completions the crash should have
/// prevented be told from completions at the barrier (`complete(c)` right after
/// `save(c)` is either).
fn lag_seen(want: &Expected) -> bool {
    let first = &want.calls[..want.before_crash];
    first.iter().enumerate().any(|(i, call)| match call {
        Call::Save { id, .. } => match first.get(i + 1) {
            Some(Call::Complete { id: done }) => done != id,
            Some(_) => true,
            None => false,
        },
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stage07::oracle::expected;

    fn run(crash_after: usize) -> Run {
        Run {
            words: ["a", "b", "a"].map(str::to_owned).to_vec(),
            barrier_every: 1,
            crash_after: Some(crash_after),
            commit_lag: 1,
        }
    }

    /// The first attempt's calls, then the end-of-input completion a run without a crash
    /// makes, and no `latest_completed()`.
    fn run_as_no_crash(run: &Run) -> (Expected, Vec<Call>) {
        let want = expected(run);
        let mut calls = want.calls[..want.before_crash].to_vec();
        calls.push(Call::Complete { id: 3 });
        (want, calls)
    }

    #[test]
    fn a_crash_after_the_last_record_run_as_no_crash_is_blamed_on_the_crash_at_the_end() {
        let run = run(3);
        let (want, calls) = run_as_no_crash(&run);
        let failure = asked_the_store(&run, &want, &calls).unwrap_err();
        assert_eq!(failure.requirement, Some("07-R11"), "{failure:?}");
    }

    #[test]
    fn a_recovery_that_never_asks_the_store_is_blamed_on_the_restart_point() {
        let run = run(2);
        let want = expected(&run);
        let calls = want.calls[..want.before_crash].to_vec();
        let failure = asked_the_store(&run, &want, &calls).unwrap_err();
        assert_eq!(failure.requirement, Some("07-R12"), "{failure:?}");
    }
}
