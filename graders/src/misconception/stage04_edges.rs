//! Stage 04's cards for the contract's edges: records sorted by event time, input
//! indexes trusted, 0 taken for "no watermark", the combined watermark left out of a
//! snapshot, unreadable bytes taken for a fresh instance, a snapshot's missing fields
//! taken for their defaults, a refused call that changed the state first.

use super::{Card, Clue, Signature};

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "04-records-sorted-by-event-time",
        stage: 4,
        title: "A stream with watermarks comes in event-time order",
        why: "Event time is what the records say, not the order they come in: with_watermarks \
              keeps the arrival order, out of order as it is, and only adds watermarks. Sorting \
              the records hides exactly the disorder the watermarks are there to bound.",
        reread: "Task",
        signatures: &[Signature {
            check: "with-watermarks",
            fault: "wrong result",
            clues: &[Clue::Step("must come out in arrival order")],
        }],
    },
    Card {
        id: "04-inputs-are-trusted",
        stage: 4,
        title: "Every input index a caller passes exists",
        why: "An input index comes from the caller's wiring, and wiring is wrong sometimes: an \
              index that does not exist is an error naming the input, never an index out of \
              bounds that takes the operator down.",
        reread: "Task",
        signatures: &[Signature {
            check: "errors",
            fault: "wrong result",
            clues: &[
                Clue::Actual("panicked"),
                // An index checked with an overflowing `input + 1` was not trusted: the
                // check itself is the slip.
                Clue::Not(&Clue::Actual("overflow")),
            ],
        }],
    },
    Card {
        id: "04-zero-is-no-watermark",
        stage: 4,
        title: "No watermark yet is the same as watermark 0",
        why: "Watermark 0 is a promise (no record at 0 follows); no watermark is none. Starting \
              the combined watermark at 0 means a real combined watermark of 0 never counts as \
              an advance, and current() cannot tell the two apart: keep an Option.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "contract",
                fault: "wrong result",
                clues: &[Clue::Expected("Some(0)"), Clue::Actual("Ok(None)")],
            },
            // A first watermark of 0 never emitted: "nothing emitted yet" kept as 0.
            Signature {
                check: "with-watermarks",
                fault: "wrong result",
                clues: &[Clue::Step(", expected W(0)")],
            },
            // A record at 0 before any watermark called late: lateness judged from 0.
            Signature {
                check: "lateness",
                fault: "wrong result",
                clues: &[
                    Clue::Step("no watermark came before it"),
                    Clue::Step("(ts 0,"),
                    Clue::Actual("late [(0,"),
                ],
            },
        ],
    },
    Card {
        id: "04-combined-is-derived",
        stage: 4,
        title: "The combined watermark can be recomputed from the inputs' after a restore",
        why: "The minimum of the inputs' watermarks is derived, but whether it was already \
              reported is not: a restored combiner that forgot it reports the same combined \
              watermark a second time. The snapshot holds the combined watermark reported last.",
        reread: "Task",
        signatures: &[Signature {
            check: "crash",
            fault: "wrong result",
            clues: &[
                Clue::Case("combiner snapshotted"),
                Clue::Step("not in its snapshot"),
            ],
        }],
    },
    Card {
        id: "04-unreadable-snapshot-is-fresh",
        stage: 4,
        title: "Bytes that do not read as a snapshot are a fresh instance",
        why: "A restore that cannot read its bytes must fail: starting fresh forgets every \
              promise made before the crash, and the watermark goes back.",
        reread: "Task",
        signatures: &[Signature {
            check: "errors",
            fault: "wrong result",
            clues: &[Clue::Case("not a snapshot"), Clue::Actual("Ok(")],
        }],
    },
    Card {
        id: "04-missing-fields-take-defaults",
        stage: 4,
        title: "A snapshot missing its fields still restores: each field takes its default",
        why: "`{}`, `[]` and `null` are bytes no generator or combiner wrote: a missing field \
              is no fresh value but a sign that the bytes are not a snapshot. Defaults make an \
              instance nobody had (a generator with max_delay 0, a combiner of no inputs) that \
              promises what the original never did; restore of bytes that are not a snapshot \
              is an error.",
        reread: "Task",
        signatures: &[Signature {
            check: "errors",
            fault: "wrong result",
            clues: &[
                Clue::Either(
                    &Clue::Case("restore(b\"{}\")"),
                    &Clue::Either(
                        &Clue::Case("restore(b\"[]\")"),
                        &Clue::Case("restore(b\"null\")"),
                    ),
                ),
                Clue::Actual("Ok("),
            ],
        }],
    },
    Card {
        id: "04-an-error-after-the-work",
        stage: 4,
        title: "A refused call only has to return its error; what it changed first can stay",
        why: "Whoever gets an error assumes nothing happened: on_watermark for an input that \
              does not exist changes nothing, or what it changed before refusing (a count of \
              silent inputs, a watermark) makes a later call answer for an input that never \
              reported. Check the input first, then change the state.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Step("a refused call changes nothing")],
        }],
    },
    Card {
        id: "04-any-error-will-do",
        stage: 4,
        title: "Refusing a bad call is enough; the message is a detail",
        why: "An error is read by whoever has to fix the call: the message names the argument \
              the brief asks for (`inputs` for `new(0)`, `input` for an input that does not \
              exist), not only the bad value.",
        reread: "Task",
        signatures: &[Signature {
            check: "errors",
            fault: "wrong result",
            clues: &[Clue::Step("the error does not say which argument is wrong")],
        }],
    },
];
