//! Stage 08's cards for the sink alone: commits that publish twice or open records,
//! writes that publish at once, aborts that discard nothing or take back a commit, commits
//! that publish every earlier transaction, a sink sized for a few transactions. They show
//! in `sink-model`'s sequence of operations, read from the first wrong step.

use super::{Card, Clue, Signature, Symptom, between};

/// The operations `sink-model` applied before the sink broke its contract.
fn operations<'a>(s: &Symptom<'a>) -> &'a str {
    between(s.step, "after ", " (writes").unwrap_or("")
}

/// A record became visible though nothing was committed.
fn visible_without_commit(s: &Symptom) -> bool {
    let ops = operations(s);
    !ops.is_empty() && !ops.contains("commit(") && !s.actual.starts_with("panicked")
}

/// A commit of an id that was never pre-committed published the open transaction.
fn commit_of_an_unknown_id(s: &Symptom) -> bool {
    let ops = operations(s);
    ops.contains(" commit(") && !ops.contains("pre_commit(") && s.step.contains("only open")
}

/// A record sealed by one pre-commit became visible through a later one.
fn sealed_twice(s: &Symptom) -> bool {
    operations(s).matches("pre_commit(").count() >= 2 && s.step.contains("only open or prepared")
}

/// The last operation before the sink broke its contract was an abort.
fn aborted_last(s: &Symptom) -> bool {
    operations(s)
        .rsplit(", ")
        .next()
        .is_some_and(|op| op.starts_with("abort("))
}

/// The call that panicked was a commit or an abort of an id no pre-commit had sealed.
fn ended_an_unknown_id(s: &Symptom) -> bool {
    let Some((call, _)) = s.step.split_once(" panicked after ") else {
        return false;
    };
    let id = between(call, "(", ")").unwrap_or("");
    (call.starts_with("commit(") || call.starts_with("abort("))
        && !operations(s).contains(&format!("pre_commit({id})"))
}

