//! Stage 04's cards for the contract's edges: records sorted by event time, input
//! indexes trusted, 0 taken for "no watermark", the combined watermark left out of a
//! snapshot, unreadable bytes taken for a fresh instance.

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
            clues: &[Clue::Actual("panicked")],
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
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Expected("Some(0)"), Clue::Actual("Ok(None)")],
        }],
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
];
