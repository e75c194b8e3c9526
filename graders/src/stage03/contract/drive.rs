//! Runs one contract sequence against an implementation: every call's answer, then the
//! subtask's state and key groups right after it.

use serde::{Deserialize, Serialize};

use super::{At, Feed, Op};
use crate::stage03::guard::{Answer, caught};
use crate::stage03::{Implementation, SubtaskCounts};

/// One call's answer and what the subtask that goes on holds right after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// What the call answered.
    pub answer: Answer<()>,
    /// `state().snapshot()` of the subtask that goes on.
    pub state: SubtaskCounts,
    /// Its `key_groups()`.
    pub key_groups: (u32, u32),
}

/// `KeyedSubtask::new(start)`, then `ops`: the start's [`Seen`] first, then one per call
/// (fewer after a panic, which ends the run, or when `new` fails).
pub fn drive_contract<I: Implementation>(max_parallelism: u32, start: At, ops: &[Op]) -> Vec<Seen> {
    let seen = |answer: Answer<()>, subtask: &I::Subtask| Seen {
        answer,
        state: I::counts(subtask),
        key_groups: I::key_groups(subtask),
    };
    let mut current = match caught(|| I::subtask(start.index, start.parallelism, max_parallelism)) {
        Answer::Ok(subtask) => subtask,
        Answer::Err(e) => return vec![failed(Answer::Err(e))],
        Answer::Panicked(m) => return vec![failed(Answer::Panicked(m))],
    };
    let mut all = vec![seen(Answer::Ok(()), &current)];
    for op in ops {
        let answer = match op {
            Op::Count(key) => caught(|| I::count(&mut current, key)),
            Op::Remove(key) => caught(|| I::remove(&mut current, key)),
            Op::Restore { at, feed } => match restore::<I>(&current, *at, *feed, max_parallelism) {
                Answer::Ok(restored) => {
                    current = restored;
                    Answer::Ok(())
                }
                Answer::Err(e) => Answer::Err(e),
                Answer::Panicked(m) => Answer::Panicked(m),
            },
        };
        let panicked = matches!(answer, Answer::Panicked(_));
        all.push(seen(answer, &current));
        if panicked {
            break;
        }
    }
    all
}

/// A start that failed: nothing to read after it.
fn failed(answer: Answer<()>) -> Seen {
    Seen {
        answer,
        state: SubtaskCounts::new(),
        key_groups: (0, 0),
    }
}

fn restore<I: Implementation>(
    current: &I::Subtask,
    at: At,
    feed: Feed,
    max_parallelism: u32,
) -> Answer<I::Subtask> {
    let snapshot = match caught(|| I::snapshot(current)) {
        Answer::Ok(bytes) => bytes,
        Answer::Err(e) => return Answer::Err(format!("snapshot(): {e}")),
        Answer::Panicked(m) => return Answer::Panicked(format!("snapshot(): {m}")),
    };
    let snapshots = match feed {
        Feed::Alone => vec![snapshot],
        Feed::Twice => vec![snapshot.clone(), snapshot],
        Feed::BesideEmpty => {
            let empty = caught(|| {
                let fresh = I::subtask(at.index, at.parallelism, max_parallelism)?;
                I::snapshot(&fresh)
            });
            match empty {
                Answer::Ok(bytes) => vec![bytes, snapshot],
                Answer::Err(e) => return Answer::Err(format!("an empty subtask's snapshot: {e}")),
                Answer::Panicked(m) => return Answer::Panicked(m),
            }
        }
    };
    caught(|| I::restore(at.index, at.parallelism, max_parallelism, &snapshots))
}