/// A failure of the sink alone.
const fn sink(clues: &'static [Clue]) -> Signature {
    Signature {
        check: "sink-model",
        fault: "wrong result",
        clues,
    }
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "08-commit-publishes-again",
        stage: 8,
        title: "A commit can simply publish the prepared records",
        why: "Notifications may repeat (after a restore, say): a commit publishes a transaction \
              once, and a second commit of the same id does nothing.",
        reread: "Constraints",
        signatures: &[sink(&[Clue::Step("visible twice")])],
    },
    Card {
        id: "08-write-publishes",
        stage: 8,
        title: "A write can go straight to the output; the transaction only keeps the books",
        why: "Nothing is visible before its commit: a record written straight to the output \
              survives the crash that aborts its transaction, and the replay writes it again.",
        reread: "The invariant",
        signatures: &[sink(&[Clue::Test(
            visible_without_commit,
            "a record is visible before any commit",
        )])],
    },
    Card {
        id: "08-abort-is-a-formality",
        stage: 8,
        title: "An abort only needs to mark the transaction; nothing will commit it again",
        why: "Aborted data never appears: abort (and abort_open) must discard the records, so \
              that no later commit, of that id or of the next transaction, can publish them.",
        reread: "Task",
        signatures: &[sink(&[Clue::Step("but it was aborted")])],
    },
    Card {
        id: "08-pre-commit-copies",
        stage: 8,
        title: "Pre-committing seals a copy of the open transaction",
        why: "A pre-commit moves the open records into the prepared transaction and starts an \
              empty one: records left open are sealed again at the next barrier and published \
              twice.",
        reread: "Task",
        signatures: &[sink(&[
            Clue::Test(
                sealed_twice,
                "a record sealed earlier is published by a later commit",
            ),
            // A copy sealed again is published twice by the job as well; a commit that
            // publishes every earlier transaction leaves the job's output whole.
            Clue::Fails("exactly-once", &[Clue::Extra(true)]),
        ])],
    },
    Card {
        id: "08-commit-covers-the-earlier",
        stage: 8,
        title: "Committing checkpoint c commits every checkpoint up to c",
        why: "Flink's notification of c completes every checkpoint before it, but the brief's \
              commit(c) publishes transaction c alone: an earlier prepared transaction may \
              still be aborted (recovery aborts every one never notified) and its records \
              replayed. Each transaction is published by its own commit.",
        reread: "Task",
        signatures: &[sink(&[
            Clue::Test(
                sealed_twice,
                "a record sealed earlier is published by a later commit",
            ),
            // On the high ids, an earlier transaction published by a later commit is one
            // id taken for another (`2^32 + 1` for 1), not a commit that covers more.
            Clue::Not(&Clue::Case("how high they go")),
            // Sealed once, the records are published once: the job's output is whole
            // (judged alone, `sink-model` cannot tell this from a copy sealed twice).
            Clue::Passes("exactly-once"),
        ])],
    },
    Card {
        id: "08-abort-takes-back-a-commit",
        stage: 8,
        title: "An abort rolls a transaction back, even one already committed",
        why: "A commit is final: the outside world has read the records. abort(c) discards \
              transaction c only while it is prepared; an abort of a committed id (a recovery \
              that aborts every id it gave, say) is ignored, and the records stay visible.",
        reread: "Task",
        signatures: &[sink(&[
            Clue::Step("was committed but is not visible"),
            Clue::Test(
                aborted_last,
                "the abort of a committed id took its records back",
            ),
        ])],
    },
    Card {
        id: "08-abort-the-current-transaction",
        stage: 8,
        title: "Aborting an id I do not hold aborts the current transaction",
        why: "An abort names one prepared transaction: an id the sink does not hold (never \
              pre-committed, or already finished) is ignored. The open transaction is discarded \
              by abort_open() alone, so the records written since the last barrier survive a \
              stray abort and are sealed at the next one.",
        reread: "Task",
        signatures: &[sink(&[Clue::Step(
            "an abort of an id the sink does not hold is ignored",
        )])],
    },
    Card {
        id: "08-abort-open-aborts-everything",
        stage: 8,
        title: "abort_open() aborts everything not yet committed",
        why: "abort_open() discards the open transaction and nothing else. A prepared \
              transaction is aborted by its id, and only when it will never be notified: one \
              that is still to be committed holds records a completed checkpoint covers.",
        reread: "Task",
        signatures: &[sink(&[Clue::Step(
            "abort_open() discards the open transaction only",
        )])],
    },
    Card {
        id: "08-commit-the-current-transaction",
        stage: 8,
        title: "Committing an id I do not know commits the current transaction",
        why: "A commit names one prepared transaction: an id the sink does not know (already \
              committed, aborted, or never pre-committed) is ignored, and open records are \
              never published by a commit.",
        reread: "Task",
        signatures: &[sink(&[Clue::Test(
            commit_of_an_unknown_id,
            "a commit with no pre-commit publishes open records",
        )])],
    },
    Card {
        id: "08-unknown-ids-cannot-happen",
        stage: 8,
        title: "A commit or an abort of an id the sink does not hold cannot happen",
        why: "After a crash and a restore, notifications repeat and aborts name transactions \
              that may be gone: the sink ignores a commit or an abort of an id it does not hold. \
              A panic there takes the job down in its recovery.",
        reread: "Task",
        signatures: &[sink(&[
            Clue::Anomaly("panicked"),
            Clue::Test(
                ended_an_unknown_id,
                "a commit or an abort of an id never pre-committed panicked",
            ),
        ])],
    },
    Card {
        id: "08-a-sink-holds-a-few-transactions",
        stage: 8,
        title: "A sink only ever holds a few transactions, under small ids",
        why: "Nothing in the contract bounds how many transactions wait for their commit, or \
              how high the ids go: a commit lag of k keeps k + 1 prepared, and every barrier \
              takes the next id for as long as the job runs. A sink that aborts its oldest \
              prepared transaction to make room loses records a notification will still \
              commit; one that keeps its transactions in a vector indexed by id, or its ids \
              in a bitmask, a `u32` or a fixed array, panics, or mistakes one id for another, \
              past its width. Keep them in a map keyed by the whole `CheckpointId`.",
        reread: "Task",
        signatures: &[
            sink(&[Clue::Case("pre-commits after its own")]),
            // The high ids end their transactions every way; a failure after an abort
            // there is another mistake (a lookup the abort broke), not the ids' width.
            sink(&[
                Clue::Case("how high they go"),
                Clue::Not(&Clue::Step("abort(")),
            ]),
        ],
    },
];
