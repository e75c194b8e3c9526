//! The one flawed runner of the stage-07 mutants: the protocol with one mistake,
//! switched on by a `MISTAKE` constant.

use std::collections::{BTreeMap, VecDeque};

use anyhow::{Result, bail};
use solution07::{CheckpointStore, RecoveryOutcome};

pub const NONE: u8 = 0;
pub const SAVE_BEFORE_APPLY: u8 = 1;
pub const RESTORE_LAST_SAVED: u8 = 2;
pub const REPLAY_FROM_ZERO: u8 = 3;
pub const KEEP_MEMORY: u8 = 4;
pub const SKIP_ROUND_TRIP: u8 = 5;
pub const CRASH_PAST_END_ACCEPTED: u8 = 6;
pub const LAG_IGNORED: u8 = 7;
pub const NO_FINAL_COMPLETIONS: u8 = 8;
pub const COMPUTE_RESTART: u8 = 9;
pub const CRASH_BEFORE_BARRIER: u8 = 10;
pub const EMIT_OLD_COUNT: u8 = 11;
pub const FINAL_BEFORE_CRASH: u8 = 12;
pub const COMPLETE_BY_ARITHMETIC: u8 = 13;
pub const IDS_RESTART: u8 = 14;
pub const BARRIER_UNNAMED: u8 = 15;
pub const VALIDATE_CRASH_LATE: u8 = 16;
pub const EMIT_ONCE: u8 = 17;
pub const HAND_ROLLED_JSON: u8 = 18;
pub const CRASH_CHECKED_AS_U32: u8 = 19;
pub const BARRIER_EVERY_AS_U32: u8 = 20;
pub const SEEK_CLAMPED: u8 = 21;
pub const COUNTS_IN_U8: u8 = 22;
pub const IN_FLIGHT_CAPPED: u8 = 23;
pub const RING_OF_64: u8 = 24;
pub const CLEAN_RUN_LOGS_FAILED_COMPLETE: u8 = 25;
pub const CLEAN_RUN_SKIPS_FAILED_SAVE: u8 = 26;
pub const TRIMS_WORDS: u8 = 27;
pub const JSON_WITHOUT_CONTROL_ESCAPES: u8 = 28;

/// For IN_FLIGHT_CAPPED: the most checkpoints the job keeps in flight.
const IN_FLIGHT_CAP: usize = 32;
/// For RING_OF_64: the slots of the ring the in-flight checkpoints wait in, one kept free
/// to tell a full ring from an empty one.
const RING_SLOTS: usize = 64;

type Counts = BTreeMap<String, u64>;

