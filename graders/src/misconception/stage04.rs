//! Stage 04's cards: watermarks that promise too much or too little, lateness off by one,
//! and combiners that trust the fastest input.

use super::{Card, Clue, Signature, Symptom, between};

/// The record judged late had a timestamp equal to the watermark before it.
fn late_at_the_watermark(s: &Symptom) -> bool {
    let Some(rest) = s.step.rsplit(" and ").next() else {
        return false;
    };
    match rest.split_once(" <= ") {
        Some((ts, wm)) => ts.trim() == wm.trim(),
        None => false,
    }
}

/// The watermark is one more than the formula's: `max_ts - max_delay`, the `- 1` left out.
fn one_past_the_formula(s: &Symptom) -> bool {
    let got: Option<u64> =
        between(s.step, "current_watermark() is Some(", ")").and_then(|n| n.parse().ok());
    let want: Option<u64> = s
        .step
        .rsplit(" - 1 = ")
        .next()
        .filter(|_| s.step.contains(" - 1 = "))
        .and_then(|n| n.trim().parse().ok());
    matches!((got, want), (Some(g), Some(w)) if g == w + 1)
}

/// The combiner reported more than the minimum of its inputs' watermarks.
fn above_the_minimum(s: &Symptom) -> bool {
    let got: Option<u64> = between(s.step, "returned Some(", ")").and_then(|n| n.parse().ok());
    let expected: Option<u64> = between(s.step, "expected Some(", ")").and_then(|n| n.parse().ok());
    s.step.contains("minimum") && matches!((got, expected), (Some(g), Some(e)) if g > e)
}

