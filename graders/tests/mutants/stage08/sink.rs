//! Stage 08 mutants of the sink: commits that publish twice or too early, aborts that
//! do nothing, a pre-commit that keeps the transaction open.

use graders::stage08::{Case, Observation, TransactionalSinkStage, drive};
use rstest::rstest;

use super::expect_anomaly;
use crate::rejects;

flawed_sink! {
    /// **Mistake:** `commit` publishes the prepared records but leaves the transaction
    /// prepared, so a repeated notification publishes them again.
    /// **Verdict:** `sink-model`, "sink breaks the contract" (`commit(1), commit(1)`).
    commit_not_idempotent, CommitNotIdempotent, CommitTwice, CommitTwiceSpy
}

flawed_sink! {
    /// **Mistake:** `write` publishes at once (an at-least-once sink dressed as a
    /// transactional one).
    /// **Verdict:** `sink-model`, "sink breaks the contract" (`write(1)` is visible), and
    /// `exactly-once` finds the duplicates a crash produces.
    write_visible_at_once, WriteVisibleAtOnce, Eager, EagerSpy
}

flawed_sink! {
    /// **Mistake:** `abort` does nothing, so a later `commit` of the id publishes aborted data.
    /// **Verdict:** `sink-model`, "sink breaks the contract".
    abort_ignored, AbortIgnored, NoAbort, NoAbortSpy
}

flawed_sink! {
    /// **Mistake:** `abort_open` does nothing: the aborted records ride along in the next
    /// pre-commit. The job never reuses a crashed sink, so only the sink alone shows it.
    /// **Verdict:** `sink-model`, "sink breaks the contract".
    abort_open_ignored, AbortOpenIgnored, NoAbortOpen, NoAbortOpenSpy
}

flawed_sink! {
    /// **Mistake:** `pre_commit` copies the open transaction instead of moving it, so the
    /// records are sealed again at the next barrier.
    /// **Verdict:** `sink-model`, "sink breaks the contract"; `exactly-once`, "duplicate".
    pre_commit_keeps_open, PreCommitKeepsOpen, KeepsOpen, KeepsOpenSpy
}

flawed_sink! {
    /// **Mistake:** `commit` of an id it does not know commits "the current transaction"
    /// (the open one) instead of being ignored.
    /// **Verdict:** `sink-model`, "sink breaks the contract" (`write(1), commit(1)`).
    unknown_commit_publishes_open, UnknownCommitPublishesOpen, Unknown, UnknownSpy
}

flawed_sink! {
    /// **Mistake:** `abort` of an id that is not prepared aborts "the transaction in
    /// progress", the open one, instead of being ignored.
    /// **Verdict:** `sink-model`, "sink breaks the contract" (`write(1), abort(1),
    /// pre_commit(1), commit(1)` shows nothing): 08-R4, the abort, though the loss shows at
    /// the commit.
    abort_unknown_clears_open, AbortUnknownClearsOpen, AbortClearsOpen, AbortClearsOpenSpy
}

flawed_sink! {
    /// **Mistake:** `abort_open` discards everything not yet committed, the prepared
    /// transactions too.
    /// **Verdict:** `sink-model`, "sink breaks the contract" (`write(1), pre_commit(1),
    /// abort_open(), commit(1)` shows nothing): 08-R5, the `abort_open()`.
    abort_open_drops_prepared, AbortOpenDropsPrepared, AbortOpenAll, AbortOpenAllSpy
}

flawed_sink! {
    /// **Mistake:** `commit` of an id the sink does not hold panics ("cannot happen"),
    /// where the contract ignores it (a notification may arrive for a checkpoint the
    /// sink never prepared, or twice).
    /// **Verdict:** `sink-model`, "panicked", showing the sequence: `commit(1)` on a
    /// fresh sink.
    panics_on_unknown_commit, PanicsOnUnknownCommit, PanicsUnknown, PanicsUnknownSpy
}

flawed_sink! {
    /// **Mistake:** the sink holds at most eight prepared transactions and aborts the
    /// oldest to make room for a ninth, as a transaction timeout would: the brief bounds
    /// neither, and a commit lag of 9 keeps ten prepared.
    /// **Verdict:** `sink-model`, "sink breaks the contract", on the run of 70 checkpoints
    /// each committed 9 pre-commits after its own: record 1 is never visible (08-R3, the
    /// commit that should have published it).
    evicts_beyond_eight_prepared, EvictsBeyondEightPrepared, Evicts, EvictsSpy
}

flawed_sink! {
    /// **Mistake:** the sink remembers which ids ended as bits of one `u64` (`1 << id`),
    /// so ids past 63 overflow the shift: ids grow by one per barrier, without bound.
    /// **Verdict:** `sink-model`, "panicked", on the run of 70 checkpoints: at
    /// `pre_commit(64)` (08-R2).
    ended_ids_in_a_bitmask, EndedIdsInABitmask, Bitmask, BitmaskSpy
}

