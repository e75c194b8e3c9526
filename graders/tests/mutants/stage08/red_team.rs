//! Stage-08 mistakes from a second red-team pass, each breaking one rule of the brief: a
//! notification that publishes every earlier transaction, an abort that takes back a
//! commit, checkpoint ids from 0, a replay sink made up front, an empty input that skips
//! the crash, and a replay that finishes newest first; and from later rounds, a barrier
//! whose commits come before its pre-commit, recovery's aborts sent twice, a replay whose
//! ids skip, and a job that lets only four checkpoints pend; and from the red team's
//! third pass, a sink that files its open transaction under id 0, and a job whose output
//! of the dead sink is a copy refreshed at its own commits; and bounds past every
//! smaller case: 32 checkpoints pending, 100 transactions prepared; and a replay that
//! commits its checkpoints only at its end.

use graders::stage08::{Case, Observation, drive};
use rstest::rstest;

flawed_sink! {
    /// **Mistake:** Flink's notification read into `commit`: committing `c` publishes
    /// every prepared transaction up to `c`. The brief's `commit(c)` publishes `c` alone.
    /// **Verdict:** `sink-model`: `commit(2)` publishes what `pre_commit(1)` sealed
    /// (named 08-R2, the call that decided those records' transaction).
    commit_subsumes_earlier, CommitSubsumesEarlier, Subsumes, SubsumesSpy
}

flawed_sink! {
    /// **Mistake:** `abort` "rolls back" whatever holds the id, a committed transaction
    /// too, which then disappears from the visible output.
    /// **Verdict:** `sink-model` (`commit(1), abort(1)`).
    abort_unpublishes, AbortUnpublishes, Unpublishes, UnpublishesSpy
}

slip! {
    /// **Mistake:** `let mut next_id = 0`: checkpoints count from 0, where the brief's
    /// barriers take 1, 2, ... (an id 0 reads as "no checkpoint" in stage 07's store).
    /// **Verdict:** `protocol`, "checkpoint ids do not count from 1" at the first barrier
    /// (08-R8). Before this pass every check accepted it.
    ids_from_zero, IDS_FROM_ZERO, IdsFromZero, IdsFromZeroSpy
}
slip! {
    /// **Mistake:** both sinks are made at the start ("the replay's sink is ready when the
    /// crash comes"), so a run without a crash calls `new_sink()` twice.
    /// **Verdict:** `protocol` (08-R25: one sink at the start, one after the crash).
    fresh_sink_up_front, FRESH_SINK_UP_FRONT, UpFront, UpFrontSpy
}
slip! {
    /// **Mistake:** a probe sink is made and dropped before the first one, "to check the
    /// connection", so every run calls `new_sink()` once more than it needs.
    /// **Verdict:** `protocol`, "extra sink" (08-R25), counted before the sinks are judged:
    /// the probe is not taken for the dead sink (which once read as "abort_open() was
    /// never called on the dead sink").
    probe_sink, PROBE_SINK, Probe, ProbeSpy
}
slip! {
    /// **Mistake:** "nothing to write, nothing to do": an empty input returns `[]` at
    /// once, so `crash_after = Some(0)` neither aborts nor makes the second sink.
    /// **Verdict:** `protocol`: on `[]` with `Some(0)` no sink at all (named 08-R25, the
    /// "one sink at the start" half of what 08-R16 asks).
    empty_input_returns_early, EMPTY_INPUT_RETURNS_EARLY, EmptyEarly, EmptyEarlySpy
}
slip! {
    /// **Mistake:** the replay's own finishing loop commits its pending checkpoints
    /// newest first (the first run's is right).
    /// **Verdict:** `protocol`: the fresh sink commits a checkpoint while an older one is
    /// pending (08-R9: notifications arrive oldest first).
    replay_newest_first, REPLAY_NEWEST_FIRST, ReplayNewest, ReplayNewestSpy
}
flawed_sink! {
    /// **Mistake:** the sink keeps its prepared transactions in a `Vec` sorted by id and
    /// finds them with `binary_search`, but `abort` removes with `swap_remove` ("order
    /// does not matter for a removal"): with three prepared, the last moves into the
    /// aborted one's place, the vector is no longer sorted, and a later commit does not
    /// find its transaction.
    /// **Verdict:** `sink-model`, "sink breaks the contract", on the high ids, whose three
    /// transactions are ended every way (named 08-R4, the abort after which a commit
    /// finds nothing).
    sorted_vec_swap_remove, SortedVecSwapRemove, SwapRemove, SwapRemoveSpy
}

