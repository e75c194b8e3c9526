//! Stage 05's cards on rules a window applies per window, not per record or per arrival:
//! a record that is not late counted in its fired windows too, and a window's keys fired
//! in the order they came.

use super::{Card, Clue, Signature, Symptom};

/// The `(key, start, end)` of each result in a list written
/// `[a [1, 4) sum 8 count 1, b [1, 4) sum 6 count 1]`.
fn results(list: &str) -> Vec<(&str, u64, u64)> {
    list.trim_start_matches('[')
        .split(" count ")
        .filter_map(|piece| {
            // Every piece but the first starts with the previous result's count.
            let piece = piece.trim_start_matches(|c: char| c.is_ascii_digit() || c == ',');
            let (key, window) = piece.trim_start().split_once(" [")?;
            let (start, end) = window.split_once(')')?.0.split_once(", ")?;
            Some((key, start.parse().ok()?, end.parse().ok()?))
        })
        .collect()
}

/// The results of one call came out window by window, as they should, but the keys of
/// one window in an order other than by key.
fn keys_out_of_order(s: &Symptom) -> bool {
    let got = results(s.actual);
    let by_window = got.windows(2).all(|p| (p[0].1, p[0].2) <= (p[1].1, p[1].2));
    let unsorted_keys = got
        .windows(2)
        .any(|p| (p[0].1, p[0].2) == (p[1].1, p[1].2) && p[0].0 > p[1].0);
    got.len() >= 2 && by_window && unsorted_keys
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "05-on-time-counts-everywhere",
        stage: 5,
        title: "A record that is not late counts in all of its windows",
        why: "Lateness is decided window by window: a record behind the watermark with a \
              window still open counts in the windows that have not fired only. A fired \
              window's result is out; adding the record to it brings the window back, and it \
              fires a second time.",
        reread: "Windows, firing and lateness",
        signatures: &[Signature {
            check: "firing",
            fault: "wrong result",
            clues: &[
                Clue::Step("though the window had fired"),
                Clue::Step("it counts only in its windows that had not fired"),
            ],
        }],
    },
    Card {
        id: "05-keys-in-arrival-order",
        stage: 5,
        title: "A window's results come out in the order their keys arrived",
        why: "The results of one call are ordered by window, then by key: the order keys \
              happen to arrive in is not part of the result, so that the same records give \
              the same output whatever their arrival order.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "firing",
                fault: "wrong result",
                clues: &[
                    Clue::Step("the right results in the wrong order"),
                    Clue::Test(keys_out_of_order, "one window's keys out of key order"),
                ],
            },
            Signature {
                check: "contract",
                fault: "wrong result",
                clues: &[
                    Clue::Step("the right results in the wrong order"),
                    Clue::Test(keys_out_of_order, "one window's keys out of key order"),
                ],
            },
        ],
    },
];
