//! The whole run: a first attempt, perhaps cut short by a crash, and the recovery that
//! replays.

use std::collections::BTreeMap;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::{CheckpointStore, InMemoryCheckpointStore};

/// What a run leaves behind.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RecoveryOutcome {
    /// The final state, the count of each word: exactly-once, so equal to a batch count
    /// (07-R19).
    pub counts: BTreeMap<String, u64>,
    /// Every `(word, count)` the job emitted, across both attempts, in order: at-least-once,
    /// since the records replayed after a crash are emitted again (07-R21).
    pub emitted: Vec<(String, u64)>,
}

/// [`run_with_recovery_in`] with a fresh [`InMemoryCheckpointStore`] (07-R18).
///
/// # Errors
/// Those of [`run_with_recovery_in`], whose run this is (07-R18).
pub fn run_with_recovery(
    words: &[String],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
) -> Result<RecoveryOutcome> {
    let mut store = InMemoryCheckpointStore::new();
    run_with_recovery_in(words, barrier_every, crash_after, commit_lag, &mut store)
}

/// Counts `words` (07-R6), taking checkpoint `c` into `store` after record
/// `c * barrier_every` (07-R7) and completing it `commit_lag` barriers later (07-R8);
/// every checkpoint still in flight completes at the end of the input, oldest first
/// (07-R9).
///
/// With `crash_after = Some(k)` the job dies after processing exactly `k` records, the
/// checkpoint the `k`-th record's barrier takes and the completions it releases included
/// (07-R10), loses everything in memory (07-R22), restores the store's latest completed
/// checkpoint (or starts empty at offset 0), seeks the source there and runs to the end
/// (07-R12). `Some(words.len())` is a crash too, before the end-of-input completions
/// (07-R11).
///
/// At every barrier the checkpoint is saved first, then the completions it releases are
/// called (so with lag 0: `save(c)` then `complete(c)`) (07-R8). The checkpoint ids follow
/// the offsets, also after recovery: checkpoint `c` is always at offset
/// `c * barrier_every` (07-R14). Where recovery restarts is decided by the store's
/// `latest_completed()` alone (07-R12).
///
/// # Errors
/// When `barrier_every` is 0 (07-R15) or `crash_after` is past the end of `words`
/// (07-R16), with a message that names the argument, and before any store call (07-R17).
pub fn run_with_recovery_in<S: CheckpointStore>(
    words: &[String],
    barrier_every: usize,
    crash_after: Option<usize>,
    commit_lag: usize,
    store: &mut S,
) -> Result<RecoveryOutcome> {
    // TODO(stage 07): validate the arguments; run a first attempt (count, emit, save a
    // checkpoint at every barrier, complete it `commit_lag` barriers later) that stops
    // after `crash_after` records if set; then drop everything, restore the store's latest
    // completed checkpoint (or start empty at offset 0), seek a source there and run to the
    // end, completing every checkpoint still in flight once the input is exhausted.
    let _ = (words, barrier_every, crash_after, commit_lag, store);
    todo!()
}
