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
    /// Whether the call was a restore that read two or more snapshots of the very same
    /// bytes (the snapshots of empty subtasks, where a snapshot holds only the keyed
    /// state): then a refusal cannot be about where the snapshots were taken.
    #[serde(default)]
    pub same_bytes: bool,
}

/// `KeyedSubtask::new(start)`, then `ops`: the start's [`Seen`] first, then one per call
/// (fewer after a panic, which ends the run, or when `new` fails).
pub fn drive_contract<I: Implementation>(max_parallelism: u32, start: At, ops: &[Op]) -> Vec<Seen> {
    let seen = |answer: Answer<()>, subtask: &I::Subtask, same_bytes: bool| Seen {
        answer,
        state: I::counts(subtask),
        key_groups: I::key_groups(subtask),
        same_bytes,
    };
    let mut current = match caught(|| I::subtask(start.index, start.parallelism, max_parallelism)) {
        Answer::Ok(subtask) => subtask,
        Answer::Err(e) => return vec![failed(Answer::Err(e))],
        Answer::Panicked(m) => return vec![failed(Answer::Panicked(m))],
    };
    let mut all = vec![seen(Answer::Ok(()), &current, false)];
    for op in ops {
        let mut same_bytes = false;
        let answer = match op {
            Op::Count(key) => caught(|| I::count(&mut current, key)),
            Op::Remove(key) => caught(|| I::remove(&mut current, key)),
            Op::Zero(key) => caught(|| I::zero(&mut current, key)),
            Op::Restore { at, feed } => {
                match restore::<I>(&current, *at, *feed, max_parallelism, &mut same_bytes) {
                    Answer::Ok(restored) => {
                        current = restored;
                        Answer::Ok(())
                    }
                    Answer::Err(e) => Answer::Err(e),
                    Answer::Panicked(m) => Answer::Panicked(m),
                }
            }
        };
        let panicked = matches!(answer, Answer::Panicked(_));
        all.push(seen(answer, &current, same_bytes));
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
        same_bytes: false,
    }
}

/// Snapshots `current`, then restores `at` from the snapshots `feed` names; sets
/// `same_bytes` when those snapshots are all the same bytes.
fn restore<I: Implementation>(
    current: &I::Subtask,
    at: At,
    feed: Feed,
    max_parallelism: u32,
    same_bytes: &mut bool,
) -> Answer<I::Subtask> {
    let snapshot = match caught(|| I::snapshot(current)) {
        Answer::Ok(bytes) => bytes,
        Answer::Err(e) => return Answer::Err(format!("snapshot(): {e}")),
        Answer::Panicked(m) => return Answer::Panicked(format!("snapshot(): {m}")),
    };
    let empty = || match caught(|| {
        let fresh = I::subtask(at.index, at.parallelism, max_parallelism)?;
        I::snapshot(&fresh)
    }) {
        Answer::Ok(bytes) => Ok(bytes),
        Answer::Err(e) => Err(Answer::Err(format!("an empty subtask's snapshot: {e}"))),
        Answer::Panicked(m) => Err(Answer::Panicked(m)),
    };
    let snapshots = match feed {
        Feed::Alone => vec![snapshot],
        Feed::Twice => vec![snapshot.clone(), snapshot],
        Feed::BesideEmpty => match empty() {
            Ok(bytes) => vec![bytes, snapshot],
            Err(answer) => return answer,
        },
        Feed::BesideRecounted => {
            let first = match empty() {
                Ok(bytes) => bytes,
                Err(answer) => return answer,
            };
            // Another subtask, of parallelism 1 (it owns every key group), holding every
            // key of the current one, each counted once more: the same keys in another
            // snapshot, with other values.
            let counts = I::counts(current);
            let other = caught(|| {
                let mut other = I::subtask(0, 1, max_parallelism)?;
                for (key, count) in &counts {
                    for _ in 0..=*count {
                        I::count(&mut other, key)?;
                    }
                }
                I::snapshot(&other)
            });
            match other {
                // After an empty subtask's snapshot, and with it once more between them:
                // the two copies are not the first, and not neighbours either.
                Answer::Ok(bytes) => vec![first.clone(), snapshot, first, bytes],
                Answer::Err(e) => return Answer::Err(format!("another subtask's snapshot: {e}")),
                Answer::Panicked(m) => return Answer::Panicked(m),
            }
        }
    };
    *same_bytes = snapshots.len() > 1 && snapshots.windows(2).all(|pair| pair[0] == pair[1]);
    caught(|| I::restore(at.index, at.parallelism, max_parallelism, &snapshots))
}
