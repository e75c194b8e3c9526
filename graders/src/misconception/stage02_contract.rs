//! Stage 02's cards for the contract's edges: what each `KeyedState` call returns and
//! keeps, keys that are not text, the key and `out` a function is handed, snapshots and
//! restores, and words split or folded otherwise than the brief says.

use super::{Card, Clue, Signature, Symptom, between};

/// One signature of `check` with `clues`.
const fn on(check: &'static str, clues: &'static [Clue]) -> Signature {
    Signature {
        check,
        fault: "wrong result",
        clues,
    }
}

/// The first wrong update of a word count: what came out and what was expected.
fn first_wrong_update(s: &Symptom) -> Option<((String, u64), (String, u64))> {
    let count = |text: &str| -> Option<(String, u64)> {
        let word = between(text, "(\"", "\", ")?.to_owned();
        let n = between(text, "\", ", ")")?.parse().ok()?;
        Some((word, n))
    };
    let (got, expected) = s.step.split_once(", expected ")?;
    Some((count(got.split(" is ").nth(1)?)?, count(expected)?))
}

/// A word came out counted lower than the running count: its count started again.
fn count_behind(s: &Symptom) -> bool {
    matches!(first_wrong_update(s), Some(((w1, n1), (w2, n2))) if w1 == w2 && n1 < n2)
}

/// Whether a line of the smallest case (`word_count(&["..", ..])`, escaped as `{:?}`
/// writes it) holds nothing but whitespace.
fn has_blank_line(s: &Symptom) -> bool {
    let Some(lines) = between(s.case, "&[\"", "\"]") else {
        return false;
    };
    lines.split("\", \"").any(|line| {
        let mut rest = line;
        while !rest.is_empty() {
            let (blank, len) = if let Some(hex) = rest.strip_prefix("\\u{") {
                let end = hex.find('}').map_or(hex.len(), |i| i + 1);
                let c = u32::from_str_radix(&hex[..end.saturating_sub(1)], 16)
                    .ok()
                    .and_then(char::from_u32);
                (c.is_some_and(char::is_whitespace), 3 + end)
            } else if ["\\t", "\\n", "\\r"].iter().any(|e| rest.starts_with(e)) {
                (true, 2)
            } else {
                let c = rest.chars().next().unwrap_or('x');
                (c.is_whitespace(), c.len_utf8())
            };
            if !blank {
                return false;
            }
            rest = &rest[len.min(rest.len())..];
        }
        true
    })
}

/// A word came out folded: lower-cased or stripped of punctuation.
fn word_folded(s: &Symptom) -> bool {
    let fold = |w: &str| -> String {
        w.to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect()
    };
    matches!(first_wrong_update(s), Some(((w1, _), (w2, _))) if w1 != w2 && fold(&w1) == fold(&w2))
}

