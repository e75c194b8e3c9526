//! The whole run: a first attempt that may crash, and the recovery that replays.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};
use stage01::Offset;

use crate::runner::{Cadence, Job};
use crate::{CheckpointStore, InMemoryCheckpointStore};

/// What a run leaves behind.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RecoveryOutcome {
    /// The final state: each word's count. Exactly-once: equal to a batch count.
    pub counts: BTreeMap<String, u64>,
    /// Every `(word, count)` the job emitted, across both attempts, in order.
    /// At-least-once: a crash makes the replayed records appear again.
    pub emitted: Vec<(String, u64)>,
}

/// [`run_with_recovery_in`] with a fresh [`InMemoryCheckpointStore`].
///
/// # Errors
/// As [`run_with_recovery_in`].
pub fn run_with_recovery(
    words: &[String],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
) -> Result<RecoveryOutcome> {
    let mut store = InMemoryCheckpointStore::new();
    run_with_recovery_in(words, barrier_every, crash_after, commit_lag, &mut store)
}

/// Counts `words`, taking checkpoint `c` into `store` after record `c * barrier_every`
/// and completing it `commit_lag` barriers later (every checkpoint still in flight
/// completes at the end of the input).
///
/// With `crash_after = Some(k)` the job dies after processing exactly `k` records (with
/// the checkpoint the `k`-th record's barrier takes and the completions it releases),
/// loses everything in memory, restores the store's latest completed checkpoint (or
/// starts empty at offset 0), seeks the source there and runs to the end.
///
/// At every barrier the checkpoint is saved first, then the completions it releases are
/// called (so with lag 0: `save(c)` then `complete(c)`). The checkpoint ids follow the
/// offsets, also after recovery: checkpoint `c` is always at offset `c * barrier_every`.
/// Where recovery restarts is decided by the store's `latest_completed()` alone.
///
/// # Errors
/// When `barrier_every` is 0, when `crash_after` is past the end of `words` (the messages
/// name the argument), or when the store fails.
pub fn run_with_recovery_in<S: CheckpointStore>(
    words: &[String],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
    store: &mut S,
) -> Result<RecoveryOutcome> {
    if barrier_every == 0 {
        bail!("barrier_every must be at least 1, got 0");
    }
    if let Some(k) = crash_after
        && k > words.len()
    {
        bail!(
            "crash_after must be at most the input length {}, got {k}",
            words.len()
        );
    }
    let cadence = Cadence {
        barrier_every,
        commit_lag,
    };
    let end = words.len() as Offset;
    // The outside world: it keeps what was emitted whatever happens to the job.
    let mut emitted = Vec::new();

    let mut job = Job::start(words, cadence, None, store)?;
    if let Some(k) = crash_after {
        job.process_until(k as Offset, &mut emitted)?;
        // The crash: the job, its state and its in-flight bookkeeping are gone. Only
        // the store and `emitted` survive.
        drop(job);
        let restart = store.latest_completed();
        job = Job::start(words, cadence, restart, store)?;
    }
    job.process_until(end, &mut emitted)?;
    let counts = job.finish()?;
    Ok(RecoveryOutcome { counts, emitted })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    fn pairs(list: &[(&str, u64)]) -> Vec<(String, u64)> {
        list.iter().map(|(w, c)| ((*w).to_owned(), *c)).collect()
    }

    #[test]
    fn without_a_crash_every_record_is_emitted_once() {
        let outcome = run_with_recovery(&words("a b a"), 2, None, 1).unwrap();
        assert_eq!(outcome.emitted, pairs(&[("a", 1), ("b", 1), ("a", 2)]));
        assert_eq!(
            outcome.counts,
            BTreeMap::from([("a".into(), 2), ("b".into(), 1)])
        );
    }

    #[test]
    fn a_crash_replays_from_the_latest_completed_checkpoint() {
        // Checkpoint 1 (offset 2) completes at once; the crash after record 3 replays
        // record 2 only, so ("a", 2) goes out twice while the counts stay exact.
        let outcome = run_with_recovery(&words("a b a"), 2, Some(3), 0).unwrap();
        assert_eq!(
            outcome.emitted,
            pairs(&[("a", 1), ("b", 1), ("a", 2), ("a", 2)])
        );
        assert_eq!(
            outcome.counts,
            BTreeMap::from([("a".into(), 2), ("b".into(), 1)])
        );
    }

    #[test]
    fn an_in_flight_checkpoint_is_not_restored() {
        // With lag 1, checkpoint 1 is still in flight at the crash: replay from 0.
        let outcome = run_with_recovery(&words("a b a"), 2, Some(3), 1).unwrap();
        assert_eq!(outcome.emitted.len(), 6);
        assert_eq!(
            outcome.counts,
            BTreeMap::from([("a".into(), 2), ("b".into(), 1)])
        );
    }

    #[test]
    fn the_briefs_example_emits_the_replayed_records_twice() {
        // Checkpoint 2 is still in flight at the crash (lag 1): recovery restores
        // checkpoint 1 at offset 2 and replays "or not to" a second time.
        let outcome = run_with_recovery(&words("to be or not to be"), 2, Some(5), 1).unwrap();
        let first = [("to", 1), ("be", 1), ("or", 1), ("not", 1), ("to", 2)];
        let replay = [("or", 1), ("not", 1), ("to", 2), ("be", 2)];
        assert_eq!(outcome.emitted, pairs(&[&first[..], &replay[..]].concat()));
        let counts = [("be", 2), ("not", 1), ("or", 1), ("to", 2)];
        assert_eq!(
            outcome.counts,
            counts.map(|(w, c)| (w.to_owned(), c)).into()
        );
    }

    #[test]
    fn bad_configuration_is_an_error_naming_the_argument() {
        let err = run_with_recovery(&words("a"), 0, None, 0).unwrap_err();
        assert!(err.to_string().contains("barrier_every"), "{err}");
        let err = run_with_recovery(&words("a"), 1, Some(2), 0).unwrap_err();
        assert!(err.to_string().contains("crash_after"), "{err}");
    }
}
