//! Stage 08's cards at the edges of the job: a first checkpoint before any record,
//! records held back until the barrier, a clean finish out of order, a crash after the
//! last record refused, a result from the fresh sink alone, an output sorted by id,
//! checkpoint ids from 0, a replay sink made up front, a replay before the aborts, an
//! empty open transaction left unaborted, an output rebuilt from the records, a replay
//! offset counted from what a sink shows, and the dead job's notifications delivered.

use super::{Card, Clue, Signature, Symptom, between, numbers_after};

/// A failure of the two-phase protocol between the job and the grader's spy sink.
const fn protocol(clues: &'static [Clue]) -> Signature {
    Signature {
        check: "protocol",
        fault: "wrong result",
        clues,
    }
}

/// A failure of the `contract` check's runs with sinks that already show rows from
/// before the job.
const fn shown_before(clues: &'static [Clue]) -> Signature {
    Signature {
        check: "contract",
        fault: "wrong result",
        clues,
    }
}

/// The job returned a proper suffix of what the sinks made visible: the fresh sink's
/// output, without the first sink's.
fn fresh_sink_only(s: &Symptom) -> bool {
    let returned = numbers_after(s.step, "returned ");
    let visible =
        between(s.step, "but the sinks made ", " visible").and_then(|list| numbers_after(list, ""));
    matches!(
        (returned, visible),
        (Some(r), Some(v)) if r.len() < v.len() && v.ends_with(&r)
    )
}

