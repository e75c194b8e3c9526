//! The restart from counts no run of the grader reaches: the spy store, asked at the
//! recovery, hands back the latest completed checkpoint with counts past a `u32` (up to
//! `u64::MAX`) in place of its state. They are counts, so the job restores them as they
//! are and replays on top of them; only a state that is not counts may end the run with
//! an error. A job that reads or keeps the counts narrower than a `u64` refuses them,
//! panics, or goes on from other counts.

use super::Outcome;
use super::calls::judge_calls;
use super::oracle::{self, Call, Counts, show};
use super::plan::Run;
use super::saved_state::same_call;
use crate::harness::Failure;
use crate::stage03::guard::Answer;

/// Judges a run whose recovery was handed `handed` as the latest checkpoint's counts.
pub(super) fn judge_forged(
    run: &Run,
    handed: &Counts,
    result: &Answer<Outcome>,
    calls: &[Call],
) -> Result<(), Failure> {
    let want = oracle::expected_from_state(run, handed);
    let (c, o) = want.restored;
    let len = run.words.len();
    let why = format!(
        "latest_completed() handed back checkpoint {c} (offset {o}) with the state {}: counts \
         (a count is a u64, from 0 up to u64::MAX), so the job restores them as they are and replays \
         records {o}..{len} on top of them; only a state that is not counts may end the run \
         with an error",
        String::from_utf8_lossy(&oracle::state_of(handed))
    );
    let fail = |expected: String, actual: String, what: String| {
        Err(Failure::new(expected, actual)
            .step(format!("{what}: {why}"))
            .requirement("07-R12"))
    };
    let (counts, emitted) = match result {
        Answer::Ok(outcome) => (&outcome.0, &outcome.1),
        other => {
            return fail(
                "Ok(outcome)".to_owned(),
                other.show(),
                "the run did not return its outcome".to_owned(),
            );
        }
    };
    let made: Vec<&Call> = calls
        .iter()
        .filter(|call| !matches!(call, Call::LatestCompleted { .. }))
        .collect();
    let first_wrong = (0..want.calls.len().max(made.len())).find(|&n| {
        !matches!((made.get(n), want.calls.get(n)), (Some(got), Some(due)) if same_call(got, due))
    });
    if let Some(n) = first_wrong {
        if n < want.before_crash {
            // Wrong before the crash: the protocol's own judge explains it.
            judge_calls(run, &want, calls)?;
        }
        return fail(
            want.calls.get(n).map_or("no more calls".to_owned(), show),
            made.get(n)
                .map_or("no more calls".to_owned(), |call| show(call)),
            format!("store call {} (after the crash)", n + 1),
        );
    }
    if *counts != want.counts {
        return fail(
            format!("{:?}", want.counts),
            format!("{counts:?}"),
            "the final counts".to_owned(),
        );
    }
    if *emitted != want.emitted {
        let n = want
            .emitted
            .iter()
            .zip(emitted)
            .position(|(due, got)| due != got)
            .unwrap_or(want.emitted.len().min(emitted.len()));
        return fail(
            format!("{:?}", want.emitted),
            format!("{emitted:?}"),
            format!("emission {} (from 1) differs", n + 1),
        );
    }
    Ok(())
}
