//! Stage 08's cards for the job: commits before the notification, prepared transactions
//! left alone at a crash, replays from the wrong offset or under reused ids. A job's
//! mistakes show in the `protocol` check's anomaly (the start of what came out); the
//! sink's own are in [`super::stage08_sink`].

use super::{Card, Clue, Signature};

/// A failure of the two-phase protocol between the job and the grader's spy sink.
const fn protocol(clues: &'static [Clue]) -> Signature {
    Signature {
        check: "protocol",
        fault: "wrong result",
        clues,
    }
}

/// A refused argument.
const fn bad_input(clues: &'static [Clue]) -> Signature {
    Signature {
        check: "bad-input",
        fault: "wrong result",
        clues,
    }
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "08-output-needs-no-sink",
        stage: 8,
        title: "The output can be returned without going through a sink",
        why: "Exactly-once is a promise about what the outside world sees across crashes: \
              records reach it only through a sink's two phases, pre-commit at the barrier and \
              commit on the notification. Every run makes its sink with new_sink, one at the \
              start and one after the crash, even a run with no records: returning the output \
              yourself, the input or an empty list, skips the protocol entirely.",
        reread: "Constraints",
        signatures: &[protocol(&[Clue::Anomaly("no sink")])],
    },
    Card {
        id: "08-commit-at-the-barrier",
        stage: 8,
        title: "A checkpoint can be committed at its own barrier",
        why: "A checkpoint is committed when its completion is notified, commit_lag barriers \
              later: until then a crash may still fall back before it, and what was committed \
              would be replayed and written again.",
        reread: "The invariant",
        signatures: &[protocol(&[Clue::Anomaly("visible before notification")])],
    },
    Card {
        id: "08-notification-a-step-late",
        stage: 8,
        title: "The commit a notification releases can wait a step (a barrier, or past a crash)",
        why: "Checkpoint c is notified at barrier c + commit_lag, not one barrier later, and is \
              committed right there: with commit_lag = 0 at its own barrier. A crash after a \
              barrier's record comes after the commits that barrier releases, so a job that dies \
              between the pre-commit and the commit is late too. A late commit leaves a notified \
              checkpoint to be aborted at the crash, and its records lost or replayed.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly("notification late")])],
    },
    Card {
        id: "08-pending-is-a-stack",
        stage: 8,
        title: "A notification commits the newest pending checkpoint",
        why: "Checkpoints complete in order, oldest first: a notification commits the oldest \
              pending one, so that the committed output is always a prefix of the input.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly("notified out of order")])],
    },
    Card {
        id: "08-crash-skips-the-barrier",
        stage: 8,
        title: "A crash right after a barrier's record makes that barrier pointless",
        why: "The barrier after record k comes before a crash after record k: the job \
              pre-commits there, and recovery counts on that checkpoint existing.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly("missing barrier")])],
    },
    Card {
        id: "08-finish-commits-the-pending",
        stage: 8,
        title: "At the end of the input, committing what is pending is enough",
        why: "At a clean finish the open transaction holds the records after the last barrier: \
              it is pre-committed as a final checkpoint and committed, or those records never \
              become visible.",
        reread: "The invariant",
        signatures: &[protocol(&[
            Clue::Anomaly("not committed at the end"),
            Clue::Step("crash_after = none"),
        ])],
    },
    Card {
        id: "08-final-checkpoint-reuses-an-id",
        stage: 8,
        title: "The final checkpoint can reuse the last barrier's id",
        why: "Every pre-commit takes a new checkpoint id: the sink commits by id, so a reused id \
              merges two transactions, or is refused, and the final records are lost.",
        reread: "Task",
        signatures: &[protocol(&[
            Clue::Anomaly("reused checkpoint id"),
            Clue::Not(&Clue::Step("fresh sink")),
        ])],
    },
    Card {
        id: "08-prepared-is-committed",
        stage: 8,
        title: "A prepared transaction is as good as a committed one",
        why: "A prepared transaction was never notified: the checkpoint it belongs to may not \
              have completed, and the replay writes its records again. At a crash, recovery \
              aborts every transaction that was not notified, the prepared ones too.",
        reread: "Task",
        // The belief leaves every prepared transaction alone, so it fails already at lag
        // 1, where one is unnotified at the crash: a job that first fails at a higher lag
        // aborts some of them (the newest or the oldest only).
        signatures: &[protocol(&[
            Clue::Anomaly("not aborted"),
            Clue::Extra(false),
            Clue::Step("was prepared but never notified, and was not aborted"),
            Clue::Step("commit_lag = 1:"),
            Clue::Not(&Clue::Step("on the fresh sink")),
        ])],
    },
    Card {
        id: "08-flush-at-the-crash",
        stage: 8,
        title: "At a crash, the job can still flush what is pending",
        why: "A crashed job commits nothing: the pending checkpoints were never notified, the \
              replay writes their records again, and committing them makes duplicates. They \
              are aborted.",
        reread: "The invariant",
        signatures: &[protocol(&[Clue::Anomaly("not aborted"), Clue::Extra(true)])],
    },
    Card {
        id: "08-replay-needs-no-commit",
        stage: 8,
        title: "Writing the replay into the fresh sink is enough",
        why: "The fresh sink is a sink like the first: what the replay writes becomes visible \
              only through pre-commit and commit, up to the clean finish.",
        reread: "Task",
        signatures: &[protocol(&[
            Clue::Anomaly("not committed at the end"),
            Clue::Step("fresh sink"),
        ])],
    },
    Card {
        id: "08-replay-from-the-start",
        stage: 8,
        title: "After a crash, replaying from the start is safe",
        why: "The committed output already holds records up to the last notified checkpoint: \
              the replay starts at that checkpoint's offset, or those records are written twice.",
        reread: "The invariant",
        signatures: &[protocol(&[
            Clue::Anomaly("replay from the wrong offset"),
            Clue::Extra(true),
        ])],
    },
    Card {
        id: "08-replay-from-the-last-taken",
        stage: 8,
        title: "The replay can start at the last checkpoint taken",
        why: "A checkpoint taken but not notified was aborted at the crash: its records are not \
              in the output. The replay starts at the last notified checkpoint's offset.",
        reread: "The invariant",
        signatures: &[protocol(&[
            Clue::Anomaly("replay from the wrong offset"),
            Clue::Missing(true),
            // The belief fails already when no checkpoint was notified (a crash after the
            // first barrier, lag 1); a replay that is wrong only after a notification
            // starts from where that notification came, not from the last taken.
            Clue::Step("the last notified checkpoint is at offset 0,"),
        ])],
    },
    Card {
        id: "08-the-old-sink-lives-on",
        stage: 8,
        title: "After the crash, the job can go on with the sink it had",
        why: "The crashed job's sink died with it: the replay goes into a sink made by \
              new_sink(), and the dead one is only ever aborted.",
        reread: "Task",
        // The belief goes on with the sink after recovering it: its aborts are there, then
        // the replay's calls (a crash at the end finished as if clean has no aborts, and
        // is another anomaly).
        signatures: &[protocol(&[Clue::Anomaly("replay into the dead sink")])],
    },
    Card {
        id: "08-fresh-sink-fresh-ids",
        stage: 8,
        title: "A fresh sink is a fresh system: its checkpoint ids can start again at 1",
        why: "Checkpoint ids name transactions in the external system, which outlives the \
              crash: ids keep counting across the restart, or the replay reuses the id of a \
              committed transaction.",
        reread: "Task",
        signatures: &[protocol(&[
            Clue::Anomaly("reused checkpoint id"),
            Clue::Step("fresh sink"),
            Clue::Step("commit_lag = 0"),
            Clue::Not(&Clue::Step("though no transaction held it")),
        ])],
    },
    Card {
        id: "08-aborted-ids-are-free",
        stage: 8,
        title: "An aborted checkpoint's id is free again",
        why: "The external system saw the aborted id: a real one may refuse it or mistake the \
              new transaction for the old. The replay numbers its checkpoints after every id \
              the first sink was given, aborted ones included.",
        reread: "Task",
        signatures: &[protocol(&[
            Clue::Anomaly("reused checkpoint id"),
            Clue::Step("fresh sink"),
            Clue::Not(&Clue::Step("commit_lag = 0")),
            Clue::Not(&Clue::Step("though no transaction held it")),
        ])],
    },
    Card {
        id: "08-one-abort-too-many-is-harmless",
        stage: 8,
        title: "An abort of an id no transaction holds does no harm",
        why: "The in-memory sink ignores it, but the external system it stands for records \
              the id as aborted, and the id after the last pre-committed one is exactly the \
              one the replay takes next. Recovery aborts the prepared transactions the dead \
              sink holds, and names no other id.",
        reread: "Task",
        signatures: &[protocol(&[
            Clue::Anomaly("reused checkpoint id"),
            Clue::Step("though no transaction held it"),
        ])],
    },
    Card {
        id: "08-abort-more-to-be-safe",
        stage: 8,
        title: "Aborting more than the prepared transactions is the safe side",
        why: "The in-memory sink ignores an abort of an id it does not hold prepared, but \
              the system it stands for does not: a committed transaction cannot be rolled \
              back (PostgreSQL refuses ROLLBACK PREPARED of it, and recovery stops there), \
              and an id the sink never pre-committed (0, the next id, the dead job's ids sent \
              to the fresh sink) is recorded as aborted for good. Recovery aborts exactly the \
              dead sink's prepared transactions that were never notified, on the dead sink.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly("abort of an id not prepared")])],
    },
    Card {
        id: "08-no-replay-no-recovery",
        stage: 8,
        title: "With nothing left to replay, recovery has nothing to do",
        why: "A crash is a crash even at the end of the input: recovery still aborts what the \
              dead sink holds and calls new_sink(), since the restarted job cannot know that \
              nothing is left.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly("no fresh sink")])],
    },
    Card {
        id: "08-barrier-every-is-trusted",
        stage: 8,
        title: "Nobody will pass barrier_every = 0",
        why: "barrier_every = 0 means no checkpoint, or a division by zero: a configuration \
              error whose message names `barrier_every`, before anything runs.",
        reread: "Task",
        signatures: &[bad_input(&[
            Clue::Anomaly("accepted bad input"),
            Clue::Expected("`barrier_every`"),
        ])],
    },
    Card {
        id: "08-crash-past-the-end-is-no-crash",
        stage: 8,
        title: "A crash point past the end of the input just means no crash",
        why: "A crash point past the end is a mistake in the caller's arguments: running without \
              a crash hides it. It is an error whose message names `crash_after`.",
        reread: "Task",
        // A crash point of 2^32 let through is a count squeezed into a `u32`, no belief.
        signatures: &[bad_input(&[
            Clue::Anomaly("accepted bad input"),
            Clue::Expected("`crash_after`"),
            Clue::Not(&Clue::Step("4294967296")),
        ])],
    },
    Card {
        id: "08-any-error-will-do",
        stage: 8,
        title: "Refusing bad arguments is enough; the message is a detail",
        why: "An error is read by whoever has to fix the configuration: it names the argument \
              (`barrier_every`, `crash_after`), as the brief asks.",
        reread: "Task",
        signatures: &[bad_input(&[Clue::Anomaly(
            "error does not name the argument",
        )])],
    },
    Card {
        id: "08-commit-the-counter",
        stage: 8,
        title: "A notification commits the checkpoint the counter is at",
        why: "A notification names the checkpoint that completed, commit_lag barriers back; the \
              counter has already moved on to the next barrier's id. Commit the id the \
              notification carries, which the sink has pre-committed.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly(
            "commit of an id never pre-committed",
        )])],
    },
];
