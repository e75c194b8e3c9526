//! Stage 05's cards: windows that fire a step late or twice, state never purged, lateness
//! judged by the wrong rule, and window sums computed as a batch.

use super::{Card, Clue, Signature, Symptom, between};

/// A window did not fire in the very call whose watermark equals its `end - 1`.
fn missed_at_end_minus_one(s: &Symptom) -> bool {
    let watermark = between(s.step, "though W(", ")");
    let last = between(s.step, "its end - 1 = ", " ");
    s.step.contains("did not fire") && matches!((watermark, last), (Some(w), Some(e)) if w == e)
}

/// How many windows a list written `[[a, b), [c, d)]` holds.
fn windows(list: &str) -> usize {
    list.matches(", ").count() / 2 + usize::from(list.contains(|c: char| c.is_ascii_digit()))
}

/// `assign` returned a single window where the timestamp lies in several.
fn one_window_only(s: &Symptom) -> bool {
    let expected = s.expected.split(" = ").nth(1).unwrap_or("");
    let got = s.actual.split(" = ").nth(1).unwrap_or("");
    windows(got) == 1 && windows(expected) > 1
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "05-fires-at-the-end",
        stage: 5,
        title: "A window [start, end) fires when the watermark reaches end",
        why: "W(w) promises that no record at or before w is still to come; a window's last \
              timestamp is end - 1, so it is complete, and fires, as soon as the watermark \
              reaches end - 1. Waiting for W(end) delays every result by a watermark.",
        reread: "Windows, firing and lateness",
        signatures: &[Signature {
            check: "firing",
            fault: "wrong result",
            clues: &[Clue::Test(
                missed_at_end_minus_one,
                "no fire at exactly W(end - 1)",
            )],
        }],
    },
    Card {
        id: "05-firing-keeps-the-window",
        stage: 5,
        title: "Firing a window only means emitting its result",
        why: "Each (key, window) fires once: a fired window must be dropped (or marked), or the \
              next watermark past its end fires it again and its result is counted twice.",
        reread: "Windows, firing and lateness",
        signatures: &[Signature {
            check: "firing",
            fault: "wrong result",
            clues: &[Clue::Step("fired again")],
        }],
    },
    Card {
        id: "05-watermark-only-when-firing",
        stage: 5,
        title: "The watermark only matters when it fires something",
        why: "current_watermark() is the largest watermark seen, whether or not it fired a \
              window: lateness and the snapshot both depend on it, so every watermark moves it.",
        reread: "Task",
        signatures: &[Signature {
            check: "firing",
            fault: "wrong result",
            clues: &[
                Clue::Expected("current_watermark()"),
                // Lost only when it is 0: the watermark is kept, but its first value is
                // compared with `unwrap_or(0)` (a slip no card explains).
                Clue::Not(&Clue::Expected("current_watermark() = Some(0)")),
            ],
        }],
    },
    Card {
        id: "05-late-records-still-count",
        stage: 5,
        title: "A record behind the watermark still belongs in its window",
        why: "Once every window of a record has fired, its result is out: counting the record \
              opens a window that fires again (or never), and the brief returns it as late \
              instead, counted nowhere.",
        reread: "Windows, firing and lateness",
        signatures: &[
            Signature {
                check: "firing",
                fault: "wrong result",
                clues: &[
                    Clue::Step("is late (every window of it had fired)"),
                    // Returned as late and counted all the same. A record not returned as
                    // late reads the same here whether the learner counts late records or
                    // thinks a window that held no record has not fired (the smallest
                    // case's window is always empty): no card tells those apart.
                    Clue::Passes("lateness"),
                ],
            },
            Signature {
                check: "lateness",
                fault: "wrong result",
                clues: &[
                    Clue::Expected("Some("),
                    Clue::Actual("None"),
                    Clue::Step("fired already"),
                    // Windows that fire late make a record look on time too.
                    Clue::Passes("firing"),
                    // Counted somewhere, in a window that never fires: a late record
                    // dropped without a word is another mistake.
                    Clue::Fails("state", &[]),
                ],
            },
        ],
    },
    Card {
        id: "05-late-by-timestamp",
        stage: 5,
        title: "A record behind the watermark is late, as in stage 04",
        why: "For windows, a record is late only when all its windows have fired: a record \
              behind the watermark whose window has not fired yet still counts there.",
        reread: "Windows, firing and lateness",
        signatures: &[Signature {
            check: "lateness",
            fault: "wrong result",
            clues: &[
                Clue::Expected("None"),
                Clue::Step("have not fired yet"),
                // With one of its windows fired, "late once any window fired" reads the
                // same: only a record none of whose windows fired tells the timestamp rule.
                Clue::Not(&Clue::Step("fired already; ")),
                // At the top of time a wrapped window end turns the record away too: the
                // streams there say nothing of the timestamp rule that small ones do not.
                Clue::Not(&Clue::Case("@MAX-")),
            ],
        }],
    },
    Card {
        id: "05-fired-state-is-kept",
        stage: 5,
        title: "A fired window can stay in the state, marked as fired",
        why: "The state holds open (window, key) aggregates only: fired ones must go, or the \
              state grows forever on an endless stream, and after the last watermark nothing \
              may be left.",
        reread: "Windows, firing and lateness",
        signatures: &[Signature {
            check: "state",
            fault: "wrong result",
            clues: &[Clue::Step("nothing may be left")],
        }],
    },
    Card {
        id: "05-watermark-is-not-state",
        stage: 5,
        title: "The snapshot needs the open windows only: the next watermark brings the rest back",
        why: "Lateness depends on the current watermark: a restored operator that lost it takes \
              a late record for an on-time one, and fires a window a second time.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "crash",
                fault: "wrong result",
                clues: &[Clue::Actual("Late("), Clue::Step("not in its snapshot")],
            },
            Signature {
                check: "crash",
                fault: "wrong result",
                clues: &[
                    Clue::Actual("current_watermark() = None"),
                    Clue::Step("not in its snapshot"),
                    // A watermark lost only when it is 0 was snapshotted, as a number that
                    // reads 0 as "none".
                    Clue::Not(&Clue::Expected("current_watermark() = Some(0)")),
                ],
            },
        ],
    },
    Card {
        id: "05-one-window-per-record",
        stage: 5,
        title: "Each record belongs to one window",
        why: "Sliding windows overlap: a timestamp lies in several windows (size / slide of \
              them when the slide divides the size), and assign returns every one, so that \
              each window's sum sees the record.",
        reread: "Task",
        signatures: &[Signature {
            check: "assign",
            fault: "wrong result",
            clues: &[Clue::Test(
                one_window_only,
                "a single window where several hold ts",
            )],
        }],
    },
    Card {
        id: "05-sums-are-a-group-by",
        stage: 5,
        title: "Window sums are a group-by over key and window",
        why: "A window result is emitted when the watermark fires it, from the records that \
              arrived on time: a group-by over the whole input counts late records too, and \
              knows nothing of firing order.",
        reread: "Task",
        signatures: &[Signature {
            check: "window-sums",
            fault: "wrong result",
            clues: &[
                Clue::Expected("fired results"),
                Clue::Extra(true),
                // An operator that fires right: only the batch shortcut is left to blame.
                Clue::Passes("firing"),
                Clue::Passes("lateness"),
            ],
        }],
    },
    Card {
        id: "05-any-slide-works",
        stage: 5,
        title: "A slide larger than the size just leaves gaps between windows",
        why: "With slide > size, a record between two windows belongs to none and vanishes from \
              every sum: the brief makes it a configuration error that names `slide`.",
        reread: "Task",
        signatures: &[Signature {
            check: "errors",
            fault: "wrong result",
            clues: &[Clue::Expected("naming `slide`"), Clue::Actual("Ok(")],
        }],
    },
];
