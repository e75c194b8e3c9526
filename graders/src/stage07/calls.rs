//! The `checkpoints` check: the store calls of a run against the protocol's, call by
//! call, each wrong call explained in the job's terms (before or after the crash, which
//! checkpoint, which state).

use super::oracle::{self, Call, Counts, Expected};
use super::plan::Run;
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

/// When a store call was made, in the job's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Made {
    /// In a run without a crash.
    NoCrash,
    /// Before the crash.
    BeforeCrash,
    /// After the recovery, which restored this checkpoint (`None`: none had completed).
    AfterRecovery(Option<u64>),
    /// In a run with a crash whose recovery never asked the store, so the calls alone
    /// cannot tell which side of the crash it fell on.
    Unknown,
}

impl Made {
    fn describe(self, k: usize) -> String {
        match self {
            Made::NoCrash => "no crash".to_owned(),
            Made::BeforeCrash => format!("before the crash after {k} record(s)"),
            Made::AfterRecovery(None) => format!(
                "after the crash after {k} record(s), recovered with no completed checkpoint (latest_completed() returned None)"
            ),
            Made::AfterRecovery(Some(c)) => format!(
                "after the crash after {k} record(s), recovered from checkpoint {c} (latest_completed() returned it)"
            ),
            Made::Unknown => format!(
                "in a run with a crash after {k} record(s) whose recovery never asked latest_completed()"
            ),
        }
    }

    /// Whether two calls fall on different sides of the crash (unknown sides never do).
    fn other_side(self, other: Made) -> bool {
        matches!(
            (self, other),
            (Made::BeforeCrash, Made::AfterRecovery(_))
                | (Made::AfterRecovery(_), Made::BeforeCrash)
        )
    }
}

/// When each call other than `latest_completed()` was made, told by the calls themselves
/// (not by where the protocol expects a call of that number): the recovery is the job's
/// last `latest_completed()`, the one a job asks after the crash.
fn made<'a>(run: &Run, calls: &'a [Call]) -> Vec<(&'a Call, Made)> {
    let recovery = calls.iter().enumerate().rev().find_map(|(i, c)| match c {
        Call::LatestCompleted { returned } => Some((i, *returned)),
        _ => None,
    });
    calls
        .iter()
        .enumerate()
        .filter(|(_, c)| !matches!(c, Call::LatestCompleted { .. }))
        .map(|(i, call)| {
            let when = match (run.crash_after, recovery) {
                (None, _) => Made::NoCrash,
                (Some(_), None) => Made::Unknown,
                (Some(_), Some((r, _))) if i < r => Made::BeforeCrash,
                (Some(_), Some((_, returned))) => Made::AfterRecovery(returned),
            };
            (call, when)
        })
        .collect()
}

/// When the protocol makes its call number `n`.
fn expected_made(want: &Expected, run: &Run, n: usize) -> Made {
    match run.crash_after {
        None => Made::NoCrash,
        Some(_) if n < want.before_crash => Made::BeforeCrash,
        Some(_) => Made::AfterRecovery(Some(want.restored.0).filter(|c| *c > 0)),
    }
}

