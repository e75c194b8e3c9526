//! Stage 01's cards: sources that do not replay, operators that are not functions of
//! their whole input.

use super::{Card, Clue, Signature, Symptom, between, numbers_after};

/// After a seek, the source yielded exactly the records it was built with: it never moved.
fn seek_did_not_move(s: &Symptom) -> bool {
    let records = between(s.case, "vec![", "]");
    let yielded = between(s.actual, "records = [", "]");
    matches!((records, yielded), (Some(r), Some(y)) if !r.is_empty() && r == y)
}

/// The output holds one record per record of the source, where the chain emits more: the
/// symptom of a stage that passes on one record per input. (A chain that emits one per
/// input, as a `Map` does, cannot show it, whatever else went wrong.)
fn one_per_input(s: &Symptom) -> bool {
    let Some(input) = numbers_after(s.case, "vec!") else {
        return false;
    };
    let output = |text| {
        numbers_after(text, "output fed record by record = ")
            .or_else(|| numbers_after(text, "output = "))
    };
    matches!(
        (output(s.expected), output(s.actual)),
        (Some(want), Some(got)) if want.len() > input.len() && got.len() == input.len()
    )
}

/// A stand-in for the clue, for a card's signature list.
const ONE_PER_INPUT: Clue = Clue::Test(
    one_per_input,
    "one output per input record, where the chain emits more",
);

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "01-functions-are-pure",
        stage: 1,
        title: "An operator's function is pure, so calling it again (or a copy of it) is harmless",
        why: "The functions are `FnMut`: they may keep state, such as a counter, a running \
              total or a cache. An operator calls its function exactly once per record, in \
              record order, and always the same one, as an iterator's `map` and `filter` do.",
        reread: "Task",
        signatures: &[Signature {
            check: "chain",
            fault: "wrong result",
            clues: &[
                Clue::Case("let mut n = 0"),
                Clue::Not(&Clue::Step("in the wrong order")),
            ],
        }],
    },
    Card {
        id: "01-seek-is-a-formality",
        stage: 1,
        title: "A source is just an iterator: seek never really matters",
        why: "The source is what makes a crash survivable: a checkpoint stores position(), and \
              a restarted job seeks there to replay what was lost. A seek that does not move \
              replays everything from the start, so every record before the crash comes out twice.",
        reread: "The invariant",
        signatures: &[Signature {
            check: "seek",
            fault: "wrong result",
            clues: &[
                Clue::Extra(true),
                Clue::Test(
                    seek_did_not_move,
                    "after seek(o > 0) the source yields all its records",
                ),
            ],
        }],
    },
    Card {
        id: "01-offset-is-the-last-read",
        stage: 1,
        title: "An offset names the last record read, so seek(o) resumes after it",
        why: "An offset is the position of the next record to read: seek(o) then poll() yields \
              records[o], and position() after reading k records is k. Landing one further on \
              loses a record at every restart.",
        reread: "The invariant",
        signatures: &[Signature {
            check: "seek",
            fault: "wrong result",
            clues: &[
                Clue::Case("seek("),
                Clue::Expected("records = ["),
                Clue::Missing(true),
                Clue::Extra(false),
            ],
        }],
    },
    Card {
        id: "01-position-counts-polls",
        stage: 1,
        title: "position() counts the records I have polled",
        why: "position() is where the source stands in its records, whatever seeks came \
              before: it is what a checkpoint stores and what a restart seeks back to. A count \
              of polls since the last seek points a restarted job at the wrong record.",
        reread: "Task",
        signatures: &[Signature {
            check: "seek",
            fault: "wrong result",
            clues: &[
                Clue::Case("seek("),
                Clue::Expected("position()"),
                Clue::Step("right after seek("),
                // A count of polls reads 0 right after any seek; another wrong number is
                // another mistake (a position counted from 1).
                Clue::Actual("position() = 0"),
            ],
        }],
    },
    Card {
        id: "01-clamp-past-the-end",
        stage: 1,
        title: "Seeking past the end can just stop at the end",
        why: "An offset past the end can only come from a corrupt or foreign checkpoint. \
              Clamping it hides that and silently replays from the wrong place; the brief asks \
              for an error that names the offset, and the source left where it was.",
        reread: "Task",
        signatures: &[Signature {
            check: "seek-past-end",
            fault: "wrong result",
            // A seek only u64::MAX gets through is an overflowing bound check, not a
            // clamp: a clamp accepts the first offset past the end as well.
            clues: &[
                Clue::Actual("Ok("),
                Clue::Not(&Clue::Case("seek(18446744073709551615)")),
            ],
        }],
    },
    Card {
        id: "01-filter-drops-matches",
        stage: 1,
        title: "Filter's predicate picks the records to throw away",
        why: "Filter keeps exactly the records for which the predicate is true, as \
              Iterator::filter does; the chain must produce what the same functions produce \
              over an iterator.",
        reread: "Task",
        signatures: &[Signature {
            check: "chain",
            fault: "wrong result",
            clues: &[
                Clue::Case("), Filter("),
                Clue::Not(&Clue::Case(".then(")),
                Clue::Expected("output fed record by record"),
                // A wrong predicate keeps other records; the right records in another
                // order are a fault of where they are pushed (01-R7), not of the predicate.
                Clue::Either(&Clue::Missing(true), &Clue::Extra(true)),
            ],
        }],
    },
    Card {
        id: "01-one-in-one-out",
        stage: 1,
        title: "An operator emits one record for each record it is given",
        why: "An operator pushes zero, one or many records per input: FlatMap emits every \
              record its function returns, in order, as Iterator::flat_map does.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "chain",
                fault: "wrong result",
                clues: &[
                    Clue::Case("), FlatMap("),
                    Clue::Not(&Clue::Case(".then(")),
                    Clue::Expected("output fed record by record"),
                    Clue::Missing(true),
                    Clue::Extra(false),
                    ONE_PER_INPUT,
                ],
            },
            // `run` keeps one output per record of a chain that emits several.
            Signature {
                check: "chain",
                fault: "wrong result",
                clues: &[
                    Clue::Expected("output = ["),
                    Clue::Missing(true),
                    Clue::Extra(false),
                    ONE_PER_INPUT,
                ],
            },
        ],
    },
    Card {
        id: "01-chain-passes-one",
        stage: 1,
        title: "A chain hands the next operator one record per input",
        why: "Each record the first operator of a chain emits is a record for the second: when \
              the first emits several, the second must process every one, in order, or the \
              chain is not the composition of its operators.",
        reread: "Task",
        signatures: &[Signature {
            check: "chain",
            fault: "wrong result",
            clues: &[
                Clue::Case(".then("),
                Clue::Expected("output fed record by record"),
                Clue::Missing(true),
                Clue::Extra(false),
                ONE_PER_INPUT,
            ],
        }],
    },
];