/// The reference protocol with mistake `M`.
pub fn run<S: CheckpointStore, const M: u8>(
    words: &[String],
    every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
    store: &mut S,
) -> Result<RecoveryOutcome> {
    if every == 0 {
        if M == BARRIER_UNNAMED {
            bail!("cannot take a checkpoint every 0 records");
        }
        bail!("barrier_every must be at least 1, got 0");
    }
    let every = if M == BARRIER_EVERY_AS_U32 {
        (every as u32).max(1) as usize
    } else {
        every
    };
    let past_the_end = if M == CRASH_CHECKED_AS_U32 {
        crash_after.is_some_and(|k| k as u32 as usize > words.len())
    } else {
        crash_after.is_some_and(|k| k > words.len())
    };
    if M != CRASH_PAST_END_ACCEPTED && M != VALIDATE_CRASH_LATE && past_the_end {
        bail!("crash_after must be at most the input length");
    }
    let mut emitted = Vec::new();
    // What the mistakes keep on the side, surviving the "crash".
    let mut last_saved: Option<(u64, usize, Counts)> = None;
    let mut counts = Counts::new();
    let stop = crash_after.unwrap_or(words.len()).min(words.len());
    // "No crash is coming": a run without one only logs a refused save and goes on.
    let lenient = M == CLEAN_RUN_SKIPS_FAILED_SAVE && crash_after.is_none();
    let mut in_flight = attempt::<S, M>(
        words,
        every,
        commit_lag,
        (0, stop),
        &mut counts,
        store,
        &mut emitted,
        &mut last_saved,
        lenient,
    )?;
    if M == VALIDATE_CRASH_LATE && past_the_end {
        bail!("crash_after must be at most the input length");
    }
    if M == FINAL_BEFORE_CRASH && stop == words.len() {
        // The end of the input reached: the completions run before the crash is checked.
        for id in in_flight.drain(..) {
            store.complete(id)?;
        }
    }
    if M == COMPLETE_BY_ARITHMETIC {
        // Completion by arithmetic: the ids in flight at the end are the last `commit_lag`.
        let last = (words.len() / every) as u64;
        in_flight = (last.saturating_sub(commit_lag as u64) + 1..=last).collect();
    }
    if crash_after.is_some() {
        let latest = if M == COMPUTE_RESTART {
            // The restart point worked out from the schedule, not asked of the store.
            let completed = (stop / every).saturating_sub(commit_lag);
            let offset = completed * every;
            let counts = words[..offset].iter().fold(Counts::new(), |mut c, w| {
                *c.entry(w.clone()).or_default() += 1;
                c
            });
            return finish_computed::<S, M>(
                words, every, commit_lag, offset, counts, store, emitted,
            );
        } else {
            store.latest_completed()
        };
        let (offset, restored) = match (M, latest) {
            (RESTORE_LAST_SAVED, _) => match &last_saved {
                Some((_, offset, c)) => (*offset, c.clone()),
                None => (0, Counts::new()),
            },
            (_, None) => (0, Counts::new()),
            (SKIP_ROUND_TRIP, Some(cp)) => (
                cp.offset as usize,
                last_saved.as_ref().map(|l| l.2.clone()).unwrap_or_default(),
            ),
            (_, Some(cp)) => (cp.offset as usize, serde_json::from_slice(&cp.state)?),
        };
        // A checkpoint past the end is no place a source can be sought to.
        let offset = match offset.checked_sub(words.len()) {
            Some(1..) if M == SEEK_CLAMPED => words.len(),
            Some(1..) => bail!("restoring: offset {offset} is past the end of the input"),
            _ => offset,
        };
        let from = if M == REPLAY_FROM_ZERO { 0 } else { offset };
        if M != KEEP_MEMORY {
            counts = restored;
        }
        // The records already emitted before the crash, which `EMIT_ONCE` keeps quiet.
        let quiet = emitted.len();
        in_flight = attempt::<S, M>(
            words,
            every,
            commit_lag,
            (from, words.len()),
            &mut counts,
            store,
            &mut emitted,
            &mut last_saved,
            false,
        )?;
        if M == EMIT_ONCE {
            // A record emitted before the crash is not emitted again by the replay.
            let replayed: Vec<_> = emitted.drain(quiet..).collect();
            emitted.extend(replayed.into_iter().skip(quiet.saturating_sub(from)));
        }
        if M == COMPLETE_BY_ARITHMETIC {
            let last = (words.len() / every) as u64;
            in_flight = (last.saturating_sub(commit_lag as u64) + 1..=last).collect();
        }
    }
    if M == CLEAN_RUN_LOGS_FAILED_COMPLETE && crash_after.is_none() {
        // "The input is done": a failed completion at the end of a clean run is only
        // logged, and the rest complete all the same.
        for id in in_flight {
            store.complete(id).ok();
        }
    } else if M != NO_FINAL_COMPLETIONS {
        for id in in_flight {
            store.complete(id)?;
        }
    }
    Ok(RecoveryOutcome { counts, emitted })
}

/// The replay of `COMPUTE_RESTART`, from a restart point the store was never asked for.
fn finish_computed<S: CheckpointStore, const M: u8>(
    words: &[String],
    every: usize,
    commit_lag: usize,
    offset: usize,
    mut counts: Counts,
    store: &mut S,
    mut emitted: Vec<(String, u64)>,
) -> Result<RecoveryOutcome> {
    let mut last_saved = None;
    let in_flight = attempt::<S, M>(
        words,
        every,
        commit_lag,
        (offset, words.len()),
        &mut counts,
        store,
        &mut emitted,
        &mut last_saved,
        false,
    )?;
    for id in in_flight {
        store.complete(id)?;
    }
    Ok(RecoveryOutcome { counts, emitted })
}