/// The combined watermark came out below the minimum of the inputs' largest watermarks.
fn below_the_minimum(s: &Symptom) -> bool {
    let got: Option<u64> = between(s.step, "returned Some(", ")").and_then(|n| n.parse().ok());
    let expected: Option<u64> = between(s.step, "expected Some(", ")").and_then(|n| n.parse().ok());
    s.step.contains("minimum") && matches!((got, expected), (Some(g), Some(e)) if g < e)
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "04-watermark-from-max-minus-delay",
        stage: 4,
        title: "The watermark is max_ts - max_delay, and 0 near the start",
        why: "W(w) promises that no record at or before w is still to come. A record up to \
              max_delay behind max_ts may still arrive, so the promise reaches only \
              max_ts - max_delay - 1; while max_ts <= max_delay there is no such timestamp, and \
              the watermark is None, not W(0).",
        reread: "Task",
        signatures: &[
            Signature {
                check: "generator",
                fault: "wrong result",
                clues: &[Clue::Step("must be None"), Clue::Step("<= max_delay")],
            },
            Signature {
                check: "generator",
                fault: "wrong result",
                clues: &[Clue::Test(
                    one_past_the_formula,
                    "the watermark is max_ts - max_delay",
                )],
            },
        ],
    },
    Card {
        id: "04-snapshot-without-progress",
        stage: 4,
        title: "After a restore the generator can rebuild its progress from the next records",
        why: "A restored generator must say what the uninterrupted one says, at once: the largest \
              timestamp seen so far is state, and belongs in the snapshot, or the watermark \
              falls back (or vanishes) after every restart.",
        reread: "Task",
        signatures: &[Signature {
            check: "crash",
            fault: "wrong result",
            clues: &[
                Clue::Case("generator snapshotted"),
                Clue::Step("not in its snapshot"),
            ],
        }],
    },
    Card {
        id: "04-watermark-after-every-record",
        stage: 4,
        title: "The stream carries the current watermark after every record",
        why: "A watermark is news only when it advances: a repeated or a lower one tells the \
              operators downstream nothing, and the brief emits one exactly when it advanced.",
        reread: "Task",
        signatures: &[Signature {
            check: "with-watermarks",
            fault: "wrong result",
            clues: &[Clue::Step("the last watermark emitted was")],
        }],
    },
    Card {
        id: "04-watermarks-from-the-whole-input",
        stage: 4,
        title: "The watermarks can be worked out once the whole input is known",
        why: "A stream never ends: a watermark must follow the record that advanced it, right \
              away, since downstream windows fire on it. Holding it back until the input is \
              known delays every result (and, for an endless stream, forever).",
        reread: "Task",
        signatures: &[Signature {
            check: "with-watermarks",
            fault: "wrong result",
            clues: &[
                Clue::Step(", expected W("),
                // A watermark held back to the end of the input still follows the last
                // record: a first W(0) missing mid-stream is 0 taken for no watermark.
                Clue::Not(&Clue::Step(", expected W(0)")),
            ],
        }],
    },
    Card {
        id: "04-late-means-strictly-behind",
        stage: 4,
        title: "A record exactly at the watermark is still on time",
        why: "W(w) promised that no record at or before w would come: a record with timestamp w \
              after W(w) breaks that promise just as one before w does, so it is late.",
        reread: "Task",
        signatures: &[Signature {
            check: "lateness",
            fault: "wrong result",
            clues: &[
                Clue::Step("must be late"),
                Clue::Test(
                    late_at_the_watermark,
                    "the record's timestamp is the watermark",
                ),
            ],
        }],
    },
    Card {
        id: "04-fastest-input-wins",
        stage: 4,
        title: "An operator with several inputs is as far on as its fastest input",
        why: "Records may still come on the slowest input up to its own watermark: the combined \
              watermark is the minimum over the inputs, or a window fires before the slow \
              input's records arrive.",
        reread: "Task",
        signatures: &[Signature {
            check: "combiner",
            fault: "wrong result",
            clues: &[Clue::Test(
                above_the_minimum,
                "reports more than the minimum",
            )],
        }],
    },
    Card {
        id: "04-silent-inputs-do-not-count",
        stage: 4,
        title: "An input that has not reported yet has nothing to say",
        why: "An input that has not reported may still send records at any timestamp: until \
              every input has reported, there is no combined watermark at all.",
        reread: "Task",
        signatures: &[Signature {
            check: "combiner",
            fault: "wrong result",
            clues: &[Clue::Step("have not reported yet")],
        }],
    },
    Card {
        id: "04-current-kept-apart",
        stage: 4,
        title: "current() can keep its own copy of the combined watermark",
        why: "current() is the combined watermark last reported by on_watermark: kept in two \
              places, the copies drift apart, and an operator asking current() gets a watermark \
              nobody emitted.",
        reread: "Task",
        signatures: &[Signature {
            check: "combiner",
            fault: "wrong result",
            clues: &[Clue::Expected("current()")],
        }],
    },
    Card {
        id: "04-zero-inputs-are-harmless",
        stage: 4,
        title: "An operator with no inputs is harmless",
        why: "The minimum over no inputs does not exist: an operator of 0 inputs could never \
              report a watermark, and is a configuration error that names `inputs`.",
        reread: "Task",
        signatures: &[Signature {
            check: "errors",
            fault: "wrong result",
            clues: &[Clue::Case("new(0)"), Clue::Actual("Ok(")],
        }],
    },
    Card {
        id: "04-delay-arithmetic-cannot-overflow",
        stage: 4,
        title: "Timestamps never come near u64::MAX, so max_ts - max_delay - 1 needs no care",
        why: "Timestamps and max_delay are any u64 the caller gives. max_delay + 1, or max_ts + 1, \
              overflows at the edge: compare max_ts with max_delay first, then subtract, as the \
              brief's formula says (None while max_ts <= max_delay).",
        reread: "Constraints",
        signatures: &[
            Signature {
                check: "generator",
                fault: "wrong result",
                clues: &[Clue::Step("overflow")],
            },
            Signature {
                check: "lateness",
                fault: "wrong result",
                clues: &[Clue::Step("overflow")],
            },
        ],
    },
    Card {
        id: "04-an-input-is-where-it-last-said",
        stage: 4,
        title: "An input's watermark is whatever it reported last",
        why: "A watermark is a promise that never goes back: an input that reports a lower \
              watermark than before has not taken its promise back. The combiner keeps the \
              largest watermark each input reported, or the combined watermark goes back too.",
        reread: "Task",
        signatures: &[Signature {
            check: "combiner",
            fault: "wrong result",
            clues: &[Clue::Test(
                below_the_minimum,
                "reports less than the minimum",
            )],
        }],
    },
];