flawed_sink! {
    /// **Mistake:** the sink keeps prepared transaction `id` in slot `id` of a `Vec`
    /// ("ids are 1, 2, 3, ..., one per barrier"), so a high id asks for a vector past the
    /// machine's memory: nothing in the contract says where the ids start.
    /// **Verdict:** `sink-model`, "panicked", on the high ids: at `pre_commit(u64::MAX)`
    /// (08-R2).
    prepared_in_a_vec_by_id, PreparedInAVecById, SlotPerId, SlotPerIdSpy
}

flawed_sink! {
    /// **Mistake:** the sink files its transactions under the id's low 32 bits ("a `u32`
    /// is plenty of checkpoints"), so `2^32 + 1` is taken for 1: its pre-commit finds 1
    /// already there, and its records are lost.
    /// **Verdict:** `sink-model`, "sink breaks the contract", on the high ids: record 3 is
    /// never visible (named 08-R2, the pre-commit that did not seal it as `2^32 + 1`).
    ids_kept_in_u32, IdsKeptInU32, LowBitsOfId, LowBitsOfIdSpy
}

/// Every mutant of this file, the check that must reject it, the anomaly and the
/// requirement of the brief its report must name, and its card (the mutant's doc comment
/// says why).
#[rstest]
#[case::panics_on_unknown_commit(drive::<PanicsUnknown>, "sink-model", "panicked", "08-R3", "08-unknown-ids-cannot-happen")]
#[case::commit_not_idempotent(drive::<CommitTwice>, "sink-model", "sink breaks the contract", "08-R24", "08-commit-publishes-again")]
#[case::write_visible_at_once(drive::<Eager>, "sink-model", "sink breaks the contract", "08-R1", "08-write-publishes")]
#[case::write_visible_at_once_duplicates(drive::<Eager>, "exactly-once", "duplicate", "08-R22", "08-write-publishes")]
#[case::abort_ignored(drive::<NoAbort>, "sink-model", "sink breaks the contract", "08-R4", "08-abort-is-a-formality")]
#[case::abort_open_ignored(drive::<NoAbortOpen>, "sink-model", "sink breaks the contract", "08-R5", "08-abort-is-a-formality")]
#[case::pre_commit_keeps_open(drive::<KeepsOpen>, "sink-model", "sink breaks the contract", "08-R2", "08-pre-commit-copies")]
#[case::pre_commit_keeps_open_duplicates(drive::<KeepsOpen>, "exactly-once", "duplicate", "08-R22", "08-pre-commit-copies")]
#[case::unknown_commit(drive::<Unknown>, "sink-model", "sink breaks the contract", "08-R3", "08-commit-the-current-transaction")]
#[case::abort_unknown_clears_open(drive::<AbortClearsOpen>, "sink-model", "sink breaks the contract", "08-R4", "08-abort-the-current-transaction")]
#[case::abort_open_drops_prepared(drive::<AbortOpenAll>, "sink-model", "sink breaks the contract", "08-R5", "08-abort-open-aborts-everything")]
#[case::evicts_beyond_eight_prepared(drive::<Evicts>, "sink-model", "sink breaks the contract", "08-R3", "08-a-sink-holds-a-few-transactions")]
#[case::ended_ids_in_a_bitmask(drive::<Bitmask>, "sink-model", "panicked", "08-R2", "08-a-sink-holds-a-few-transactions")]
#[case::prepared_in_a_vec_by_id(drive::<SlotPerId>, "sink-model", "panicked", "08-R2", "08-a-sink-holds-a-few-transactions")]
#[case::ids_kept_in_u32(drive::<LowBitsOfId>, "sink-model", "sink breaks the contract", "08-R2", "08-a-sink-holds-a-few-transactions")]
fn is_rejected(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] anomaly: &str,
    #[case] requirement: &str,
    #[case] card: &str,
) {
    let report = super::rejects_for(drive, check, requirement);
    expect_anomaly(&report, check, anomaly);
    crate::cards::shows(&report, card);
}

/// A panic of the sink alone shows the operations that led to it.
#[test]
fn a_panicking_sink_shows_its_sequence() {
    let report = rejects::<TransactionalSinkStage>(drive::<PanicsUnknown>, "sink-model");
    crate::wordings::reads(
        &report,
        "sink-model",
        [
            "every sequence of up to 5 operations, and of 6 with at most 1 idle call, on a fresh TransactionalSink starting with Write",
            "committed() = []",
            "panicked: commit of unknown checkpoint 1",
            "commit(1) panicked after write(1) (writes write 1, 2, 3, ... in order): a sink answers every call of the trait without panicking (a commit or an abort of an id it does not hold is ignored)",
        ],
    );
}