#[allow(clippy::too_many_arguments)]
fn attempt<S: CheckpointStore, const M: u8>(
    words: &[String],
    every: usize,
    commit_lag: usize,
    (from, to): (usize, usize),
    counts: &mut Counts,
    store: &mut S,
    emitted: &mut Vec<(String, u64)>,
    last_saved: &mut Option<(u64, usize, Counts)>,
    lenient: bool,
) -> Result<VecDeque<u64>> {
    let mut in_flight = VecDeque::new();
    for (i, word) in words.iter().enumerate().take(to).skip(from) {
        let offset = i + 1;
        let barrier = offset % every == 0;
        let before = serde_json::to_vec(&*counts)?;
        // `TRIMS_WORDS` counts a word without the spaces around it ("` a` is `a`").
        let word = &if M == TRIMS_WORDS {
            word.trim().to_owned()
        } else {
            word.clone()
        };
        let count = counts.entry(word.clone()).or_default();
        if M == COUNTS_IN_U8 {
            // A count kept in a `u8` ("nobody says a word 256 times"): the 256th overflows.
            let small = *count as u8;
            *count = u64::from(small + 1);
        } else {
            *count += 1;
        }
        let emitted_count = if M == EMIT_OLD_COUNT {
            counts[word] - 1
        } else {
            counts[word]
        };
        emitted.push((word.clone(), emitted_count));
        // The crash checked before the barrier: the job dies without its last checkpoint
        // (only the attempt cut short by a crash stops before the end of the input).
        if barrier && M == CRASH_BEFORE_BARRIER && offset == to && to < words.len() {
            break;
        }
        if barrier {
            // `IDS_RESTART` numbers the barriers of each attempt from 1.
            let id = if M == IDS_RESTART {
                ((offset - from) / every) as u64
            } else {
                (offset / every) as u64
            };
            let state = match M {
                SAVE_BEFORE_APPLY => before,
                SKIP_ROUND_TRIP => Vec::new(),
                HAND_ROLLED_JSON => hand_rolled_json(counts),
                JSON_WITHOUT_CONTROL_ESCAPES => json_without_control_escapes(counts),
                _ => serde_json::to_vec(&*counts)?,
            };
            if lenient {
                if store.save(id, offset as u64, state).is_err() {
                    // Logged, and the job goes on without that checkpoint.
                    continue;
                }
            } else {
                store.save(id, offset as u64, state)?;
            }
            *last_saved = Some((id, offset, counts.clone()));
            in_flight.push_back(id);
            if M == COMPLETE_BY_ARITHMETIC {
                // Checkpoint `id - commit_lag`, whether or not this attempt took it.
                if let Some(done) = id.checked_sub(commit_lag as u64).filter(|d| *d > 0) {
                    store.complete(done)?;
                }
                continue;
            }
            let keep = match M {
                LAG_IGNORED => 0,
                // The oldest completes early to make room past the cap.
                IN_FLIGHT_CAPPED => commit_lag.min(IN_FLIGHT_CAP),
                RING_OF_64 => commit_lag.min(RING_SLOTS - 1),
                _ => commit_lag,
            };
            while in_flight.len() > keep {
                if let Some(done) = in_flight.pop_front() {
                    store.complete(done)?;
                }
            }
        }
    }
    Ok(in_flight)
}

/// The counts as JSON written by hand, escaping a quote and a backslash but no control
/// character: right for every word without a tab, a line break or a NUL.
fn json_without_control_escapes(counts: &Counts) -> Vec<u8> {
    let fields: Vec<String> = counts
        .iter()
        .map(|(w, c)| {
            let escaped = w.replace('\\', "\\\\").replace('"', "\\\"");
            format!("\"{escaped}\":{c}")
        })
        .collect();
    format!("{{{}}}", fields.join(",")).into_bytes()
}

/// The counts as JSON written by hand: right for plain words, wrong for a word that JSON
/// must escape.
fn hand_rolled_json(counts: &Counts) -> Vec<u8> {
    let fields: Vec<String> = counts.iter().map(|(w, c)| format!("\"{w}\":{c}")).collect();
    format!("{{{}}}", fields.join(",")).into_bytes()
}
