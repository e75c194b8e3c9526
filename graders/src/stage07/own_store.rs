//! The `own-store` run told from the learner's own store: the job's store calls, as the
//! grader's spy saw them, made again on the learner's `InMemoryCheckpointStore`, and the
//! first answer of that store that is not the brief's. Up to that answer the job cannot
//! tell the two stores apart, so these are the calls of its run with its own store.

use super::Implementation;
use super::oracle::{self, Call, ModelStore};
use super::plan::Run;
use crate::stage03::guard::{Answer, caught};

/// `spied`, the calls of `run_with_recovery_in(.., spy)`, made again on a fresh store of `I`, each
/// `latest_completed()` with what `I`'s store returned; up to the first answer that
/// differs from the spy's (a refusal, or another checkpoint handed out), after which the
/// job's calls would no longer be the same. Empty when the store panicked.
pub(super) fn calls_on_own_store<I: Implementation>(spied: &[Call]) -> Vec<Call> {
    match caught(|| Ok(replay::<I>(spied))) {
        Answer::Ok(calls) => calls,
        _ => Vec::new(),
    }
}

fn replay<I: Implementation>(spied: &[Call]) -> Vec<Call> {
    let mut store = I::store();
    let mut made = Vec::new();
    for call in spied {
        let same = match call {
            Call::Save { id, offset, state } => {
                I::save(&mut store, *id, *offset, state.clone()).is_ok()
            }
            Call::Complete { id } => I::complete(&mut store, *id).is_ok(),
            Call::LatestCompleted { returned } => {
                let own = I::latest_completed(&store).map(|(id, _, _)| id);
                made.push(Call::LatestCompleted { returned: own });
                if own != *returned {
                    break;
                }
                continue;
            }
        };
        if !same {
            break;
        }
        made.push(call.clone());
    }
    made
}

/// The first answer of the learner's store, in `calls` (from [`calls_on_own_store`]),
/// that the brief's store would not give after the same calls: `latest_completed()`
/// handing out another checkpoint than the latest one the calls completed.
pub(super) fn wrong_answer(calls: &[Call]) -> Option<String> {
    let mut brief = ModelStore::default();
    for (i, call) in calls.iter().enumerate() {
        match call {
            Call::Save { id, offset, state } => {
                brief.save(*id, *offset, state.clone()).ok()?;
            }
            Call::Complete { id } => brief.complete(*id).ok()?,
            Call::LatestCompleted { returned } => {
                let latest = brief.latest_completed().map(|(id, _, _)| id);
                if *returned != latest {
                    return Some(format!(
                        "your InMemoryCheckpointStore's latest_completed() returned {}, after the \
                         job's calls [{}]: the latest checkpoint those calls completed is {}, so \
                         the job restarted from the wrong checkpoint",
                        show_id(*returned),
                        calls[..i].iter().map(show).collect::<Vec<_>>().join(", "),
                        show_id(latest)
                    ));
                }
            }
        }
    }
    None
}

fn show_id(id: Option<u64>) -> String {
    id.map_or_else(|| "None".to_owned(), |id| format!("checkpoint {id}"))
}

fn show(call: &Call) -> String {
    match call {
        Call::Save { id, offset, .. } => format!("save({id}, offset {offset}, ..)"),
        Call::Complete { id } => format!("complete({id})"),
        Call::LatestCompleted { returned } => {
            format!("latest_completed() = {}", show_id(*returned))
        }
    }
}

/// Why `run_with_recovery` (the learner's own store) went wrong where the job itself did
/// not (`spied_right`: `run_with_recovery_in` with the grader's store returned the right
/// outcome): the first wrong answer of its store in `replayed` (the job's calls made
/// again on it, when the driver made them), or `run_with_recovery` itself; with what the
/// emissions show of a crash that did not happen.
pub(super) fn own_store_step(
    run: &Run,
    emitted: &[(String, u64)],
    replayed: Option<&[Call]>,
) -> String {
    if let Some(why) = replayed.and_then(wrong_answer) {
        return why;
    }
    let whose = match replayed {
        Some(_) => {
            "run_with_recovery_in with the grader's store returns the right outcome here, and \
             your InMemoryCheckpointStore answers every call of that job as the brief's store \
             does (the job's calls were made again on it), so run_with_recovery itself runs \
             another job"
        }
        None => {
            "run_with_recovery_in with the grader's store returns the right outcome here, \
             run_with_recovery with your own InMemoryCheckpointStore does not: the difference \
             is your store's or run_with_recovery's"
        }
    };
    let len = run.words.len();
    let no_crash = run.crash_after.filter(|_| {
        emitted == oracle::emissions(&run.words, 0, len, oracle::Counts::new()).as_slice()
    });
    let shows = no_crash.map_or_else(String::new, |k| {
        format!(
            "; its emissions are those of a run without a crash: nothing was replayed after \
             the crash after {k} record(s)"
        )
    });
    format!(
        "{whose}{shows}: run_with_recovery is run_with_recovery_in with a fresh \
         InMemoryCheckpointStore, every argument passed on unchanged"
    )
}
