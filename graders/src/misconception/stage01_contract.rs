//! Stage 01's cards for the contract's edges: going back, the end, refused seeks and
//! their errors, what `out` holds, what a chain keeps and where `run` starts.

use super::{Card, Clue, Signature, Symptom, between, numbers_after};

/// `seek(n)` was refused on a source of exactly `n` records: the end taken for past it.
fn end_refused(s: &Symptom) -> bool {
    let offset = between(s.step, "seek(", ") failed on a source of ");
    let len = between(s.step, ") failed on a source of ", " records");
    matches!((offset, len), (Some(o), Some(n)) if o == n)
}

/// A seek within the source was refused after an earlier seek of the same calls: the
/// earlier refusal left the source refusing.
fn refused_after_a_refusal(s: &Symptom) -> bool {
    let call: Option<u64> = between(s.step, "call ", " (seek(").and_then(|c| c.parse().ok());
    call.is_some_and(|c| c > 1)
        && s.expected.starts_with("Sought(Ok(")
        && s.actual.starts_with("Sought(Err(")
        && s.case.matches("seek(").count() >= 2
}

/// The failing call is a `seek` back to an offset before the position it was called at.
fn seeks_back(s: &Symptom) -> bool {
    let offset: Option<u64> = between(s.step, "(seek(", "))").and_then(|o| o.parse().ok());
    let position: Option<u64> =
        between(s.step, "position() was ", " before").and_then(|p| p.parse().ok());
    matches!((offset, position), (Some(o), Some(p)) if o < p)
}

/// The source holds two records or more: a buffer kept from one call to the next needs
/// a next call to show.
fn several_inputs(s: &Symptom) -> bool {
    numbers_after(s.case, "vec!").is_some_and(|r| r.len() >= 2)
}

/// position() at the end is past the length: polls that found nothing moved it on.
fn moved_past_the_end(s: &Symptom) -> bool {
    let at = |text: &str| -> Option<u64> { between(text, "position() = ", " ")?.parse().ok() };
    let got: Option<u64> = s
        .actual
        .strip_prefix("position() = ")
        .and_then(|p| p.parse().ok());
    matches!((at(s.expected), got), (Some(len), Some(p)) if p > len)
}

/// `out` no longer holds what it held before the call: it was replaced, not prepended to.
fn out_replaced(s: &Symptom) -> bool {
    match (
        between(s.case, "out = vec![", "]"),
        between(s.actual, "out = [", "]"),
    ) {
        (Some(held), Some(got)) => !held.is_empty() && !got.contains(held),
        _ => false,
    }
}

