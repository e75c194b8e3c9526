//! The stage-07 runner mutants: the flawed runner of [`super::flawed`] with one mistake
//! switched on each, and the shortcut that never checkpoints.

use graders::stage07::{ExactlyOnceState, drive};

use crate::accepted;

// With no mistake switched on the flawed runner passes: every mutant below differs from
// a passing implementation in exactly its one mistake.
runner_mutant!(faithful, crate::stage07::flawed::NONE);
graders::impl_stage07!(Faithful, FaithfulSpy, faithful);
accepted!(the_mutant_scaffolding_without_a_mistake_passes: ExactlyOnceState, drive::<Faithful>);

runner_mutant! {
    /// **Mistake:** the checkpoint is saved before the barrier's own record is counted.
    /// **Verdict:** `checkpoints` fails on the first one-word input with
    /// `barrier_every = 1`: "store call 1 (no crash): checkpoint 1 saved counts {},
    /// expected the counts of records 0..1: {...} (the counts before the barrier's own
    /// record was applied)".
    save_before_apply, crate::stage07::flawed::SAVE_BEFORE_APPLY
}
graders::impl_stage07!(SaveBeforeApply, SaveBeforeApplySpy, save_before_apply);

runner_mutant! {
    /// **Mistake:** recovery restores the last checkpoint the job *saved* (remembered on
    /// the side), whether or not it completed.
    /// **Verdict:** `at-least-once-output` fails on the first crash with
    /// `commit_lag = 1` after a save: "the emissions after the crash are those of a
    /// replay from offset 1, checkpoint 1's, which was still in flight at the crash
    /// (commit_lag = 1): only completed checkpoints may be restored; no checkpoint had
    /// completed".
    restore_last_saved, crate::stage07::flawed::RESTORE_LAST_SAVED
}
graders::impl_stage07!(RestoreLastSaved, RestoreLastSavedSpy, restore_last_saved);

runner_mutant! {
    /// **Mistake:** recovery works the restart point out from the schedule (completed
    /// barriers = barriers before the crash minus the lag) and recounts the prefix,
    /// never asking the store: right here, but a real job has nothing but the store.
    /// **Verdict:** `checkpoints`: "recovery never asked the store".
    compute_restart, crate::stage07::flawed::COMPUTE_RESTART
}
graders::impl_stage07!(ComputeRestart, ComputeRestartSpy, compute_restart);

runner_mutant! {
    /// **Mistake:** after restoring the counts, the source is replayed from offset 0
    /// instead of the checkpoint's offset.
    /// **Verdict:** `exactly-once-state` fails on `[a]`, `barrier_every = 1`, crash after 1:
    /// the run returns the spy store's refusal "the grader's spy store refused save(1, ..):
    /// checkpoint 1 is already completed" (the replay from 0 retakes a checkpoint that
    /// completed); on longer inputs the counts are too high.
    replay_from_zero, crate::stage07::flawed::REPLAY_FROM_ZERO
}
graders::impl_stage07!(ReplayFromZero, ReplayFromZeroSpy, replay_from_zero);

runner_mutant! {
    /// **Mistake:** the counts in memory survive the crash; only the source is sought
    /// back to the checkpoint's offset.
    /// **Verdict:** `exactly-once-state` fails on the first crash past a checkpoint, and
    /// `at-least-once-output` explains "continued from the counts in memory at the crash".
    keep_memory, crate::stage07::flawed::KEEP_MEMORY
}
graders::impl_stage07!(KeepMemory, KeepMemorySpy, keep_memory);

runner_mutant! {
    /// **Mistake:** the checkpoint's bytes are skipped: an empty state is saved and the
    /// restore uses a live copy of the counts kept on the side.
    /// **Verdict:** `checkpoints` fails at the first save: "checkpoint 1's state is not
    /// JSON of a BTreeMap<String, u64> (EOF while parsing ...)".
    skip_round_trip, crate::stage07::flawed::SKIP_ROUND_TRIP
}
graders::impl_stage07!(SkipRoundTrip, SkipRoundTripSpy, skip_round_trip);

runner_mutant! {
    /// **Mistake:** `crash_after` past the end of the input is accepted (the job just
    /// never crashes).
    /// **Verdict:** `arguments` fails on the empty input with `crash_after = Some(1)`:
    /// "run_with_recovery_in accepted an invalid `crash_after`".
    crash_past_end_accepted, crate::stage07::flawed::CRASH_PAST_END_ACCEPTED
}
graders::impl_stage07!(CrashPastEnd, CrashPastEndSpy, crash_past_end_accepted);

runner_mutant! {
    /// **Mistake:** `crash_after` is compared with the input's length as a `u32`: `2^32`
    /// reads as 0 and passes the check (the job then runs to the end without crashing).
    /// **Verdict:** `arguments`: `crash_after = Some(2^32)` is accepted (07-R16).
    crash_checked_as_u32, crate::stage07::flawed::CRASH_CHECKED_AS_U32
}
graders::impl_stage07!(
    CrashCheckedAsU32,
    CrashCheckedAsU32Spy,
    crash_checked_as_u32
);

