//! Stage 02's cards: state shared across keys, state that is never stored back or never
//! cleared, snapshots that are not restored, and word counts that are not running.

use super::{Card, Clue, Signature, Symptom, between};

/// Whether the key the first wrong step names had a record before the one it names.
fn key_seen_before(s: &Symptom) -> Option<bool> {
    let key = between(s.step, "for key \"", "\"")?;
    let record: usize = between(s.step, "record ", " ")?.parse().ok()?;
    let records = between(s.case, "= [", "]")?;
    Some(
        records
            .split("), (")
            .take(record)
            .any(|r| r.trim_start_matches('(').starts_with(&format!("\"{key}\""))),
    )
}

/// The function saw state for a key that had none, left by its own earlier records.
fn sees_state_of_a_first_record(s: &Symptom) -> bool {
    s.step.contains("saw state Some") && key_seen_before(s) == Some(false)
}

/// The function saw state for a key whose own earlier records cleared it.
fn sees_cleared_state(s: &Symptom) -> bool {
    s.step.contains("saw state Some")
        && s.step.contains("leave None")
        && key_seen_before(s) == Some(true)
}

/// A word's first occurrence was already counted more than once.
fn count_ahead(s: &Symptom) -> bool {
    let count = |text: &str| -> Option<(String, u64)> {
        let word = between(text, "(\"", "\", ")?.to_owned();
        let n = between(text, "\", ", ")")?.parse().ok()?;
        Some((word, n))
    };
    let Some((got, expected)) = s.step.split_once(", expected ") else {
        return false;
    };
    let Some(got) = got.split(" is ").nth(1) else {
        return false;
    };
    matches!(
        (count(got), count(expected)),
        (Some((w1, n1)), Some((w2, n2)))
            if w1 == w2 && n1 > n2 && occurrences(s.case, &w1) >= n1
    )
}

/// How often `word`, as the step writes it, is written in the lines of the smallest case
/// (a substring count, which can only overcount). A total counts the word's own
/// occurrences, later ones too; a count above them came from other words (`To` counted
/// with `to`), not from the end of the input.
fn occurrences(case: &str, word: &str) -> u64 {
    let lines = case.split_once("&[").map_or(case, |(_, lines)| lines);
    lines.matches(word).count() as u64
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "02-one-state-for-all-keys",
        stage: 2,
        title: "The function's state can live in one field of the operator",
        why: "Keyed state is one slot per key: a record sees only what its own key's earlier \
              records left. One field shared by all keys hands a key the state of whichever \
              key came before it.",
        reread: "The invariant",
        signatures: &[Signature {
            check: "isolation",
            fault: "wrong result",
            clues: &[Clue::Test(
                sees_state_of_a_first_record,
                "a key's first record sees state",
            )],
        }],
    },
    Card {
        id: "02-state-is-updated-in-place",
        stage: 2,
        title: "Changing the state I was lent changes the stored state",
        why: "What the function leaves in the slot must be written back under the key: a copy \
              taken from the state and updated is forgotten after the call, so the key's next \
              record sees nothing.",
        reread: "The invariant",
        signatures: &[
            Signature {
                check: "isolation",
                fault: "wrong result",
                clues: &[Clue::Step("saw state None"), Clue::Expected("seen: Some")],
            },
            Signature {
                check: "final-state",
                fault: "wrong result",
                clues: &[
                    Clue::Step("lost its state"),
                    Clue::Not(&Clue::Case("restore")),
                ],
            },
        ],
    },
    Card {
        id: "02-empty-is-none",
        stage: 2,
        title: "An empty or zero state is the same as no state",
        why: "Only None deletes a key. A count of 0 or an empty list is a value the function \
              (or an update) chose to leave: it stays in the state, the next record of the key \
              is lent it, and a snapshot keeps it. Dropping it makes the key look never seen.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "keyed-state",
                fault: "wrong result",
                clues: &[
                    Clue::Expected("Some(0)"),
                    Clue::Not(&Clue::Actual("Some(0)")),
                ],
            },
            Signature {
                check: "contract",
                fault: "wrong result",
                clues: &[
                    Clue::Case(", 9)"),
                    Clue::Expected(": []"),
                    Clue::Not(&Clue::Actual(": []")),
                ],
            },
        ],
    },
    Card {
        id: "02-none-means-no-change",
        stage: 2,
        title: "None means \"leave the state as it is\"",
        why: "None is the state of a key that has none: when the function (or an update) \
              leaves None, the key's state is removed, so the next record sees None and the \
              final state no longer lists the key.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "isolation",
                fault: "wrong result",
                clues: &[Clue::Test(
                    sees_cleared_state,
                    "a cleared key's state reappears",
                )],
            },
            Signature {
                check: "final-state",
                fault: "wrong result",
                clues: &[Clue::Step("was cleared or never set")],
            },
            Signature {
                check: "keyed-state",
                fault: "wrong result",
                clues: &[
                    Clue::Case("|_| None"),
                    Clue::Step("|_| None)): get(..) and snapshot() after it"),
                ],
            },
        ],
    },
    Card {
        id: "02-restore-starts-afresh",
        stage: 2,
        title: "A restored operator only needs to work: what the snapshot held can be rebuilt",
        why: "A restore stands in for a crash: the process that took the snapshot is gone, and \
              the bytes are all that is left of its state. An operator that ignores them \
              forgets every key's state at each restart.",
        reread: "The invariant",
        signatures: &[Signature {
            check: "crash",
            fault: "wrong result",
            clues: &[
                Clue::Case("snapshot and restore"),
                Clue::Either(&Clue::Actual("state {}"), &Clue::Actual("seen: None")),
                // Without a restore the state is kept: only the restore loses it.
                Clue::Passes("isolation"),
                Clue::Passes("final-state"),
            ],
        }],
    },
    Card {
        id: "02-count-is-the-total",
        stage: 2,
        title: "A word's count is how often it occurs in the whole input",
        why: "A stream has no whole input: each occurrence is emitted with the count so far, \
              as a running keyed count does. The total is only known at the end, and a stream \
              may have none.",
        reread: "Task",
        signatures: &[Signature {
            check: "word-count",
            fault: "wrong result",
            clues: &[Clue::Test(
                count_ahead,
                "a first occurrence carries a count above 1",
            )],
        }],
    },
    Card {
        id: "02-words-split-on-a-space",
        stage: 2,
        title: "Words are what lies between single spaces",
        why: "Words are separated by any run of whitespace (split_whitespace): two spaces in a \
              row, a leading space or a tab make no empty word and join nothing.",
        reread: "Task",
        signatures: &[Signature {
            check: "word-count",
            fault: "wrong result",
            clues: &[Clue::Either(&Clue::Actual("(\"\", "), &Clue::Actual("\\t"))],
        }],
    },
];