/// The matrix of the failing case shows the extra sink in the runs without a crash only:
/// with a crash the job made the two sinks it needs (a sink made up front, not a sink
/// made for nothing, as a probe is).
fn extra_sink_only_without_a_crash(s: &Symptom) -> bool {
    s.step
        .lines()
        .map(str::trim_start)
        .filter(|row| row.starts_with("after "))
        .all(|row| !row.contains("XSINK"))
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "08-checkpoint-at-the-start",
        stage: 8,
        title: "A job starts with a checkpoint at offset 0",
        why: "Barriers follow every barrier_every records: checkpoint 1 is taken after record \
              barrier_every, and no barrier falls before the first record. A pre-commit there \
              is a checkpoint the protocol does not have, and shifts every id after it.",
        reread: "Task",
        signatures: &[protocol(&[
            Clue::Anomaly("pre-commit off a barrier"),
            Clue::Step("after record 0,"),
        ])],
    },
    Card {
        id: "08-write-at-the-barrier",
        stage: 8,
        title: "The job can hold records back and write them at the barrier",
        why: "The sink's open transaction is already the buffer nobody reads before a commit: \
              the job writes each record into it as it comes. Held in the job, the records \
              since the last barrier are job memory, gone at a crash before the sink ever saw \
              them, and recovery has no open transaction of theirs to abort.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly("records never written")])],
    },
    Card {
        id: "08-finish-in-any-order",
        stage: 8,
        title: "At the clean finish, the pending checkpoints can commit in any order",
        why: "The clean finish commits every pending checkpoint oldest first, as notifications \
              do: each commit appends to the visible output, which must read as the input in \
              order, a prefix growing at every commit.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly("finished out of order")])],
    },
    Card {
        id: "08-crash-after-the-last-is-past-the-end",
        stage: 8,
        title: "A crash after the last record is past the end of the input",
        why: "crash_after = k counts the records done before the crash: k = records.len() is a \
              crash after the last record, before the clean finish, and a valid run. Only a k \
              above the number of records is an error.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly("crash at the end refused")])],
    },
    Card {
        id: "08-result-is-the-replay",
        stage: 8,
        title: "After a crash, the job's result is what the fresh sink made visible",
        why: "What the first sink committed before the crash was seen by the outside world and \
              stays visible: the result is the first sink's committed() at the crash, followed \
              by what the fresh sink made visible.",
        reread: "Task",
        signatures: &[protocol(&[
            Clue::Anomaly("result not from the sinks"),
            Clue::Test(fresh_sink_only, "the fresh sink's output only"),
        ])],
    },
    Card {
        id: "08-output-in-id-order",
        stage: 8,
        title: "The visible output is ordered by checkpoint id",
        why: "committed() is the output as the outside world saw it appear: in commit order. A \
              commit of an older id after a newer one appends after it; sorting by id would \
              rewrite what consumers have already read.",
        reread: "Task",
        signatures: &[Signature {
            check: "sink-model",
            fault: "wrong result",
            clues: &[Clue::Step(
                "the visible records are in the wrong order: commit appends in commit order",
            )],
        }],
    },
    Card {
        id: "08-ids-from-zero",
        stage: 8,
        title: "Checkpoint ids count from 0, like offsets",
        why: "Offsets count records from 0, but checkpoint ids count the checkpoints taken: \
              the first barrier takes checkpoint 1, the next 2, and so on. Numbered from 0, \
              every transaction is pre-committed and committed under an id one short of the \
              brief's, which the external system reads as another checkpoint.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly(
            "checkpoint ids do not count from 1",
        )])],
    },
    Card {
        id: "08-fresh-sink-up-front",
        stage: 8,
        title: "The replay's sink can be made at the start, ready for a crash",
        why: "new_sink() opens a sink on the external system, which holds it until it is \
              aborted: the job makes one at the start and a second only after a crash, which \
              a real job cannot foresee (crash_after only stands in for one). A run without \
              a crash uses one sink, and a run with one makes its second sink after the \
              crash.",
        reread: "Constraints",
        signatures: &[
            protocol(&[
                Clue::Anomaly("extra sink"),
                Clue::Step("in a run without a crash"),
                Clue::Test(
                    extra_sink_only_without_a_crash,
                    "two sinks with a crash, as needed",
                ),
            ]),
            protocol(&[Clue::Anomaly("fresh sink made before the crash")]),
        ],
    },
    Card {
        id: "08-aborts-can-wait",
        stage: 8,
        title: "The dead sink's transactions can be aborted after the replay",
        why: "Until it is aborted, each open or prepared transaction of the dead sink holds a \
              connection, and its locks, in the external system: a replay that writes the \
              same rows first waits on those locks, or deadlocks, and so may the fresh \
              sink's own connection. Recovery aborts what the dead sink holds, and only \
              then makes the fresh sink and replays into it.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly("replay before the aborts")])],
    },
    Card {
        id: "08-output-is-the-input",
        stage: 8,
        title: "Exactly once means the output is the input, so the job can return the records",
        why: "The output is what the external system shows, read back with committed(), \
              not what the job believes it wrote: a table is rarely empty when a job starts, \
              and only a commit makes a row visible. The job returns the first sink's \
              committed() at the crash, then the fresh sink's, rows from before the job \
              included.",
        reread: "Task",
        signatures: &[shown_before(&[
            Clue::Anomaly("result not from the sinks"),
            Clue::Step("already showed rows from before the job"),
        ])],
    },
    Card {
        id: "08-resume-after-what-the-sink-shows",
        stage: 8,
        title: "The replay resumes after the rows the sink shows",
        why: "committed() shows every row the external system holds, including rows that \
              were there before the job and rows other writers commit while it runs; its \
              length is no source offset, and neither is what it gained since the job \
              began. The restart point is the offset the last notified checkpoint recorded \
              when its barrier passed (0 if none).",
        reread: "Task",
        signatures: &[shown_before(&[
            Clue::Anomaly("replay from the wrong offset"),
            Clue::Step("already showed rows from before the job"),
        ])],
    },
    Card {
        id: "08-owed-notifications-survive-the-crash",
        stage: 8,
        title: "The notifications the dead job still owed are delivered after recovery",
        why: "The pending queue dies with the job. Recovery aborts the checkpoints it held, \
              and their records are replayed under new ids; a notification for one of them \
              asks a sink to commit a transaction that was aborted, which a real system \
              refuses (or, holding the same id for something else, commits the wrong data). \
              The replay starts with nothing pending.",
        reread: "Task",
        signatures: &[protocol(&[Clue::Anomaly("aborted checkpoint notified")])],
    },
    Card {
        id: "08-an-empty-transaction-needs-no-abort",
        stage: 8,
        title: "An open transaction with no record in it needs no abort",
        why: "An external system holds a connection, and its locks, for every open \
              transaction until it is aborted, whether or not anything was written into it: \
              recovery calls abort_open() on the dead sink every time, then aborts each of \
              its prepared transactions that was never notified.",
        reread: "Task",
        // A job that skips the abort of an empty open transaction fails first on the empty
        // input, where nothing was prepared either; so does one that aborts nothing at
        // all, whose belief this card's reason names too. Aborts sent to the fresh sink
        // are another mistake, where the abort went rather than whether.
        signatures: &[protocol(&[
            Clue::Anomaly("not aborted"),
            Clue::Extra(false),
            Clue::Not(&Clue::Step("was prepared but never notified")),
            Clue::Not(&Clue::Step("on the fresh sink")),
        ])],
    },
];