pub(super) fn judge_calls(run: &Run, want: &Expected, calls: &[Call]) -> Result<(), Failure> {
    let made = made(run, calls);
    let commit_lag = run.commit_lag;
    let k = run.crash_after.unwrap_or(run.words.len());
    for (n, expected) in want.calls.iter().enumerate() {
        let Some(&(actual, when)) = made.get(n) else {
            let at = format!("store call {} ({})", n + 1, context(want, run, n));
            let why = match expected {
                Call::Complete { id } => format!(
                    "checkpoint {id} never completed: it completes {commit_lag} barrier(s) after its save, \
                     and every checkpoint still in flight completes at the end of the input"
                ),
                Call::Save { id, offset, .. } => {
                    format!("checkpoint {id} was never saved (its barrier follows record {offset})")
                }
                Call::LatestCompleted { .. } => String::new(),
            };
            return Err(Failure::new(show(expected), "no more calls").step(format!("{at}: {why}")));
        };
        // Labelled by the call the job made, when it made it: not by the expected one's.
        let at = format!("store call {} ({})", n + 1, when.describe(k));
        let due = expected_made(want, run, n);
        if actual == expected && !when.other_side(due) {
            continue;
        }
        if actual == expected {
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
            .step(format!("{at}: {why}")));
        }
        let why = match (expected, actual) {
            (
                Call::Save { id, offset, state },
                Call::Save {
                    id: got_id,
                    offset: got_offset,
                    state: got_state,
                },
            ) => {
                if id != got_id {
                    format!(
                        "saved checkpoint {got_id}, expected checkpoint {id} (ids follow the offsets: checkpoint c is at offset c * barrier_every)"
                    )
                } else if offset != got_offset {
                    format!("checkpoint {id} saved offset {got_offset}, expected {offset}")
                } else {
                    explain_state(run, *id, *offset, state, got_state)
                }
            }
            (Call::Complete { id }, Call::Save { id: saved, .. }) => format!(
                "checkpoint {id} must complete here ({}), but the runner saved checkpoint {saved} first",
                if want.calls[..n]
                    .iter()
                    .any(|c| matches!(c, Call::Save { id: s, .. } if *s == id + commit_lag as u64))
                {
                    format!(
                        "at barrier {}, {commit_lag} barrier(s) after its save, right after that barrier's save",
                        id + commit_lag as u64
                    )
                } else {
                    "at the end of the input".to_owned()
                }
            ),
            (Call::Save { id, .. }, Call::Complete { id: done }) => format!(
                "complete({done}) came too early: with commit_lag = {commit_lag}, checkpoint {done} \
                 completes {commit_lag} barrier(s) after its own save, right after that barrier's save \
                 (expected the save of checkpoint {id} here)"
            ),
            (Call::Complete { id }, Call::Complete { id: done }) => format!(
                "completed checkpoint {done}, expected checkpoint {id} (the oldest in flight)"
            ),
            _ => format!("expected {}", show(expected)),
        };
        return Err(Failure::new(show(expected), show(actual)).step(format!("{at}: {why}")));
    }
    if let Some(k) = run.crash_after {
        asked_the_store(k, want, calls)?;
    }
    if let Some((extra, when)) = made.get(want.calls.len()) {
        return Err(Failure::new("no more calls", show(extra)).step(format!(
            "store call {} ({}): the run should be over ({} calls)",
            want.calls.len() + 1,
            when.describe(k),
            want.calls.len()
        )));
    }
    Ok(())
}

/// Recovery asks the store, and only the store, where to restart: some
/// `latest_completed()` must come after the last call before the crash and before the
/// first call after it (the restart point is the one the spy handed out).
fn asked_the_store(k: usize, want: &Expected, calls: &[Call]) -> Result<(), Failure> {
    let mut protocol_calls = 0;
    let mut asked = false;
    for call in calls {
        match call {
            Call::LatestCompleted { .. } if protocol_calls == want.before_crash => asked = true,
            Call::LatestCompleted { .. } => {}
            _ if protocol_calls == want.before_crash && !asked => break,
            _ => protocol_calls += 1,
        }
    }
    if asked {
        return Ok(());
    }
    Err(Failure::new(
        "latest_completed()",
        calls
            .iter()
            .filter(|c| !matches!(c, Call::LatestCompleted { .. }))
            .nth(want.before_crash)
            .map_or_else(|| "no more calls".to_owned(), show),
    )
    .step(format!(
        "store call {} (the recovery after the crash after {k} record(s)): recovery never asked the store \
         for latest_completed(); a real job has nothing but the store after a crash, so the restart point \
         must be the one the store hands out",
        want.before_crash + 1
    )))
}

fn show(call: &Call) -> String {
    match call {
        Call::Save { id, offset, state } => format!(
            "save({id}, offset {offset}, state {})",
            String::from_utf8_lossy(state)
        ),
        Call::Complete { id } => format!("complete({id})"),
        Call::LatestCompleted { .. } => "latest_completed()".to_owned(),
    }
}

fn explain_state(run: &Run, id: u64, offset: u64, want: &[u8], got: &[u8]) -> String {
    let want_counts: Counts = serde_json::from_slice(want).unwrap_or_default();
    match serde_json::from_slice::<Counts>(got) {
        Err(e) => format!(
            "checkpoint {id}'s state is not JSON of a BTreeMap<String, u64> ({e}): a checkpoint \
             must be bytes another process can read"
        ),
        Ok(counts) if counts == want_counts => {
            format!("checkpoint {id}'s state holds the right counts, encoded differently")
        }
        Ok(counts) => {
            let n = offset as usize;
            let note = if n > 0 && counts == oracle::prefix_counts(&run.words, n - 1) {
                " (the counts before the barrier's own record was applied)"
            } else {
                ""
            };
            format!(
                "checkpoint {id} saved counts {counts:?}, expected the counts of records 0..{n}: \
                 {want_counts:?}{note}"
            )
        }
    }
}
