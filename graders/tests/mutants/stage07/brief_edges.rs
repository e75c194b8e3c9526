//! Stage-07 mistakes written from the brief's sentences alone, each breaking one rule at
//! an edge (the emissions before a crash, a crash after the last record, the replay's
//! retaken checkpoints, a store's memory of old completions), and correct variants
//! that take a choice the brief leaves open.

use graders::stage07::{Case, ExactlyOnceState, Observation, drive};
use rstest::rstest;

use crate::accepted;

/// A mutant crate: stage 07's API with the runner of [`super::slips`] and slip `$s`.
macro_rules! slip {
    ($(#[$doc:meta])* $name:ident, $s:ident, $binding:ident, $spy:ident) => {
        $(#[$doc])*
        mod $name {
            pub use solution07::{
                CheckpointStore, InMemoryCheckpointStore, RecoveryOutcome, StoredCheckpoint,
            };
            pub fn run_with_recovery(
                words: &[String],
                every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
            ) -> anyhow::Result<RecoveryOutcome> {
                let mut store = InMemoryCheckpointStore::new();
                run_with_recovery_in(words, every, crash_after, commit_lag, &mut store)
            }
            pub fn run_with_recovery_in<S: CheckpointStore>(
                words: &[String],
                every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
                store: &mut S,
            ) -> anyhow::Result<RecoveryOutcome> {
                use crate::stage07::slips;
                slips::run::<S, { slips::$s }>(words, every, crash_after, commit_lag, store)
            }
        }
        graders::impl_stage07!($binding, $spy, $name);
    };
}

/// A mutant crate: stage 07's API with the store of [`super::store_slips`] and slip `$s`.
macro_rules! store_slip {
    ($(#[$doc:meta])* $name:ident, $s:ident, $binding:ident, $spy:ident) => {
        $(#[$doc])*
        mod $name {
            pub use solution07::{CheckpointStore, RecoveryOutcome, StoredCheckpoint};
            pub type InMemoryCheckpointStore =
                crate::stage07::store_slips::Store<{ crate::stage07::store_slips::$s }>;
            pub fn run_with_recovery(
                words: &[String],
                every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
            ) -> anyhow::Result<RecoveryOutcome> {
                let mut store = InMemoryCheckpointStore::new();
                run_with_recovery_in(words, every, crash_after, commit_lag, &mut store)
            }
            pub use solution07::run_with_recovery_in;
        }
        graders::impl_stage07!($binding, $spy, $name);
    };
}

// Without a slip, both pass: each mutant below differs from a passing implementation in
// exactly its one mistake.
slip!(slipless, NONE, Slipless, SliplessSpy);
accepted!(the_slips_runner_without_a_slip_passes: ExactlyOnceState, drive::<Slipless>);
store_slip!(slipless_store, NONE, SliplessStore, SliplessStoreSpy);
accepted!(the_two_map_store_without_a_slip_passes: ExactlyOnceState, drive::<SliplessStore>);

slip! {
    /// A job that asks the store where to start at the start-up too (one code path for
    /// the first attempt and the recovery): the brief allows it, the fresh store answers
    /// `None`.
    restore_at_start, RESTORE_AT_START, RestoreAtStart, RestoreAtStartSpy
}
accepted!(restoring_at_start_up_too_passes: ExactlyOnceState, drive::<RestoreAtStart>);

slip! {
    /// The state as pretty-printed JSON: still the JSON of the counts, which serde_json
    /// reads back as the same map.
    pretty_json, PRETTY_JSON, PrettyJson, PrettyJsonSpy
}
accepted!(pretty_printed_json_passes: ExactlyOnceState, drive::<PrettyJson>);

slip! {
    /// **Mistake:** the emissions are kept in the job, so the crash loses those made
    /// before it; the brief keeps what was already emitted.
    /// **Verdict:** `at-least-once-output`: the emissions of records `0..k` are missing.
    lose_emitted, LOSE_EMITTED, LoseEmitted, LoseEmittedSpy
}
slip! {
    /// **Mistake:** `crash_after = Some(words.len())` runs as a clean run: no crash, no
    /// recovery.
    /// **Verdict:** `checkpoints`: recovery never asked the store after the last record
    /// (07-R12: on `[]` with `Some(0)` it makes no call at all, as a recovery that
    /// never asks does).
    crash_at_end_is_no_crash, CRASH_AT_END_IS_NO_CRASH, CrashAtEnd, CrashAtEndSpy
}
slip! {
    /// **Mistake:** the crash point is checked with `>=`: `Some(words.len())`, a crash
    /// after the last record, is refused as past the end.
    /// **Verdict:** a valid run returns an error naming `crash_after`.
    crash_check_ge, CRASH_CHECK_GE, CrashCheckGe, CrashCheckGeSpy
}
slip! {
    /// **Mistake:** after the restore the job completes the restored checkpoint again
    /// ("completing twice is fine" for the store, but the restarted job completes only
    /// what it saved).
    /// **Verdict:** `checkpoints`: `complete(c)` of the restored checkpoint after the
    /// restore.
    recomplete_restored, RECOMPLETE_RESTORED, Recomplete, RecompleteSpy
}
slip! {
    /// **Mistake:** the replay skips the barriers whose checkpoints the first attempt
    /// saved: the checkpoints in flight at the crash are never taken again.
    /// **Verdict:** `checkpoints`: the replay saves a later checkpoint first.
    skip_retake, SKIP_RETAKE, SkipRetake, SkipRetakeSpy
}
slip! {
    /// **Mistake:** the queue of checkpoints in flight survives the crash, so the replay
    /// completes checkpoints of the dead attempt.
    /// **Verdict:** `checkpoints`: a completion the protocol does not make after the
    /// restore.
    keep_queue, KEEP_QUEUE, KeepQueue, KeepQueueSpy
}
slip! {
    /// **Mistake:** at the end of the input the checkpoints in flight complete newest
    /// first.
    /// **Verdict:** `checkpoints`: the end-of-input completions out of order.
    final_newest_first, FINAL_NEWEST_FIRST, FinalNewestFirst, FinalNewestFirstSpy
}
slip! {
    /// **Mistake:** at the end only the newest checkpoint in flight completes, as only
    /// the latest is ever restored.
    /// **Verdict:** `checkpoints`: an older checkpoint in flight never completes.
    final_only_newest, FINAL_ONLY_NEWEST, FinalOnlyNewest, FinalOnlyNewestSpy
}
slip! {
    /// **Mistake:** at the end every checkpoint in flight is completed, even after one
    /// `complete` failed ("complete as much as we can, then report"), and the first error
    /// is returned afterwards: the store is called again after a failed call.
    /// **Verdict:** `contract`: with lag 2, `complete` of the first of the two checkpoints
    /// in flight at the end fails and the run completes the second (07-R23).
    final_completes_past_an_error, FINAL_COMPLETES_PAST_AN_ERROR, FinalPastError, FinalPastErrorSpy
}
slip! {
    /// **Mistake:** a last checkpoint is taken at the end of the input when no barrier
    /// falls there (stage 08's clean finish, one stage early).
    /// **Verdict:** `checkpoints`: a save after the last barrier.
    checkpoint_at_end, CHECKPOINT_AT_END, CheckpointAtEnd, CheckpointAtEndSpy
}
slip! {
    /// **Mistake:** the job restores at start-up and validates the arguments only then:
    /// a store call before the error.
    /// **Verdict:** `arguments`: a `latest_completed()` before the refusal.
    restore_then_validate, RESTORE_THEN_VALIDATE, RestoreThenValidate, RestoreThenValidateSpy
}
slip! {
    /// **Mistake:** the error for a crash point past the end says "the crash point", not
    /// `crash_after`.
    /// **Verdict:** `arguments`: the error does not name the argument.
    crash_unnamed, CRASH_UNNAMED, CrashUnnamed, CrashUnnamedSpy
}
store_slip! {
    /// **Mistake:** completing a checkpoint forgets the older completed ones (only the
    /// latest is ever restored), so an old completed id can be saved again.
    /// **Verdict:** `store`: `save(1)` after `complete(1)` and `complete(2)` succeeds.
    forget_older_completed, FORGET_OLDER_COMPLETED, ForgetOlder, ForgetOlderSpy
}
store_slip! {
    /// **Mistake:** the refused save of a completed id writes first and refuses after:
    /// the completed checkpoint changes.
    /// **Verdict:** `store`: `latest_completed()` after the refused save shows the new
    /// payload.
    write_then_refuse, WRITE_THEN_REFUSE, WriteThenRefuse, WriteThenRefuseSpy
}
store_slip! {
    /// **Mistake:** completing an id never saved is an error only on an empty store.
    /// **Verdict:** `store`: `complete(2)` after `save(1)` succeeds.
    unknown_only_when_empty, UNKNOWN_ONLY_WHEN_EMPTY, UnknownWhenEmpty, UnknownWhenEmptySpy
}

/// The mutants above, the check that rejects each, the requirement its failure names and
/// the misconception card its report shows. No card for a crash at the end run as no
/// crash: its first failure (on `[]`, `Some(0)`) is a recovery that never asks the store.
#[rstest]
#[case::losing_the_emissions_at_the_crash(drive::<LoseEmitted>, "at-least-once-output", "07-R21", Some("07-emitted-dies-with-the-job"))]
#[case::a_crash_at_the_end_run_as_no_crash(drive::<CrashAtEnd>, "checkpoints", "07-R12", None)]
#[case::refusing_a_crash_after_the_last_record(drive::<CrashCheckGe>, "checkpoints", "07-R11", Some("07-crash-after-the-last-is-past-the-end"))]
#[case::completing_the_restored_checkpoint_again(drive::<Recomplete>, "checkpoints", "07-R13", Some("07-dead-attempt-completes"))]
#[case::not_retaking_the_in_flight_checkpoints(drive::<SkipRetake>, "checkpoints", "07-R13", Some("07-saved-needs-no-retake"))]
#[case::keeping_the_in_flight_queue_across_the_crash(drive::<KeepQueue>, "checkpoints", "07-R13", Some("07-dead-attempt-completes"))]
#[case::completing_newest_first_at_the_end(drive::<FinalNewestFirst>, "checkpoints", "07-R9", Some("07-newest-completes-first"))]
#[case::completing_only_the_newest_at_the_end(drive::<FinalOnlyNewest>, "checkpoints", "07-R9", Some("07-newest-completes-first"))]
#[case::final_completes_past_an_error(drive::<FinalPastError>, "contract", "07-R23", None)]
#[case::a_checkpoint_at_the_end_of_the_input(drive::<CheckpointAtEnd>, "checkpoints", "07-R7", Some("07-checkpoint-at-the-end"))]
#[case::restoring_before_validating(drive::<RestoreThenValidate>, "arguments", "07-R17", Some("07-an-error-after-the-work"))]
#[case::a_crash_error_naming_no_argument(drive::<CrashUnnamed>, "arguments", "07-R16", Some("07-any-error-will-do"))]
#[case::forgetting_older_completed_checkpoints(drive::<ForgetOlder>, "store", "07-R3", Some("07-only-the-latest-is-kept"))]
#[case::writing_before_refusing_a_save(drive::<WriteThenRefuse>, "store", "07-R3", Some("07-an-error-after-the-work"))]
#[case::completing_an_unknown_id_on_a_used_store(drive::<UnknownWhenEmpty>, "store", "07-R5", Some("07-unknown-completion-is-harmless"))]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report =
        graders::harness::expect_rejected_for::<ExactlyOnceState>(drive, check, requirement)
            .unwrap_or_else(|why| crate::fail(&why));
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}

/// Mutants whose smallest cases look like another mistake's card: an emission of the
/// count before the record is counted is off by one, as `07-barrier-before-its-record`'s
/// checkpoint is; unreadable state taken as empty counts restarts from nothing, as
/// `07-replay-from-zero` does; a crash after the last record run as no crash never asks
/// the store, as a recovery that computes its own restart point does
/// (`07-restart-without-the-store`, whose contract failure crashes elsewhere); completing
/// what is in flight just before that crash completes too early, as ignoring the lag does
/// (`07-complete-at-once`, whose contract failure is a run without a crash); a completed
/// id's save accepted and ignored is the smallest failure of a save taken for a put
/// (`07-save-is-a-put`, where `latest_completed()` then reads the new save). No card may
/// be shown for them.
#[rstest]
#[case::emitting_the_count_before_the_record(drive::<crate::stage07::runners::EmitOldCount>, "at-least-once-output", "07-R6")]
#[case::unreadable_state_as_empty(drive::<crate::stage07::unreadable_state::UnreadableAsEmpty>, "contract", "07-R12")]
#[case::a_crash_at_the_end_run_as_no_crash(drive::<CrashAtEnd>, "checkpoints", "07-R12")]
#[case::completing_at_the_end_before_the_last_crash(drive::<crate::stage07::runners::FinalBeforeCrash>, "contract", "07-R11")]
#[case::completing_at_the_end_before_the_last_crash_replayed(drive::<crate::stage07::runners::FinalBeforeCrash>, "at-least-once-output", "07-R11")]
#[case::save_completed_ignored(drive::<crate::stage07::store_red_team::SaveCompletedIgnored>, "store", "07-R3")]
#[case::crash_checked_as_u32(drive::<crate::stage07::runners::CrashCheckedAsU32>, "arguments", "07-R16")]
#[case::barrier_every_as_u32(drive::<crate::stage07::runners::BarrierEveryAsU32>, "checkpoints", "07-R7")]
#[case::seek_clamped(drive::<crate::stage07::runners::SeekClamped>, "contract", "07-R12")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<ExactlyOnceState>(drive, check, requirement);
}