/// One signature of `check` with `clues`.
const fn on(check: &'static str, clues: &'static [Clue]) -> Signature {
    Signature {
        check,
        fault: "wrong result",
        clues,
    }
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "01-poll-reads-the-newest",
        stage: 1,
        title: "poll hands out the newest record first, as a stack does",
        why: "A source is a log read in order: the record at offset o is records[o], and \
              poll returns the one at position() and moves on. Read from the back, a replay \
              from a checkpoint yields other records than the first run did.",
        reread: "Task",
        signatures: &[
            on("seek", &[Clue::Step("wrong order")]),
            on(
                "contract",
                &[
                    Clue::Step("(poll()): position() was"),
                    Clue::Expected("Polled(Some("),
                    Clue::Actual("Polled(Some("),
                ],
            ),
        ],
    },
    Card {
        id: "01-seek-only-forward",
        stage: 1,
        title: "A source reads forward like a stream: seek may skip ahead, not go back",
        why: "Going back is the whole point of a replayable source: after a crash, the job \
              seeks back to the position its checkpoint stored and reads those records again. \
              seek moves anywhere from 0 to len, whatever was read before.",
        reread: "Task",
        signatures: &[on(
            "contract",
            &[Clue::Test(
                seeks_back,
                "a seek back is refused or lands elsewhere",
            )],
        )],
    },
    Card {
        id: "01-any-error-will-do",
        stage: 1,
        title: "An error only has to say that something went wrong",
        why: "A seek past the end comes from a corrupt or foreign checkpoint; the offset in the \
              message is what lets whoever reads it find which. The brief asks for an error \
              that names the offset.",
        reread: "Task",
        signatures: &[
            on("seek-past-end", &[Clue::Step("does not name the offset")]),
            on("contract", &[Clue::Step("does not name the offset")]),
        ],
    },
    Card {
        id: "01-indexing-checks-the-bound",
        stage: 1,
        title: "Indexing checks the bound for me: out of range panics anyway",
        why: "A panic takes the whole job down where an error lets the caller decide: a seek \
              past the end must return an error value, even for u64::MAX. Compare the offset \
              with the length before using it.",
        reread: "Constraints",
        signatures: &[
            on("seek-past-end", &[Clue::Actual("panicked:")]),
            on("contract", &[Clue::Actual("panicked:")]),
        ],
    },
    Card {
        id: "01-refused-seek-may-move",
        stage: 1,
        title: "Once seek has failed, where the source stands no longer matters",
        why: "A refused seek is an error the caller can recover from: it must leave the source \
              exactly where it was, position() and next record alike. Check the offset before \
              moving anything.",
        reread: "The invariant",
        signatures: &[on(
            "seek-past-end",
            &[Clue::Step("a failed seek moved the source")],
        )],
    },
    Card {
        id: "01-every-poll-moves-on",
        stage: 1,
        title: "Every poll moves the source on, even one that finds nothing",
        why: "At the end there is no record to move past: poll returns None and moves nothing, \
              so position() stays the length, which is what a checkpoint of a drained source \
              must store.",
        reread: "The invariant",
        signatures: &[on(
            "seek",
            &[
                Clue::Step("after the last record is not the length"),
                Clue::Test(
                    moved_past_the_end,
                    "position() at the end is past the length",
                ),
            ],
        )],
    },
    Card {
        id: "01-out-starts-empty",
        stage: 1,
        title: "out is the operator's to fill, so it starts empty",
        why: "An operator pushes its records onto whatever out already holds: a chain or a \
              run hands the same buffer to many calls, and replacing it loses every record \
              emitted before.",
        reread: "Task",
        signatures: &[on(
            "process",
            &[
                Clue::Step("no longer starts with it"),
                Clue::Test(out_replaced, "out no longer holds what it held"),
            ],
        )],
    },
    Card {
        id: "01-chain-buffer-is-kept",
        stage: 1,
        title: "A chain's buffer can live in the chain and serve every record",
        why: "Each record's intermediate outputs belong to that record alone: a buffer kept \
              from one call to the next sends the earlier records' outputs through the second \
              operator again.",
        reread: "The invariant",
        signatures: &[on(
            "chain",
            &[
                Clue::Case(".then("),
                Clue::Expected("output fed record by record"),
                Clue::Extra(true),
                Clue::Test(several_inputs, "the source holds two records or more"),
            ],
        )],
    },
    Card {
        id: "01-run-reads-from-the-start",
        stage: 1,
        title: "run reads a source from its beginning",
        why: "run reads from the source's current position: that is how a recovering job \
              resumes, by seeking to its checkpoint and running. Rewinding first replays \
              everything before the crash.",
        reread: "Task",
        signatures: &[on(
            "crash",
            &[
                Clue::Case("crash after"),
                Clue::Extra(true),
                Clue::Missing(false),
                Clue::Passes("chain"),
            ],
        )],
    },
    Card {
        id: "01-end-is-no-offset",
        stage: 1,
        title: "The end of the source is no record, so seek(len) is past it",
        why: "An offset is a position between records: 0 is before the first, len after the \
              last. seek(len) is valid, the end of the source, where a replay of nothing \
              resumes; only an offset beyond len is refused.",
        reread: "Task",
        signatures: &[Signature {
            check: "seek",
            fault: "wrong result",
            clues: &[Clue::Test(end_refused, "seek(len) refused")],
        }],
    },
    Card {
        id: "01-failed-source-stays-failed",
        stage: 1,
        title: "Once a seek has failed, the source is broken for good",
        why: "A refused seek changes nothing: the source is where it was and answers every \
              later call as if the refused one never happened, so a caller that asked for a \
              wrong offset can seek again.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Test(
                refused_after_a_refusal,
                "a valid seek refused after a refused one",
            )],
        }],
    },
];