runner_mutant! {
    /// **Mistake:** the restored checkpoint's offset is clamped to the input's length, "to
    /// be safe": a checkpoint past the end resumes at the end instead of failing.
    /// **Verdict:** `contract`: a checkpoint handed back at offset 4 of three words gives
    /// a result, not an error (07-R12).
    seek_clamped, crate::stage07::flawed::SEEK_CLAMPED
}
graders::impl_stage07!(SeekClamped, SeekClampedSpy, seek_clamped);

runner_mutant! {
    /// **Mistake:** the cadence is kept as a `u32` (clamped to at least 1): `barrier_every =
    /// 2^32` reads as 1, so a run that should take no checkpoint takes one after every
    /// record.
    /// **Verdict:** `checkpoints`: a checkpoint saved where `barrier_every = 2^32` places
    /// none (07-R8).
    barrier_every_as_u32, crate::stage07::flawed::BARRIER_EVERY_AS_U32
}
graders::impl_stage07!(
    BarrierEveryAsU32,
    BarrierEveryAsU32Spy,
    barrier_every_as_u32
);

runner_mutant! {
    /// **Mistake:** every checkpoint completes at once, whatever the commit lag says.
    /// **Verdict:** `checkpoints` fails on the first run with `commit_lag = 1` and a
    /// barrier (`[a]`, crash after 1): "store call 2 (...): complete(1) came too early:
    /// with commit_lag = 1, checkpoint 1 completes 1 barrier(s) after its own save".
    lag_ignored, crate::stage07::flawed::LAG_IGNORED
}
graders::impl_stage07!(LagIgnored, LagIgnoredSpy, lag_ignored);

runner_mutant! {
    /// **Mistake:** checkpoints still in flight at the end of the input are never
    /// completed.
    /// **Verdict:** `checkpoints` fails on the first run with `commit_lag = 1` and a
    /// barrier: "checkpoint 1 never completed: ... every checkpoint still in flight
    /// completes at the end of the input".
    no_final_completions, crate::stage07::flawed::NO_FINAL_COMPLETIONS
}
graders::impl_stage07!(
    NoFinalCompletions,
    NoFinalCompletionsSpy,
    no_final_completions
);

runner_mutant! {
    /// **Mistake:** the crash is checked before the barrier, so the job dies without the
    /// checkpoint the `k`-th record's barrier takes; the replay then saves it.
    /// **Verdict:** `checkpoints`: the save is labelled by when the job made it, "after
    /// the crash ..., recovered with no completed checkpoint", against the protocol's
    /// "before the crash".
    crash_before_barrier, crate::stage07::flawed::CRASH_BEFORE_BARRIER
}
graders::impl_stage07!(
    CrashBeforeBarrier,
    CrashBeforeBarrierSpy,
    crash_before_barrier
);

/// **Mistake (the shortcut):** no checkpointing at all: the counts come from the whole
/// input and the emissions are one running count, as if nothing had crashed.
/// **Verdict:** `checkpoints` fails on the first input with a barrier: "store call 1:
/// checkpoint 1 was never saved"; `at-least-once-output` fails on the first crash that
/// must replay a record.
mod shortcut {
    pub use solution07::{
        CheckpointStore, InMemoryCheckpointStore, RecoveryOutcome, StoredCheckpoint,
    };
    pub fn run_with_recovery(
        words: &[String],
        every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
    ) -> anyhow::Result<RecoveryOutcome> {
        run_with_recovery_in(
            words,
            every,
            crash_after,
            commit_lag,
            &mut InMemoryCheckpointStore::new(),
        )
    }
    pub fn run_with_recovery_in<S: CheckpointStore>(
        words: &[String],
        every: usize,
        crash_after: Option<usize>,
        _commit_lag: usize,
        _store: &mut S,
    ) -> anyhow::Result<RecoveryOutcome> {
        anyhow::ensure!(every > 0, "barrier_every must be at least 1");
        anyhow::ensure!(
            crash_after.is_none_or(|k| k <= words.len()),
            "crash_after past the end"
        );
        let mut counts = std::collections::BTreeMap::new();
        let emitted = words
            .iter()
            .map(|w| {
                let c = counts.entry(w.clone()).or_insert(0);
                *c += 1;
                (w.clone(), *c)
            })
            .collect();
        Ok(RecoveryOutcome { counts, emitted })
    }
}
graders::impl_stage07!(Shortcut, ShortcutSpy, shortcut);

runner_mutant! {
    /// **Mistake:** a record emits its word's count from before the record, `(word, old
    /// count)`, where the brief emits the new count.
    /// **Verdict:** `at-least-once-output` fails on `[a]`: `emitted[0]` is `("a", 0)`.
    emit_old_count, crate::stage07::flawed::EMIT_OLD_COUNT
}
graders::impl_stage07!(EmitOldCount, EmitOldCountSpy, emit_old_count);

