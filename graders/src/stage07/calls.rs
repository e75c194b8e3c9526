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

pub(super) fn judge_calls(run: &Run, want: &Expected, calls: &[Call]) -> Result<(), Failure> {
    let got: Vec<&Call> = calls
        .iter()
        .filter(|c| !matches!(c, Call::LatestCompleted { .. }))
        .collect();
    let commit_lag = run.commit_lag;
    for (n, expected) in want.calls.iter().enumerate() {
        let at = format!("store call {} ({})", n + 1, context(want, run, n));
        let Some(actual) = got.get(n) else {
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
        if *actual == expected {
            continue;
        }
        let why = match (expected, *actual) {
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
    if let Some(extra) = got.get(want.calls.len()) {
        return Err(Failure::new("no more calls", show(extra)).step(format!(
            "store call {}: the run should be over ({} calls)",
            want.calls.len() + 1,
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
