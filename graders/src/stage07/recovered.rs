//! What the job's own recovery restored, read from its calls on the spy store: the
//! checkpoint `latest_completed()` handed out, and how the job's calls before the crash
//! made it that one. A wrong replay or wrong final counts are explained from there, so
//! that the report names the learner's first wrong step (a missing save, an early
//! completion, a wrong save) rather than what a correct run would have restored.

use super::oracle::{Call, Expected};
use super::plan::Run;
use super::saved_state::wrong_save;

/// The recovery in the job's calls: the first `latest_completed()` and what it returned.
struct Recovery {
    /// Where the call is among the job's calls.
    at: usize,
    /// The checkpoint it handed out.
    returned: Option<u64>,
}

fn recovery(calls: &[Call]) -> Option<Recovery> {
    calls.iter().enumerate().find_map(|(at, call)| match call {
        Call::LatestCompleted { returned } => Some(Recovery {
            at,
            returned: *returned,
        }),
        _ => None,
    })
}

/// Why the job's recovery restored what it did, when that is its first wrong step: the
/// store handed out another checkpoint than a correct run's (the job's calls before the
/// crash saved or completed the wrong ones), or the right checkpoint saved with the wrong
/// counts. `None` when the calls show no recovery (the job's own store, or a job that
/// never asked) or a right one.
pub(super) fn wrong_restore(
    run: &Run,
    want: &Expected,
    calls: &[Call],
) -> Option<(String, &'static str)> {
    let recovery = recovery(calls)?;
    let (c, o) = want.restored;
    let got = recovery.returned.unwrap_or(0);
    if got == c {
        return wrong_save(run, c, o as usize, calls).map(|why| (why, "07-R7"));
    }
    let before = &calls[..recovery.at];
    let handed = match recovery.returned {
        None => "recovery was handed no checkpoint (latest_completed() returned None)".to_owned(),
        Some(id) => format!("recovery was handed checkpoint {id} (latest_completed() returned it)"),
    };
    let every = run.barrier_every as u64;
    let lag = run.commit_lag as u64;
    if got > c {
        let at = (got + lag) * every;
        let when = if at > run.words.len() as u64 {
            "only at the end of the input".to_owned()
        } else {
            format!("at the barrier after record {at}")
        };
        let k = run.crash_after.unwrap_or(run.words.len());
        // Completed only by the end of the input: a crash after the last record run as
        // the clean finish (07-R11), not a lag misread.
        let rule = if at > run.words.len() as u64 && k == run.words.len() {
            "07-R11"
        } else {
            "07-R8"
        };
        return Some((
            format!(
                "{handed}, because the job completed checkpoint {got} before the crash: with \
                 commit_lag = {lag} it completes {when}, after the crash after record {k}, so {}",
                may_have_completed(c)
            ),
            rule,
        ));
    }
    let saved = before
        .iter()
        .any(|call| matches!(call, Call::Save { id, .. } if *id == c));
    let completed = before
        .iter()
        .any(|call| matches!(call, Call::Complete { id } if *id == c));
    let k = run.crash_after.unwrap_or(run.words.len());
    if !saved {
        return Some((
            format!(
                "{handed}, because the job never saved checkpoint {c} before the crash: the barrier \
                 after record {} takes it before the job dies (crash_after = {k}: after record {k} \
                 and its barrier)",
                c * every
            ),
            "07-R10",
        ));
    }
    (!completed).then(|| {
        let at = (c + lag) * every;
        (
            format!(
                "{handed}, because the job saved checkpoint {c} but never completed it before the \
                 crash: with commit_lag = {lag} it completes at the barrier after record {at}, \
                 before the crash after record {k}"
            ),
            // At the crash's own barrier: the job died before the completions that barrier
            // releases (07-R10); at an earlier one, it misread the lag (07-R8).
            if at == k as u64 { "07-R10" } else { "07-R8" },
        )
    })
}

/// What a correct run may have completed by the crash, `c` the latest.
fn may_have_completed(c: u64) -> String {
    if c == 0 {
        "no checkpoint may have completed by then".to_owned()
    } else {
        format!("checkpoint {c} is the latest that may have completed by then")
    }
}
