//! Stage-08 mistakes written from the brief's sentences alone, each breaking one rule at
//! an edge (the clean finish's order, the crash point's barrier, which unnotified
//! transactions are aborted, the output's order), and correct variants that take a
//! choice the brief leaves open.

use graders::stage08::{Case, Observation, TransactionalSinkStage, drive};
use rstest::rstest;

use crate::accepted;

/// A mutant crate: stage 08's API with the job of [`super::slips`] and slip `$s` (the
/// reference's sink, or `$sink`).
macro_rules! slip {
    ($(#[$doc:meta])* $name:ident, $s:ident, $binding:ident, $spy:ident) => {
        slip!($(#[$doc])* $name, $s, $binding, $spy, solution08::TransactionalSink);
    };
    ($(#[$doc:meta])* $name:ident, $s:ident, $binding:ident, $spy:ident, $($sink:ident)::+) => {
        $(#[$doc])*
        mod $name {
            pub use solution08::{CheckpointId, TwoPhaseCommitSink};
            pub use $($sink)::+ as TransactionalSink;

            pub fn run_exactly_once_sink_with<T: Clone, S: TwoPhaseCommitSink<T>>(
                records: &[T],
                barrier_every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
                new_sink: impl FnMut() -> S,
            ) -> anyhow::Result<Vec<T>> {
                use crate::stage08::slips;
                slips::run::<T, S, { slips::$s }>(records, barrier_every, crash_after, commit_lag, new_sink)
            }

            pub fn run_exactly_once_sink<T: Clone>(
                records: &[T],
                barrier_every: usize,
                crash_after: Option<usize>,
                commit_lag: usize,
            ) -> anyhow::Result<Vec<T>> {
                run_exactly_once_sink_with(records, barrier_every, crash_after, commit_lag, TransactionalSink::new)
            }
        }
        graders::impl_stage08!($binding, $spy, $name);
    };
}

/// A sink that keeps only what is still to happen: the open transaction and the
/// prepared ones; a committed or aborted id is forgotten (a late commit of it finds
/// nothing, so it is ignored all the same).
pub mod forgetful {
    use std::collections::BTreeMap;

    use solution08::{CheckpointId, TwoPhaseCommitSink};

    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct TransactionalSink<T> {
        open: Vec<T>,
        prepared: BTreeMap<CheckpointId, Vec<T>>,
        visible: Vec<T>,
    }

    crate::stage08::snapshot::by_serde!(TransactionalSink<T>);

    impl<T> TransactionalSink<T> {
        pub fn new() -> Self {
            Self {
                open: Vec::new(),
                prepared: BTreeMap::new(),
                visible: Vec::new(),
            }
        }
    }

    impl<T> TwoPhaseCommitSink<T> for TransactionalSink<T> {
        fn write(&mut self, record: T) {
            self.open.push(record);
        }
        fn pre_commit(&mut self, id: CheckpointId) {
            let sealed = std::mem::take(&mut self.open);
            self.prepared.insert(id, sealed);
        }
        fn commit(&mut self, id: CheckpointId) {
            if let Some(records) = self.prepared.remove(&id) {
                self.visible.extend(records);
            }
        }
        fn abort(&mut self, id: CheckpointId) {
            self.prepared.remove(&id);
        }
        fn abort_open(&mut self) {
            self.open.clear();
        }
        fn committed(&self) -> &[T] {
            &self.visible
        }
    }
}

// Without a slip the job passes: each mutant below differs from a passing implementation
// in exactly its one mistake.
slip!(slipless, NONE, Slipless, SliplessSpy);
accepted!(the_slips_job_without_a_slip_passes: TransactionalSinkStage, drive::<Slipless>);

slip! {
    /// A sink that forgets a transaction once it is committed or aborted, under the
    /// slipless job: the brief's contract holds without tombstones, as ids are never
    /// pre-committed twice.
    forgetful_sink, NONE, Forgetful, ForgetfulSpy, crate::stage08::brief_edges::forgetful::TransactionalSink
}
accepted!(a_sink_forgetting_finished_transactions_passes: TransactionalSinkStage, drive::<Forgetful>);

slip! {
    /// **Mistake:** recovery aborts every id the dead sink was given, the notified ones
    /// too ("the sink ignores an abort of a committed id"), though recovery names no id in
    /// an abort but those of the prepared transactions: a real system cannot roll back a
    /// committed transaction (`ROLLBACK PREPARED` of it is an error).
    /// **Verdict:** `protocol`, "abort of an id not prepared" (08-R18).
    abort_every_id, ABORT_EVERY_ID, AbortEvery, AbortEverySpy
}

slip! {
    /// After the crash the last notification arrives again (idempotent), then the aborts
    /// newest first, and `abort_open()` last: independent effects in another order.
    duplicate_notification, DUPLICATE_NOTIFICATION, DuplicateNotification, DuplicateNotificationSpy
}
accepted!(a_repeated_notification_and_aborts_newest_first_pass: TransactionalSinkStage, drive::<DuplicateNotification>);

slip! {
    /// **Mistake:** the clean finish commits the pending checkpoints newest first.
    /// **Verdict:** `protocol`, "finished out of order" (lag 1: the last barrier's
    /// checkpoint is committed before the trailing one's).
    finish_newest_first, FINISH_NEWEST_FIRST, FinishNewestFirst, FinishNewestFirstSpy
}
slip! {
    /// **Mistake:** at the crash point's barrier the job pre-commits and dies before the
    /// commits that barrier releases.
    /// **Verdict:** `protocol`, "notification late" (08-R9: on `[x]`, one record per
    /// barrier, lag 0, the calls are those of a queue one step late, and the card
    /// `08-notification-a-step-late` explains both: the step adds that a crash after the
    /// barrier's record comes after the commits it releases, 08-R11).
    crash_between_phases, CRASH_BETWEEN_PHASES, BetweenPhases, BetweenPhasesSpy
}
slip! {
    /// **Mistake:** recovery aborts only the newest unnotified checkpoint.
    /// **Verdict:** `protocol`, "not aborted" (lag 2: two are unnotified).
    abort_only_newest, ABORT_ONLY_NEWEST, AbortNewest, AbortNewestSpy
}
slip! {
    /// **Mistake:** recovery aborts only the oldest unnotified checkpoint.
    /// **Verdict:** `protocol`, "not aborted".
    abort_only_oldest, ABORT_ONLY_OLDEST, AbortOldest, AbortOldestSpy
}
slip! {
    /// **Mistake:** the output puts the fresh sink's records before the dead sink's.
    /// **Verdict:** `protocol`, "result not from the sinks".
    result_fresh_first, RESULT_FRESH_FIRST, FreshFirst, FreshFirstSpy
}
slip! {
    /// **Mistake:** `abort_open()` is called on the fresh sink instead of the dead one.
    /// **Verdict:** `protocol`, "open not aborted".
    abort_open_on_fresh, ABORT_OPEN_ON_FRESH, AbortOpenFresh, AbortOpenFreshSpy
}
slip! {
    /// **Mistake:** the crash point is checked with `>=`: `Some(len)` is refused.
    /// **Verdict:** `protocol`, "crash at the end refused": a valid run returns an error
    /// naming `crash_after`.
    crash_check_ge, CRASH_CHECK_GE, CrashGe, CrashGeSpy
}
slip! {
    /// **Mistake:** the replay starts at the barrier that delivered the last notification,
    /// not at the notified checkpoint's own offset.
    /// **Verdict:** `protocol`, "replay from the wrong offset".
    replay_from_notifying_barrier, REPLAY_FROM_NOTIFYING_BARRIER, NotifyingBarrier, NotifyingBarrierSpy
}
slip! {
    /// **Mistake:** the replay's first id is worked out as the last notified id plus the
    /// lag plus one, which skips ids when fewer than `commit_lag` checkpoints were pending.
    /// **Verdict:** `protocol`, "replay ids not counting on".
    ids_by_lag, IDS_BY_LAG, IdsByLag, IdsByLagSpy
}

slip! {
    /// **Mistake:** recovery aborts the unnotified transactions through the fresh sink
    /// (a new connection), where the dead sink still holds them.
    /// **Verdict:** `protocol`, "not aborted".
    abort_on_fresh, ABORT_ON_FRESH, AbortOnFresh, AbortOnFreshSpy
}
slip! {
    /// **Mistake:** with `crash_after = Some(0)` nothing is written before the crash, so
    /// no first sink is created: the only sink is the replay's.
    /// **Verdict:** `protocol`, "sink used past the crash" (08-R12: on `[]` the one sink
    /// pre-commits a last checkpoint, as a clean finish does).
    no_sink_before_the_first_record, NO_SINK_BEFORE_THE_FIRST_RECORD, NoFirstSink, NoFirstSinkSpy
}

/// The mutants above, the check that rejects each, the requirement its failure names and
/// the misconception card its report shows. No card for the slips (ids worked out by the
/// lag, the fresh sink's output put first, the wrong sink or transaction aborted), whose
/// first failures read as other mistakes' or as no belief at all.
#[rstest]
#[case::committing_newest_first_at_the_finish(drive::<FinishNewestFirst>, "protocol", "08-R10", Some("08-finish-in-any-order"))]
#[case::crashing_between_the_two_phases(drive::<BetweenPhases>, "protocol", "08-R9", Some("08-notification-a-step-late"))]
#[case::aborting_only_the_newest_unnotified(drive::<AbortNewest>, "protocol", "08-R13", None)]
#[case::aborting_only_the_oldest_unnotified(drive::<AbortOldest>, "protocol", "08-R13", None)]
#[case::the_fresh_sink_s_output_first(drive::<FreshFirst>, "protocol", "08-R19", None)]
#[case::the_fresh_sink_s_output_first_in_plain_runs(drive::<FreshFirst>, "exactly-once", "08-R19", None)]
#[case::aborting_the_fresh_sink_s_open_transaction(drive::<AbortOpenFresh>, "protocol", "08-R14", None)]
#[case::refusing_a_crash_after_the_last_record(drive::<CrashGe>, "protocol", "08-R12", Some("08-crash-after-the-last-is-past-the-end"))]
#[case::replaying_from_the_notifying_barrier(drive::<NotifyingBarrier>, "protocol", "08-R15", None)]
#[case::numbering_the_replay_by_the_lag(drive::<IdsByLag>, "protocol", "08-R17", None)]
#[case::aborting_through_the_fresh_sink(drive::<AbortOnFresh>, "protocol", "08-R13", None)]
#[case::no_sink_before_the_first_record(drive::<NoFirstSink>, "protocol", "08-R12", None)]
#[case::aborting_every_id_at_the_crash(drive::<AbortEvery>, "protocol", "08-R18", Some("08-abort-more-to-be-safe"))]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report =
        graders::harness::expect_rejected_for::<TransactionalSinkStage>(drive, check, requirement)
            .unwrap_or_else(|why| crate::fail(&why));
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}

/// Mutants whose smallest cases look like another mistake's card: the fresh sink's output
/// put first is the right records in the wrong order, as `08-output-in-id-order`'s; a
/// replay numbered by the lag reuses ids, as `08-fresh-sink-fresh-ids` and
/// `08-aborted-ids-are-free` do; aborting only the newest or the oldest unnotified, or
/// aborting on the fresh sink, leaves a prepared transaction, as
/// `08-prepared-is-committed` does; a replay from the notifying barrier starts at the
/// last checkpoint taken, as `08-replay-from-the-last-taken`'s does, once one was
/// notified; no first sink on the empty input takes a checkpoint past the crash, as
/// `08-the-old-sink-lives-on` does. No card may be shown for them.
#[rstest]
#[case::the_fresh_sink_s_output_first(drive::<FreshFirst>, "protocol", "08-R19")]
#[case::numbering_the_replay_by_the_lag(drive::<IdsByLag>, "protocol", "08-R17")]
#[case::aborting_only_the_newest_unnotified(drive::<AbortNewest>, "protocol", "08-R13")]
#[case::aborting_only_the_oldest_unnotified(drive::<AbortOldest>, "protocol", "08-R13")]
#[case::aborting_the_fresh_sink_s_open_transaction(drive::<AbortOpenFresh>, "protocol", "08-R14")]
#[case::replaying_from_the_notifying_barrier(drive::<NotifyingBarrier>, "protocol", "08-R15")]
#[case::aborting_through_the_fresh_sink(drive::<AbortOnFresh>, "protocol", "08-R13")]
#[case::no_sink_before_the_first_record(drive::<NoFirstSink>, "protocol", "08-R12")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<TransactionalSinkStage>(drive, check, requirement);
}

/// Dying between a barrier's pre-commit and its commits is told apart from a late queue
/// only by where it shows: the step says that the crash comes after those commits.
#[test]
fn a_crash_between_the_phases_is_told_the_crash_comes_after_the_commits() {
    let report = graders::harness::expect_rejected_for::<TransactionalSinkStage>(
        drive::<BetweenPhases>,
        "protocol",
        "08-R9",
    )
    .unwrap_or_else(|why| crate::fail(&why));
    let step = report
        .checks
        .iter()
        .find(|c| c.name == "protocol")
        .and_then(|c| c.first_failure.as_ref())
        .map(|f| format!("{:?}", f.fault))
        .unwrap_or_default();
    assert!(
        step.contains(
            "with commit_lag = 0 its notification arrives at barrier 1, and a crash after record 1 comes after the commits that barrier releases"
        ),
        "{step}"
    );
}
