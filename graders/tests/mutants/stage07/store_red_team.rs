//! Stage-07 store mistakes from a second red-team pass, each breaking one rule of the
//! brief: the latest checkpoint read by completion order, a save of a completed id
//! ignored without an error, a save of an id in flight refused, and (a later red team's)
//! every store a handle on one thread-local table.

use graders::stage07::{Case, ExactlyOnceState, Observation, drive};
use rstest::rstest;

store_slip! {
    /// **Mistake:** `latest_completed` remembers the checkpoint completed last, "the
    /// latest", where the brief asks for the completed one with the highest id.
    /// **Verdict:** `store`: after `complete(2)` then `complete(1)` it answers 1 (07-R1).
    latest_by_completion, LATEST_BY_COMPLETION, LatestByCompletion, LatestByCompletionSpy
}
store_slip! {
    /// **Mistake:** a save of a completed id is ignored, "nothing changes, so all is
    /// well": the caller is never told that it tried to rewrite a completed checkpoint.
    /// **Verdict:** `store`: `save(1)` after `complete(1)` is `Ok` (07-R3).
    save_completed_ignored, SAVE_COMPLETED_IGNORED, SaveCompletedIgnored, SaveCompletedIgnoredSpy
}
store_slip! {
    /// **Mistake:** "an id is saved once": a second save of an id still in flight is
    /// refused, so the replay cannot retake the checkpoints in flight at the crash.
    /// **Verdict:** `store`: `save(1)` twice is an error (07-R2).
    save_in_flight_refused, SAVE_IN_FLIGHT_REFUSED, SaveInFlightRefused, SaveInFlightRefusedSpy
}

/// **Mistake:** the checkpoints kept outside the job in a `thread_local!` table, "so
/// they outlive the job that crashed", which `new()` starts afresh: every store is a
/// handle on the one table (the fifteenth red team's w07-06).
/// **Verdict:** `store`: a second store made beside a first one wipes the first one's
/// completed checkpoint 1 (07-R1).
mod store_in_a_thread_local {
    use std::cell::RefCell;

    use anyhow::Result;
    pub use solution07::{
        CheckpointId, CheckpointStore, Offset, RecoveryOutcome, StoredCheckpoint,
        run_with_recovery_in,
    };

    thread_local! {
        static TABLE: RefCell<solution07::InMemoryCheckpointStore> =
            RefCell::new(solution07::InMemoryCheckpointStore::new());
    }

    pub struct InMemoryCheckpointStore(());

    impl InMemoryCheckpointStore {
        pub fn new() -> Self {
            TABLE.with(|table| *table.borrow_mut() = solution07::InMemoryCheckpointStore::new());
            Self(())
        }
    }

    impl CheckpointStore for InMemoryCheckpointStore {
        fn save(&mut self, id: CheckpointId, offset: Offset, state: Vec<u8>) -> Result<()> {
            TABLE.with(|table| table.borrow_mut().save(id, offset, state))
        }
        fn complete(&mut self, id: CheckpointId) -> Result<()> {
            TABLE.with(|table| table.borrow_mut().complete(id))
        }
        fn latest_completed(&self) -> Option<StoredCheckpoint> {
            TABLE.with(|table| table.borrow().latest_completed())
        }
    }

    pub fn run_with_recovery(
        words: &[String],
        every: usize,
        crash_after: Option<usize>,
        commit_lag: usize,
    ) -> Result<RecoveryOutcome> {
        let mut store = InMemoryCheckpointStore::new();
        run_with_recovery_in(words, every, crash_after, commit_lag, &mut store)
    }
}
graders::impl_stage07!(
    StoreInAThreadLocal,
    StoreInAThreadLocalSpy,
    store_in_a_thread_local
);

/// The mutants above, the check that rejects each, the requirement its failure names and
/// the misconception card its report shows. No card for a completed id's save ignored:
/// its smallest case, `save(1)` accepted after `complete(1)`, is the one of a save taken
/// for a put, told apart only by `latest_completed()` right after it, which still reads
/// the completed save (`brief_edges::shows_no_coincidental_card`).
#[rstest]
#[case::latest_by_completion(drive::<LatestByCompletion>, "store", "07-R1", Some("07-latest-is-the-last-completed"))]
#[case::save_completed_ignored(drive::<SaveCompletedIgnored>, "store", "07-R3", None)]
#[case::save_in_flight_refused(drive::<SaveInFlightRefused>, "store", "07-R2", Some("07-saved-is-frozen"))]
#[case::store_in_a_thread_local(drive::<StoreInAThreadLocal>, "store", "07-R1", None)]
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
