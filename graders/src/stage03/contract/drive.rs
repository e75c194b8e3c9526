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
    /// For a restore: the snapshot it needed that could not be taken, so `restore` was
    /// never called and [`Seen::answer`] is that snapshot's. A refusal of the driver's
    /// own preparation is not a refusal of the restore.
    #[serde(default)]
    pub unsnapshotted: Option<SnapshotOf>,
}

/// A snapshot a restore step takes before it calls `restore`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SnapshotOf {
    /// `snapshot()` of the subtask that goes on.
    Current,
    /// A new empty subtask of the restore's configuration, and its snapshot.
    Empty,
    /// A subtask of parallelism 1 counting the current keys once more, and its snapshot.
    Recounted,
}

impl SnapshotOf {
    /// The calls, as a report names them.
    pub fn describe(self) -> &'static str {
        match self {
            SnapshotOf::Current => "snapshot() of the subtask",
            SnapshotOf::Empty => {
                "KeyedSubtask::new at the restore's configuration, then its snapshot()"
            }
            SnapshotOf::Recounted => {
                "KeyedSubtask::new(0, 1, max_parallelism), counting the same keys, then its snapshot()"
            }
        }
    }
}

/// A snapshot a restore needed that failed: which one, and its answer.
type Unsnapshotted = (SnapshotOf, Answer<()>);

/// `KeyedSubtask::new(start)`, then `ops`: the start's [`Seen`] first, then one per call
/// (fewer after a panic, which ends the run, or when `new` fails).
pub fn drive_contract<I: Implementation>(max_parallelism: u32, start: At, ops: &[Op]) -> Vec<Seen> {
    let seen = |answer: Answer<()>, subtask: &I::Subtask, same_bytes: bool| Seen {
        answer,
        state: I::counts(subtask),
        key_groups: I::key_groups(subtask),
        same_bytes,
        unsnapshotted: None,
    };
    let mut current = match caught(|| I::subtask(start.index, start.parallelism, max_parallelism)) {
        Answer::Ok(subtask) => subtask,
        Answer::Err(e) => return vec![failed(Answer::Err(e))],
        Answer::Panicked(m) => return vec![failed(Answer::Panicked(m))],
    };
    let mut all = vec![seen(Answer::Ok(()), &current, false)];
    for op in ops {
        let mut same_bytes = false;
        let mut unsnapshotted = None;
        let answer = match op {
            Op::Count(key) => caught(|| I::count(&mut current, key)),
            Op::Remove(key) => caught(|| I::remove(&mut current, key)),
            Op::Zero(key) => caught(|| I::zero(&mut current, key)),
            Op::Restore { at, feed } => match snapshots::<I>(&current, *at, *feed, max_parallelism)
            {
                Err((of, answer)) => {
                    unsnapshotted = Some(of);
                    answer
                }
                Ok(snapshots) => {
                    same_bytes =
                        snapshots.len() > 1 && snapshots.windows(2).all(|pair| pair[0] == pair[1]);
                    match caught(|| {
                        I::restore(at.index, at.parallelism, max_parallelism, &snapshots)
                    }) {
                        Answer::Ok(restored) => {
                            current = restored;
                            Answer::Ok(())
                        }
                        Answer::Err(e) => Answer::Err(e),
                        Answer::Panicked(m) => Answer::Panicked(m),
                    }
                }
            },
        };
        let panicked = matches!(answer, Answer::Panicked(_));
        all.push(Seen {
            unsnapshotted,
            ..seen(answer, &current, same_bytes)
        });
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
        unsnapshotted: None,
    }
}

/// The snapshots `feed` names for a restore at `at`: `current`'s, and beside it those of
/// other subtasks the driver builds.
fn snapshots<I: Implementation>(
    current: &I::Subtask,
    at: At,
    feed: Feed,
    max_parallelism: u32,
) -> Result<Vec<Vec<u8>>, Unsnapshotted> {
    let taken = |of: SnapshotOf, answer: Answer<Vec<u8>>| match answer {
        Answer::Ok(bytes) => Ok(bytes),
        Answer::Err(e) => Err((of, Answer::Err(e))),
        Answer::Panicked(m) => Err((of, Answer::Panicked(m))),
    };
    let snapshot = taken(SnapshotOf::Current, caught(|| I::snapshot(current)))?;
    let empty = || {
        taken(
            SnapshotOf::Empty,
            caught(|| {
                let fresh = I::subtask(at.index, at.parallelism, max_parallelism)?;
                I::snapshot(&fresh)
            }),
        )
    };
    Ok(match feed {
        Feed::Alone => vec![snapshot],
        Feed::Twice => vec![snapshot.clone(), snapshot],
        Feed::BesideEmpty => vec![empty()?, snapshot],
        Feed::BesideRecounted => {
            let first = empty()?;
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
            // After an empty subtask's snapshot, and with it once more between them: the
            // two copies are not the first, and not neighbours either.
            vec![
                first.clone(),
                snapshot,
                first,
                taken(SnapshotOf::Recounted, other)?,
            ]
        }
    })
}