runner_mutant! {
    /// **Mistake:** the end-of-input completions run as soon as the input is exhausted,
    /// before the crash is checked: a crash after the last record finds its checkpoints
    /// completed, where `Some(words.len())` is a crash before those completions.
    /// **Verdict:** `checkpoints` fails on a one-word input, `crash_after = Some(1)`,
    /// `commit_lag = 1`, where it is one with ignoring the lag ("came too early"); the
    /// `contract` check's first failure, on two words with a kept lag before the last
    /// barrier, reads "the job completed its in-flight checkpoints before the crash".
    final_before_crash, crate::stage07::flawed::FINAL_BEFORE_CRASH
}
graders::impl_stage07!(FinalBeforeCrash, FinalBeforeCrashSpy, final_before_crash);

runner_mutant! {
    /// **Mistake:** the barrier of checkpoint `c` completes `c - commit_lag` by
    /// arithmetic, and the end of the input the last `commit_lag` ids, whether or not the
    /// restarted job saved them: after a restore it completes checkpoints taken before
    /// the crash.
    /// **Verdict:** `checkpoints` fails on the first crash past a completed checkpoint
    /// with `commit_lag = 1` and a barrier after it: "after a restore nothing is in
    /// flight".
    complete_by_arithmetic, crate::stage07::flawed::COMPLETE_BY_ARITHMETIC
}
graders::impl_stage07!(
    CompleteByArithmetic,
    CompleteByArithmeticSpy,
    complete_by_arithmetic
);

runner_mutant! {
    /// **Mistake:** the replay numbers its checkpoints from 1 again, as a fresh job would.
    /// **Verdict:** `checkpoints` fails on `[a b]`, `barrier_every = 1`, crash after 1:
    /// "saved checkpoint 1, expected checkpoint 2 (ids follow the offsets ...)".
    ids_restart, crate::stage07::flawed::IDS_RESTART
}
graders::impl_stage07!(IdsRestart, IdsRestartSpy, ids_restart);

runner_mutant! {
    /// **Mistake:** `barrier_every = 0` is refused with a message that names the value,
    /// not the argument: "cannot take a checkpoint every 0 records".
    /// **Verdict:** `arguments` fails: "run_with_recovery_in's error does not say which
    /// argument is wrong".
    barrier_unnamed, crate::stage07::flawed::BARRIER_UNNAMED
}
graders::impl_stage07!(BarrierUnnamed, BarrierUnnamedSpy, barrier_unnamed);

runner_mutant! {
    /// **Mistake:** `crash_after` past the end is noticed only when the first attempt
    /// runs out of input: the error is right, but the job has already saved checkpoints.
    /// **Verdict:** `arguments` fails on `[a]`, `crash_after = Some(2)`: "no store call"
    /// expected, `Save` first.
    validate_crash_late, crate::stage07::flawed::VALIDATE_CRASH_LATE
}
graders::impl_stage07!(ValidateCrashLate, ValidateCrashLateSpy, validate_crash_late);

runner_mutant! {
    /// **Mistake:** the replay does not emit again the records the first attempt already
    /// emitted, as if the output could be exactly-once at this stage.
    /// **Verdict:** `at-least-once-output` fails on `[a]`, crash after 1 with
    /// `commit_lag = 1`: "nothing was emitted after the crash".
    emit_once, crate::stage07::flawed::EMIT_ONCE
}
graders::impl_stage07!(EmitOnce, EmitOnceSpy, emit_once);

runner_mutant! {
    /// **Mistake:** the state is JSON written by hand, `"word":count` without escaping:
    /// the same bytes as serde_json's for plain words.
    /// **Verdict:** only `contract` fails, on the words `x"y`, `a b`, `é`: "checkpoint 1's
    /// state is not JSON of a BTreeMap<String, u64>".
    hand_rolled_json, crate::stage07::flawed::HAND_ROLLED_JSON
}
graders::impl_stage07!(HandRolledJson, HandRolledJsonSpy, hand_rolled_json);

runner_mutant! {
    /// **Mistake:** (w07-04 of the sixth red team) the state is JSON written by hand that
    /// escapes a quote and a backslash, but no control character: a word holding a tab,
    /// a NUL or a line break makes a checkpoint no JSON reader takes.
    /// **Verdict:** `contract`, on the words with control characters: the checkpoint's
    /// state is not the JSON of the counts.
    json_without_control_escapes, crate::stage07::flawed::JSON_WITHOUT_CONTROL_ESCAPES
}
graders::impl_stage07!(
    JsonWithoutControlEscapes,
    JsonWithoutControlEscapesSpy,
    json_without_control_escapes
);

runner_mutant! {
    /// **Mistake:** (w07-05 of the sixth red team) the counter keys and emits each word
    /// trimmed ("` a` is the word `a`"): the brief counts words as they are.
    /// **Verdict:** `contract`, on ` a`, `a`, `a `: checkpoint 1's state counts `a`, not
    /// ` a` (and the first emission is `("a", 1)`, not `(" a", 1)`).
    trims_words, crate::stage07::flawed::TRIMS_WORDS
}
graders::impl_stage07!(TrimsWords, TrimsWordsSpy, trims_words);