slip! {
    /// **Mistake:** at each barrier the notification it brings for an older checkpoint
    /// is delivered first, then the barrier's own checkpoint is pre-committed ("the older
    /// one completed before this barrier came"). The brief's barrier pre-commits and
    /// queues first; only then are more than `commit_lag` pending.
    /// **Verdict:** `protocol`, "committed before the barrier's pre-commit" (08-R9: "lag
    /// 1: at the next barrier, after that barrier's pre-commit"), at the crash right
    /// after barrier 2 (records `[a, b]`, lag 1) too, where it once read as a commit at
    /// the crash that recovery should have aborted (08-R13).
    commits_before_pre_commit, COMMITS_BEFORE_PRE_COMMIT, CommitsFirst, CommitsFirstSpy
}

slip! {
    /// **Mistake:** recovery runs its abort loop twice "to be sure none survives" (the
    /// in-memory sink ignores the second round). A real system no longer holds an aborted
    /// transaction, and refuses to roll it back again (the red team's w08-09).
    /// **Verdict:** `protocol`: at the crash after barrier 1 (lag 1), `abort(1)` a second
    /// time on the dead sink (08-R18).
    abort_twice, ABORT_TWICE, AbortTwice, AbortTwiceSpy
}
slip! {
    /// **Mistake:** the replay's barrier loop counts its id once more, so its ids go
    /// `next`, `next + 2`, ... (the red team's w08-06); the first one is right.
    /// **Verdict:** `protocol`: the replay's second checkpoint skips an id (08-R17).
    replay_ids_by_two, REPLAY_IDS_BY_TWO, ReplayIdsByTwo, ReplayIdsByTwoSpy
}
slip! {
    /// **Mistake:** at most four checkpoints may pend ("a real job bounds the checkpoints
    /// in flight"): past that the oldest is committed before its notification (the red
    /// team's w08-01).
    /// **Verdict:** `contract`: on 17 records, a barrier after each and lag `2^32`,
    /// checkpoint 1 is committed at barrier 5 (08-R23).
    at_most_four_pending, AT_MOST_FOUR_PENDING, AtMostFour, AtMostFourSpy
}

flawed_sink! {
    /// **Mistake:** "id 0 is never a checkpoint: it names the open transaction", so
    /// `commit(0)` publishes the open records and `abort(0)` discards them (the red team's
    /// w08-01). The brief ignores a commit or an abort of an id that is not prepared, and
    /// no sink pre-commits 0.
    /// **Verdict:** `sink-model`: `write(1), commit(0)` shows `[1]` (08-R3).
    id_zero_is_the_open_transaction, IdZeroIsTheOpenTransaction, IdZeroOpen, IdZeroOpenSpy
}
flawed_job! {
    /// **Mistake:** the dead sink's output is a copy the job took at the sink's creation
    /// and after each of its own commits ("it only changes when the job commits"), not
    /// its `committed()` read at the crash: a row another writer commits after the job's
    /// last commit is lost (the red team's w08-06).
    /// **Verdict:** `contract`: the other writer's row committed right after the job's
    /// write of the crash point's record is missing from the output, "result not from the
    /// sinks" (08-R19).
    dead_output_copied_at_commits, DeadOutputCopiedAtCommits, CopiedAtCommits, CopiedAtCommitsSpy
}

slip! {
    /// **Mistake:** at most 32 checkpoints may pend, a "max concurrent checkpoints" of
    /// the kind a real job sets: past that the oldest is committed before its
    /// notification (the red team's fourth-round w08-02, beyond the 17 that
    /// `at_most_four_pending` needs).
    /// **Verdict:** `contract`: on 1100 records, a barrier after each and lag `2^32`,
    /// checkpoint 1 is committed at barrier 33 (08-R23).
    at_most_32_pending, AT_MOST_32_PENDING, AtMost32, AtMost32Spy
}
flawed_sink! {
    /// **Mistake:** a bounded staging area: past 100 prepared transactions the sink
    /// aborts the oldest (the red team's fourth-round w08-03). Nothing bounds how many
    /// transactions wait for their commit.
    /// **Verdict:** `sink-model`: after 1100 pre-commits and every commit, record 1 is
    /// missing: `commit(1)` published nothing (08-R3).
    at_most_100_prepared, AtMost100Prepared, AtMost100, AtMost100Spy
}