/// A word that came out holds a Unicode space, escaped or not.
fn word_holds_unicode_space(s: &Symptom) -> bool {
    [
        "\\u{3000}",
        "\\u{a0}",
        "\\u{2003}",
        "\u{3000}",
        "\u{a0}",
        "\u{2003}",
    ]
    .iter()
    .any(|space| s.actual.contains(space))
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "02-get-finds-the-nearest",
        stage: 2,
        title: "Looking a key up in a sorted map finds its entry or the next one",
        why: "get(&k) is k's value or None: a range(k..) starts at k but goes on to the \
              next key, so a key with no value reads another key's. BTreeMap::get looks up \
              exactly the key.",
        reread: "Task",
        signatures: &[on(
            "keyed-state",
            &[Clue::Step("snapshot() is right, but get(..) is not")],
        )],
    },
    Card {
        id: "02-put-keeps-the-first",
        stage: 2,
        title: "put sets a key that has no value yet; a key's first value stays",
        why: "put(k, v) replaces whatever k held: the state of a key is its latest value, \
              as insert on a map does. entry().or_insert keeps the first one for good.",
        reread: "Task",
        signatures: &[on(
            "keyed-state",
            &[
                Clue::Case("put(\"a\", 1), put(\"a\", 2)"),
                Clue::Step("(put(\"a\", 2)): get(..) and snapshot()"),
            ],
        )],
    },
    Card {
        id: "02-update-needs-a-value",
        stage: 2,
        title: "update changes a value, so a key without one has nothing to update",
        why: "update(k, f) always calls f once, with None when k has no value, and stores \
              what it returns: that is how a count or a running sum starts. Skipping f for \
              a missing key means no key can ever get its first value through update.",
        reread: "Task",
        signatures: &[on(
            "keyed-state",
            &[
                Clue::Step("update did not hand its closure the current value once"),
                Clue::Actual("called: false"),
            ],
        )],
    },
    Card {
        id: "02-remove-returns-nothing",
        stage: 2,
        title: "remove only deletes; what it returns does not matter",
        why: "remove(&k) returns the value k had: a caller takes the value out and deletes \
              the key in one call, as the operator's loan of a slot does. Read after the \
              removal, the value is already gone.",
        reread: "Task",
        signatures: &[on(
            "keyed-state",
            &[
                Clue::Step("remove did not return the value the key had"),
                Clue::Actual("Removed(None)"),
            ],
        )],
    },
    Card {
        id: "02-snapshot-is-a-log",
        stage: 2,
        title: "A snapshot can replay what was put",
        why: "snapshot() is every key that has a value now, with that value: a log of puts \
              and updates forgets the deletions, so removed keys come back in it (and in \
              everything restored from it).",
        reread: "Task",
        signatures: &[on(
            "keyed-state",
            &[Clue::Step("get(..) is right, but snapshot() is not")],
        )],
    },
    Card {
        id: "02-keys-are-text",
        stage: 2,
        title: "A map is written as a JSON object",
        why: "JSON object keys are strings, and a key need not be one: written as a list of \
              [key, value] pairs, as to_bytes does, a state of any key type goes to bytes \
              and back.",
        reread: "Task",
        signatures: &[
            on(
                "bytes",
                &[
                    Clue::Case("KeyedState::<Vec<u8>, u32>"),
                    Clue::Step("to_bytes or from_bytes failed"),
                ],
            ),
            // The operator's snapshot of byte keys, refused by serde_json's map writer.
            on(
                "contract",
                &[
                    Clue::Step("the state of byte keys did not come back"),
                    Clue::Actual("key must be a string"),
                ],
            ),
        ],
    },
    Card {
        id: "02-key-set-after-the-call",
        stage: 2,
        title: "The key handed to the function may be the one kept from the last record",
        why: "The function is called once per record with that record's key, as the key \
              function extracts it: a key remembered in a field and set after the call \
              hands each record the key of the one before.",
        reread: "Task",
        signatures: &[on("isolation", &[Clue::Step("was handed key")])],
    },
    Card {
        id: "02-out-starts-empty",
        stage: 2,
        title: "out is mine to fill: the caller hands it empty",
        why: "process pushes what the function emits after whatever out already holds: a \
              chain or a caller collecting many records hands the same out to every call. \
              Replacing or clearing it loses what earlier calls emitted.",
        reread: "Task",
        signatures: &[on(
            "contract",
            &[Clue::Step("out no longer starts with the record it held")],
        )],
    },
    Card {
        id: "02-restore-trusts-its-bytes",
        stage: 2,
        title: "restore is only ever handed its own snapshots",
        why: "Bytes come from disk or a network, and may be truncated or something else \
              entirely: restore of bytes no snapshot wrote is an error the caller can act \
              on, never a panic, and never a silently empty state that loses every key.",
        reread: "Task",
        signatures: &[on(
            "contract",
            &[Clue::Either(
                &Clue::Step("restore panicked on bytes that no snapshot wrote"),
                &Clue::Step("restore accepted bytes that no snapshot wrote"),
            )],
        )],
    },
    Card {
        id: "02-snapshot-holds-changes",
        stage: 2,
        title: "A snapshot need only hold what changed since the operator started",
        why: "A snapshot is all that survives a crash: it must hold every key's state, \
              including the keys a restored operator got from the previous snapshot and has \
              not touched since. Restored twice in a row, a snapshot of changes only is \
              empty.",
        reread: "The invariant",
        signatures: &[on(
            "contract",
            &[
                Clue::Case("restore, snapshot, drop, restore"),
                Clue::Step("state() right after the restore is not the snapshotted one"),
            ],
        )],
    },
    Card {
        id: "02-count-per-line",
        stage: 2,
        title: "Each line is counted on its own",
        why: "The count of a word is over the whole stream so far, across lines: one keyed \
              operator sees every word, so its state carries the counts from one line to \
              the next.",
        reread: "Task",
        signatures: &[on(
            "word-count",
            &[
                Clue::Test(count_behind, "a word's count starts again from 1"),
                // Counts that start again only after a blank line are a paragraph's,
                // not a line's: a count per line already fails without one.
                Clue::Not(&Clue::Test(has_blank_line, "a line holds only whitespace")),
            ],
        )],
    },
    Card {
        id: "02-whitespace-is-ascii",
        stage: 2,
        title: "Whitespace means spaces, tabs and newlines",
        why: "Words are separated by whatever char::is_whitespace calls whitespace, Unicode \
              spaces such as U+3000 and U+00A0 too: split_ascii_whitespace leaves them inside \
              words.",
        reread: "Task",
        signatures: &[on(
            "word-count",
            &[Clue::Test(
                word_holds_unicode_space,
                "a word holds a Unicode space",
            )],
        )],
    },
    Card {
        id: "02-words-are-normalised",
        stage: 2,
        title: "A word is its letters: case and punctuation do not count",
        why: "A word is kept exactly as written: To, to and to, are three words. Folding \
              case or stripping punctuation counts other words than the brief does.",
        reread: "Task",
        signatures: &[on(
            "word-count",
            &[Clue::Test(word_folded, "a word came out folded")],
        )],
    },
];
