//! A second, compact stage-07 runner for the mistakes written from the brief alone (the
//! round after [`super::flawed`]): the protocol with one slip, switched by `SLIP`, and
//! correct but unusual choices the brief allows.

use std::collections::{BTreeMap, HashMap, VecDeque};

use anyhow::{Result, ensure};
use solution07::{CheckpointStore, RecoveryOutcome};

pub const NONE: u8 = 0;
/// The emissions before the crash are dropped with the job's memory.
pub const LOSE_EMITTED: u8 = 1;
/// `Some(words.len())` runs as if there were no crash.
pub const CRASH_AT_END_IS_NO_CRASH: u8 = 2;
/// `crash_after >= words.len()` refused: `Some(len)` is an error.
pub const CRASH_CHECK_GE: u8 = 3;
/// After the restore, the restored checkpoint is completed again.
pub const RECOMPLETE_RESTORED: u8 = 4;
/// The replay does not retake the checkpoints saved before the crash.
pub const SKIP_RETAKE: u8 = 5;
/// The in-flight queue survives the crash.
pub const KEEP_QUEUE: u8 = 6;
/// At the end, the checkpoints in flight complete newest first.
pub const FINAL_NEWEST_FIRST: u8 = 7;
/// At the end, only the newest checkpoint in flight completes.
pub const FINAL_ONLY_NEWEST: u8 = 8;
/// A last checkpoint is taken at the end of the input (stage 08's clean finish).
pub const CHECKPOINT_AT_END: u8 = 9;
/// The start-up restores too, and validates the arguments only after it.
pub const RESTORE_THEN_VALIDATE: u8 = 10;
/// The `crash_after` error names "the crash point", not the argument.
pub const CRASH_UNNAMED: u8 = 11;
/// The restart takes its state from `latest_completed()` but its offset from the dead
/// job's memory: the offset of the checkpoint it completed last.
pub const OFFSET_FROM_MEMORY: u8 = 12;
/// The counts are saved as the JSON of a `HashMap`: its keys in hash order.
pub const HASHMAP_STATE: u8 = 13;
/// A checkpoint completes once more than `lag` are in flight, written `lag + 1`: an
/// overflow (a panic) at `commit_lag = usize::MAX`.
pub const LAG_PLUS_ONE: u8 = 14;
/// The end completes every checkpoint in flight, past a failed `complete`, and returns
/// the first error afterwards.
pub const FINAL_COMPLETES_PAST_AN_ERROR: u8 = 15;
/// Correct: the job always starts from `latest_completed()`, the first attempt too.
pub const RESTORE_AT_START: u8 = 20;
/// Correct: the state is pretty-printed JSON.
pub const PRETTY_JSON: u8 = 21;

type Counts = BTreeMap<String, u64>;

/// What a crash destroys.
struct Job {
    counts: Counts,
    in_flight: VecDeque<u64>,
    position: usize,
    /// The highest id saved before the crash (`SKIP_RETAKE` remembers it).
    saved_up_to: u64,
    /// The offset of the checkpoint completed last (`OFFSET_FROM_MEMORY` remembers it).
    completed_at: usize,
}

