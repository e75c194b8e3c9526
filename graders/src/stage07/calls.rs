//! The `checkpoints` check: the store calls of a run against the protocol's, call by
//! call, each wrong call explained in the job's terms (before or after the crash, which
//! checkpoint, which state).

use super::made::{
    Made, completes_past_the_saves, expected_made, made, retake_rule, saved_since_the_restore,
};
use super::oracle::{Call, Expected, show};
use super::plan::Run;
use super::restart::asked_the_store;
use super::saved_state::{explain_state, same_call};
use crate::harness::Failure;

/// Where call `n` of the expected list happens, in the job's terms.
fn context(want: &Expected, run: &Run, n: usize) -> String {
    match run.crash_after {
        Some(k) if n >= want.before_crash => match want.restored {
            (0, _) => format!(
                "after the crash after {k} record(s), recovered with no completed checkpoint (offset 0)"
            ),
            (c, o) => format!(
                "after the crash after {k} record(s), recovered from checkpoint {c} (offset {o})"
            ),
        },
        Some(k) => format!("before the crash after {k} record(s)"),
        None => "no crash".to_owned(),
    }
}

pub(super) fn judge_calls(run: &Run, want: &Expected, calls: &[Call]) -> Result<(), Failure> {
    let made = made(run, calls);
    let commit_lag = run.commit_lag;
    let k = run.crash_after.unwrap_or(run.words.len());
    for (n, expected) in want.calls.iter().enumerate() {
        if run.crash_after.is_some() && n == want.before_crash {
            asked_the_store(run, want, calls)?;
        }
        let Some(&(actual, when)) = made.get(n) else {
            let at = format!("store call {} ({})", n + 1, context(want, run, n));
            let (why, rule) = match expected {
                Call::Complete { id } => (
                    format!(
                        "checkpoint {id} never completed: it completes {commit_lag} barrier(s) after its save, \
                         and every checkpoint still in flight completes at the end of the input"
                    ),
                    if at_a_barrier(want, n, *id, commit_lag) {
                        "07-R8"
                    } else {
                        "07-R9"
                    },
                ),
                Call::Save { id, offset, .. } => (
                    format!(
                        "checkpoint {id} was never saved (its barrier follows record {offset})"
                    ),
                    if n >= want.before_crash && run.crash_after.is_some() {
                        retake_rule(want, *id, "07-R12")
                    } else {
                        "07-R7"
                    },
                ),
                Call::LatestCompleted { .. } => (String::new(), "07-R12"),
            };
            return Err(Failure::new(show(expected), "no more calls")
                .step(format!("{at}: {why}"))
                .requirement(rule));
        };
        // Labelled by the call the job made, when it made it: not by the expected one's.
        let at = format!("store call {} ({})", n + 1, when.describe(k));
        let due = expected_made(want, run, n);
        let alike = same_call(actual, expected);
        if alike && !when.other_side(due) {
            continue;
        }
        if alike {
            let why = match (expected, due) {
                (Call::Save { offset, .. }, Made::BeforeCrash) => format!(
                    "the protocol makes this save before the crash: the barrier after record {offset} takes its checkpoint before the job dies (crash_after = {k}: after record {k} and its barrier)"
                ),
                (_, due) => format!("the protocol makes this call {}", due.describe(k)),
            };
            return Err(Failure::new(
                format!("{} {}", show(expected), due.describe(k)),
                format!("{} {}", show(actual), when.describe(k)),
            )
            .step(format!("{at}: {why}"))
            .requirement("07-R10"));
        }
        if let (Call::Complete { id: done }, Made::AfterRecovery(restored)) = (actual, when)
            && !saved_since_the_restore(&made[..n], *done)
        {
            return Err(Failure::new(show(expected), show(actual))
                .step(format!(
                    "{at}: after a restore nothing is in flight: checkpoint {done} was not saved since the \
                     restore ({}), so the restarted job must not complete it",
                    match restored {
                        Some(c) => format!("checkpoint {c} was restored"),
                        None => "nothing was restored".to_owned(),
                    }
                ))
                .requirement("07-R13"));
        }
        if matches!(due, Made::BeforeCrash) && matches!(when, Made::AfterRecovery(_)) {
            // The call the protocol makes before the crash never came before it: the job
            // died too soon, before its last barrier's calls.
            return Err(Failure::new(
                format!("{} {}", show(expected), due.describe(k)),
                format!("{} {}", show(actual), when.describe(k)),
            )
            .step(format!(
                "{at}: the job died before this call: crash_after = {k} stops after record {k} and \
                 the calls of its barrier (the save, then the completions it releases)"
            ))
            .requirement("07-R10"));
        }
        let after_recovery = matches!(due, Made::AfterRecovery(_));
        let (why, rule) = match (expected, actual) {
            (
                Call::Save { id, offset, state },
                Call::Save {
                    id: got_id,
                    offset: got_offset,
                    state: got_state,
                },
            ) => {
                if id != got_id {
                    (
                        format!(
                            "saved checkpoint {got_id}, expected checkpoint {id} (ids follow the offsets: checkpoint c is at offset c * barrier_every)"
                        ),
                        match (after_recovery, got_id > id) {
                            (true, true) => retake_rule(want, *id, "07-R14"),
                            (true, false) => "07-R14",
                            (false, _) => "07-R7",
                        },
                    )
                } else if offset != got_offset {
                    (
                        format!("checkpoint {id} saved offset {got_offset}, expected {offset}"),
                        "07-R7",
                    )
                } else {
                    (explain_state(run, *id, *offset, state, got_state), "07-R7")
                }
            }
            (Call::Complete { id }, Call::Save { id: saved, .. }) => {
                let barrier = at_a_barrier(want, n, *id, commit_lag);
                (
                    format!(
                        "checkpoint {id} must complete here ({}), but the runner saved checkpoint {saved} first",
                        if barrier {
                            format!(
                                "at barrier {}, {commit_lag} barrier(s) after its save, right after that barrier's save",
                                id.saturating_add(commit_lag as u64)
                            )
                        } else {
                            "at the end of the input".to_owned()
                        }
                    ),
                    if barrier { "07-R8" } else { "07-R9" },
                )
            }
            (Call::Save { id, .. }, Call::Complete { id: done }) => (
                format!(
                    "complete({done}) came too early: with commit_lag = {commit_lag}, checkpoint {done} \
                     completes {commit_lag} barrier(s) after its own save, right after that barrier's save \
                     (expected the save of checkpoint {id} here)"
                ),
                "07-R8",
            ),
            (Call::Complete { id }, Call::Complete { id: done }) => (
                format!(
                    "completed checkpoint {done}, expected checkpoint {id} (the oldest in flight)"
                ),
                if at_a_barrier(want, n, *id, commit_lag) {
                    "07-R8"
                } else {
                    "07-R9"
                },
            ),
            _ => (format!("expected {}", show(expected)), "07-R7"),
        };
        return Err(Failure::new(show(expected), show(actual))
            .step(format!("{at}: {why}"))
            .requirement(rule));
    }
    if run.crash_after.is_some() && want.before_crash == want.calls.len() {
        asked_the_store(run, want, calls)?;
    }
    if let Some((extra, when)) = made.get(want.calls.len()) {
        let rule = match (extra, when) {
            (Call::Complete { id }, Made::AfterRecovery(_))
                if completes_past_the_saves(&made[..=want.calls.len()], *id) =>
            {
                "07-R13"
            }
            (Call::Complete { .. }, _) => "07-R9",
            _ => "07-R7",
        };
        return Err(Failure::new("no more calls", show(extra))
            .step(format!(
                "store call {} ({}): the run should be over ({} calls)",
                want.calls.len() + 1,
                when.describe(k),
                want.calls.len()
            ))
            .requirement(rule));
    }
    Ok(())
}

/// Whether the expected `complete(id)` at call `n` is released by a barrier (`id +
/// commit_lag` was saved before it) rather than by the end of the input.
fn at_a_barrier(want: &Expected, n: usize, id: u64, commit_lag: usize) -> bool {
    let releaser = id.checked_add(commit_lag as u64);
    want.calls[..n]
        .iter()
        .any(|c| matches!(c, Call::Save { id: s, .. } if Some(*s) == releaser))
}