slip! {
    /// **Mistake:** the replay "catches up": it keeps taking checkpoints but holds their
    /// commits until it has replayed the whole tail (the sixteenth red team's w08-05). The
    /// brief lets a replay commit its tail as one transaction, or keep taking checkpoints
    /// and commit them at the lag or sooner; a prepared transaction held past the lag
    /// keeps its locks and hides its rows for the whole replay.
    /// **Verdict:** `protocol`, "notification late" on the fresh sink: a record written
    /// while more than `commit_lag` of the replay's checkpoints were pending (08-R9).
    replay_commits_at_the_end, REPLAY_COMMITS_AT_THE_END, ReplayAtEnd, ReplayAtEndSpy
}

/// The mutants above, the check that rejects each, the requirement its failure names and
/// the card its report shows. The replay's own loop committing newest first holds
/// `08-pending-is-a-stack`'s belief on the fresh sink. The early return on an empty input
/// skips the sink where there is nothing to write: `08-output-needs-no-sink`'s belief,
/// which that card states for any output, an empty one too.
#[rstest]
#[case::commit_subsumes_earlier(drive::<Subsumes>, "sink-model", "08-R2", Some("08-commit-covers-the-earlier"))]
#[case::abort_unpublishes(drive::<Unpublishes>, "sink-model", "08-R4", Some("08-abort-takes-back-a-commit"))]
#[case::ids_from_zero(drive::<IdsFromZero>, "protocol", "08-R8", Some("08-ids-from-zero"))]
#[case::fresh_sink_up_front(drive::<UpFront>, "protocol", "08-R25", Some("08-fresh-sink-up-front"))]
#[case::probe_sink(drive::<Probe>, "protocol", "08-R25", None)]
#[case::empty_input_returns_early(drive::<EmptyEarly>, "protocol", "08-R25", Some("08-output-needs-no-sink"))]
#[case::replay_newest_first(drive::<ReplayNewest>, "protocol", "08-R9", Some("08-pending-is-a-stack"))]
#[case::commits_before_pre_commit(drive::<CommitsFirst>, "protocol", "08-R9", None)]
#[case::sorted_vec_swap_remove(drive::<SwapRemove>, "sink-model", "08-R4", None)]
#[case::abort_twice(drive::<AbortTwice>, "protocol", "08-R18", None)]
#[case::replay_ids_by_two(drive::<ReplayIdsByTwo>, "protocol", "08-R17", None)]
#[case::at_most_four_pending(drive::<AtMostFour>, "contract", "08-R23", None)]
#[case::id_zero_is_the_open_transaction(drive::<IdZeroOpen>, "sink-model", "08-R3", None)]
#[case::dead_output_copied_at_commits(drive::<CopiedAtCommits>, "contract", "08-R19", None)]
#[case::at_most_32_pending(drive::<AtMost32>, "contract", "08-R23", None)]
#[case::at_most_100_prepared(drive::<AtMost100>, "sink-model", "08-R3", None)]
#[case::replay_commits_at_the_end(drive::<ReplayAtEnd>, "protocol", "08-R9", None)]
fn is_rejected_for(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
    #[case] card: Option<&str>,
) {
    let report = super::rejects_for(drive, check, requirement);
    if let Some(card) = card {
        crate::cards::shows(&report, card);
    }
}

/// Mutants whose smallest cases look like another mistake's card: a probe sink makes a
/// run without a crash use two sinks, as the replay's sink made up front does
/// (`08-fresh-sink-up-front`), but with a crash it makes three. No card may be shown.
#[rstest]
#[case::probe_sink(drive::<Probe>, "protocol", "08-R25")]
fn shows_no_coincidental_card(
    #[case] drive: fn(&Case) -> Observation,
    #[case] check: &str,
    #[case] requirement: &str,
) {
    crate::cards::rejected_without_card::<graders::stage08::TransactionalSinkStage>(
        drive,
        check,
        requirement,
    );
}