/// The protocol with slip `S`.
pub fn run<St: CheckpointStore, const S: u8>(
    words: &[String],
    every: usize,
    crash_after: Option<usize>,
    lag: usize,
    store: &mut St,
) -> Result<RecoveryOutcome> {
    let mut restored_at_start = None;
    if S == RESTORE_THEN_VALIDATE {
        restored_at_start = Some(store.latest_completed());
    }
    ensure!(every > 0, "barrier_every must be positive");
    let len = words.len();
    match crash_after {
        Some(k) if S == CRASH_CHECK_GE && k >= len => {
            ensure!(false, "crash_after = {k} must be less than {len}")
        }
        Some(k) if S == CRASH_UNNAMED => ensure!(k <= len, "the crash point {k} is past the end"),
        Some(k) => ensure!(k <= len, "crash_after = {k} is past the end ({len})"),
        None => {}
    }
    if S == RESTORE_AT_START {
        restored_at_start = Some(store.latest_completed());
    }
    let crash_after = crash_after.filter(|k| !(S == CRASH_AT_END_IS_NO_CRASH && *k == len));
    let mut emitted = Vec::new();
    let from = restored_at_start.flatten();
    let mut job = start(from.as_ref().map(|c| (c.offset, &c.state)), len)?;
    if let Some(k) = crash_after {
        step::<St, S>(words, every, lag, k, &mut job, store, &mut emitted)?;
        if S == LOSE_EMITTED {
            emitted.clear();
        }
        let restored = store.latest_completed();
        let mut next = start(restored.as_ref().map(|c| (c.offset, &c.state)), len)?;
        if S == SKIP_RETAKE {
            next.saved_up_to = job.saved_up_to;
        }
        if S == KEEP_QUEUE {
            next.in_flight = std::mem::take(&mut job.in_flight);
        }
        if S == OFFSET_FROM_MEMORY {
            next.position = job.completed_at;
        }
        if let (RECOMPLETE_RESTORED, Some(c)) = (S, &restored) {
            store.complete(c.id)?;
        }
        job = next;
    }
    step::<St, S>(words, every, lag, len, &mut job, store, &mut emitted)?;
    if S == CHECKPOINT_AT_END && !len.is_multiple_of(every) {
        let id = (len / every) as u64 + 1;
        store.save(id, len as u64, serde_json::to_vec(&job.counts)?)?;
        job.in_flight.push_back(id);
    }
    let mut left: Vec<u64> = job.in_flight.into_iter().collect();
    if S == FINAL_NEWEST_FIRST {
        left.reverse();
    }
    if S == FINAL_ONLY_NEWEST {
        left = left.pop().into_iter().collect();
    }
    if S == FINAL_COMPLETES_PAST_AN_ERROR {
        let failed: Vec<_> = left
            .into_iter()
            .filter_map(|id| store.complete(id).err())
            .collect();
        if let Some(error) = failed.into_iter().next() {
            return Err(error);
        }
        return Ok(RecoveryOutcome {
            counts: job.counts,
            emitted,
        });
    }
    for id in left {
        store.complete(id)?;
    }
    Ok(RecoveryOutcome {
        counts: job.counts,
        emitted,
    })
}

/// A job at `from` (offset, state), or empty at offset 0, over `len` words: an offset
/// past them is refused, as a source's `seek` refuses it.
fn start(from: Option<(u64, &Vec<u8>)>, len: usize) -> Result<Job> {
    let (position, counts) = match from {
        Some((offset, state)) => {
            ensure!(offset <= len as u64, "offset {offset} is past the end");
            (offset as usize, serde_json::from_slice(state)?)
        }
        None => (0, Counts::new()),
    };
    Ok(Job {
        counts,
        in_flight: VecDeque::new(),
        position,
        saved_up_to: 0,
        completed_at: position,
    })
}

/// Runs `job` up to offset `to`.
fn step<St: CheckpointStore, const S: u8>(
    words: &[String],
    every: usize,
    lag: usize,
    to: usize,
    job: &mut Job,
    store: &mut St,
    emitted: &mut Vec<(String, u64)>,
) -> Result<()> {
    while job.position < to {
        let word = &words[job.position];
        job.position += 1;
        let count = job.counts.entry(word.clone()).or_default();
        *count += 1;
        emitted.push((word.clone(), *count));
        if !job.position.is_multiple_of(every) {
            continue;
        }
        let id = (job.position / every) as u64;
        if S == SKIP_RETAKE && id <= job.saved_up_to {
            continue;
        }
        let state = if S == PRETTY_JSON {
            serde_json::to_vec_pretty(&job.counts)?
        } else if S == HASHMAP_STATE {
            serde_json::to_vec(&job.counts.iter().collect::<HashMap<_, _>>())?
        } else {
            serde_json::to_vec(&job.counts)?
        };
        store.save(id, job.position as u64, state)?;
        job.saved_up_to = id;
        job.in_flight.push_back(id);
        // The checkpoints in flight a barrier may leave, and one more: `LAG_PLUS_ONE` adds
        // the one unchecked.
        let full = if S == LAG_PLUS_ONE {
            lag + 1
        } else {
            lag.saturating_add(1)
        };
        while job.in_flight.len() >= full {
            if let Some(done) = job.in_flight.pop_front() {
                store.complete(done)?;
                job.completed_at = done as usize * every;
            }
        }
    }
    Ok(())
}
