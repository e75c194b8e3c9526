//! Stage 07 mutants: runners that checkpoint the wrong state, restore the wrong cut,
//! or keep what a crash should have destroyed, and a store that restores the wrong
//! checkpoint.
//!
//! The runner mutants share one flawed runner, [`flawed::run`], switched by a `MISTAKE`
//! constant, so each differs from the protocol in exactly one place.

use graders::stage07::{Case, ExactlyOnceState, Observation, drive};
use rstest::rstest;

/// A mutant crate: stage 07's API with the flawed runner of mistake `$m`.
macro_rules! runner_mutant {
    ($(#[$doc:meta])* $name:ident, $m:path) => {
        $(#[$doc])*
        mod $name {
            pub use solution07::{
                CheckpointStore, InMemoryCheckpointStore, RecoveryOutcome,
                StoredCheckpoint,
            };
            pub fn run_with_recovery(
                words: &[String],
                every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
            ) -> anyhow::Result<RecoveryOutcome> {
                run_with_recovery_in(words, every, crash_after, commit_lag, &mut InMemoryCheckpointStore::new())
            }
            pub fn run_with_recovery_in<S: CheckpointStore>(
                words: &[String],
                every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
                store: &mut S,
            ) -> anyhow::Result<RecoveryOutcome> {
                crate::stage07::flawed::run::<S, { $m }>(words, every, crash_after, commit_lag, store)
            }
        }
    };
}

/// A mutant crate: stage 07's API with the reference runner and the flawed store of
/// mistake `$m` (see [`store_flaws`]).
macro_rules! flawed_store {
    ($(#[$doc:meta])* $name:ident, $m:ident) => {
        $(#[$doc])*
        mod $name {
            pub use solution07::{CheckpointStore, RecoveryOutcome, StoredCheckpoint};
            pub type InMemoryCheckpointStore =
                crate::stage07::store_flaws::Store<{ crate::stage07::store_flaws::$m }>;
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
    };
}

#[macro_use]
mod brief_edges;
mod controls;
mod flawed;
mod fourth_pass;
mod runners;
mod scale;
mod slips;
mod store_errors;
mod store_flaws;
mod store_red_team;
mod store_slips;
mod stores;
mod third_pass;
mod unreadable_state;
mod wordings;

use runners::*;
use stores::*;

/// Every mutant of this folder, the check that must reject it, the requirement of the
/// brief its failure must name and the misconception card its report shows (the
/// mutant's doc comment says why).
#[rstest]
#[case::saving_before_applying(drive::<SaveBeforeApply>, "checkpoints", "07-R7", "07-barrier-before-its-record")]
#[case::restoring_an_in_flight_checkpoint(drive::<RestoreLastSaved>, "at-least-once-output", "07-R20", "07-restore-the-last-saved")]
#[case::computing_the_restart_point_without_the_store(drive::<ComputeRestart>, "checkpoints", "07-R12", "07-restart-without-the-store")]
#[case::replaying_from_zero_with_restored_state(drive::<ReplayFromZero>, "exactly-once-state", "07-R19", "07-replay-from-zero")]
#[case::keeping_memory_across_the_crash(drive::<KeepMemory>, "at-least-once-output", "07-R22", "07-memory-survives-the-crash")]
#[case::skipping_the_serialisation_round_trip(drive::<SkipRoundTrip>, "checkpoints", "07-R7", "07-state-objects-need-no-bytes")]
#[case::accepting_a_crash_point_past_the_end(drive::<CrashPastEnd>, "arguments", "07-R16", "07-crash-past-the-end-is-no-crash")]
#[case::ignoring_the_commit_lag(drive::<LagIgnored>, "checkpoints", "07-R8", "07-complete-at-once")]
#[case::leaving_checkpoints_in_flight_at_the_end(drive::<NoFinalCompletions>, "checkpoints", "07-R9", "07-in-flight-at-the-end")]
#[case::the_no_checkpoint_shortcut(drive::<Shortcut>, "checkpoints", "07-R12", "07-restart-without-the-store")]
#[case::restoring_the_first_completed_checkpoint(drive::<FirstCompleted>, "store", "07-R1", "07-first-completed")]
#[case::saving_over_a_completed_checkpoint(drive::<SaveOverwritesCompleted>, "store", "07-R3", "07-save-is-a-put")]
#[case::convenience_drops_the_crash(drive::<ConvenienceDropsTheCrash>, "own-store", "07-R18", "07-convenience-may-simplify")]
#[case::checking_the_crash_before_the_barrier(drive::<CrashBeforeBarrier>, "checkpoints", "07-R10", "07-the-crash-comes-first")]
#[case::keeping_the_first_save_of_an_id(drive::<KeepFirstSave>, "store", "07-R2", "07-saved-is-frozen")]
#[case::refusing_a_second_completion(drive::<CompleteOnce>, "store", "07-R4", "07-complete-only-once")]
#[case::completing_an_id_never_saved(drive::<CompleteUnknown>, "store", "07-R5", "07-unknown-completion-is-harmless")]
#[case::completing_by_arithmetic_after_a_restore(drive::<CompleteByArithmetic>, "checkpoints", "07-R13", "07-dead-attempt-completes")]
#[case::numbering_the_replay_from_one(drive::<IdsRestart>, "checkpoints", "07-R14", "07-ids-restart-after-the-crash")]
#[case::an_error_naming_the_value_not_the_argument(drive::<BarrierUnnamed>, "arguments", "07-R15", "07-any-error-will-do")]
#[case::validating_the_crash_point_late(drive::<ValidateCrashLate>, "arguments", "07-R17", "07-an-error-after-the-work")]
#[case::emitting_each_record_once(drive::<EmitOnce>, "at-least-once-output", "07-R21", "07-output-is-exactly-once")]
#[case::json_written_by_hand(drive::<HandRolledJson>, "contract", "07-R7", "07-json-by-hand")]
#[case::json_without_control_escapes(drive::<JsonWithoutControlEscapes>, "contract", "07-R7", "07-json-by-hand")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report =
        graders::harness::expect_rejected_for::<ExactlyOnceState>(drive, check, requirement)
            .unwrap_or_else(|why| crate::fail(&why));
    crate::cards::shows(&report, card);
}

/// The mutants with no card: the check that rejects each and the requirement its failure
/// names. Emitting the old count is a slip no one believes; completing at the end before
/// the last crash fails first exactly as ignoring the lag does (`[a]`, `crash_after
/// Some(1)`, `commit_lag 1`, the same step), and only the contract's run without a crash
/// tells them apart (`brief_edges::shows_no_coincidental_card`).
#[rstest]
#[case::emitting_the_count_before_the_record(drive::<EmitOldCount>, "at-least-once-output", "07-R6")]
#[case::completing_at_the_end_before_the_last_crash(drive::<FinalBeforeCrash>, "contract", "07-R11")]
#[case::trimming_words(drive::<TrimsWords>, "contract", "07-R7")]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    if let Err(why) =
        graders::harness::expect_rejected_for::<ExactlyOnceState>(drive, check, requirement)
    {
        crate::fail(&why);
    }
}
