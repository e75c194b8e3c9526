//! Stage 05's cards at the edges of the rules: windows that hold their end or start at
//! the record, state counted by windows or keys, watermarks taken for the last one or for
//! 0, snapshots that cannot be read, and orders the brief fixes otherwise.

use super::{Card, Clue, Signature, Symptom, between};

/// The `(size, slide)` of the assigner a text names: `Tumbling::new(2)` or
/// `Sliding::new(5, 2)`.
fn assigner(text: &str) -> Option<(u64, u64)> {
    if let Some(size) = between(text, "Tumbling::new(", ")") {
        let size = size.parse().ok()?;
        return Some((size, size));
    }
    let (size, slide) = between(text, "Sliding::new(", ")")?.split_once(", ")?;
    Some((size.parse().ok()?, slide.parse().ok()?))
}

/// The windows of a list written `[[0, 2), [2, 4)]`.
fn windows(list: &str) -> Vec<(u64, u64)> {
    list.split(')')
        .filter_map(|piece| {
            let piece = piece.trim_start_matches([',', ' ', '[']);
            let (start, end) = piece.split_once(", ")?;
            Some((start.parse().ok()?, end.parse().ok()?))
        })
        .collect()
}

/// An `assign` failure: the assigner's `(size, slide)`, the timestamp, and the windows
/// expected and returned.
type Assigned = ((u64, u64), u64, Vec<(u64, u64)>, Vec<(u64, u64)>);

fn assigned(s: &Symptom) -> Option<Assigned> {
    let params = assigner(s.expected)?;
    let ts = between(s.expected, ".assign(", ")")?.parse().ok()?;
    let list = |text: &str| text.split_once(" = ").map(|(_, l)| windows(l));
    Some((params, ts, list(s.expected)?, list(s.actual)?))
}

/// `assign(ts)` also returned the window that ends at `ts`: windows taken as closed.
fn holds_its_end(s: &Symptom) -> bool {
    assigned(s).is_some_and(|(_, ts, expected, actual)| {
        actual.iter().any(|w| w.1 == ts) && !expected.iter().any(|w| w.1 == ts)
    })
}

/// `assign(ts)` returned windows that start `ts`, `ts - slide`, ...: where the record is,
/// not at multiples of the slide.
fn starts_at_the_record(s: &Symptom) -> bool {
    assigned(s).is_some_and(|((_, slide), ts, _, actual)| {
        !actual.is_empty()
            && actual.iter().all(|w| w.0 <= ts && (ts - w.0) % slide == 0)
            && actual.iter().any(|w| w.0 % slide != 0)
    })
}

/// `assign(ts)` returned `size / slide` of the windows that hold `ts`, where the slide
/// does not divide the size and `ts` lies in more.
fn size_over_slide(s: &Symptom) -> bool {
    assigned(s).is_some_and(|((size, slide), _, expected, actual)| {
        let n = (size / slide) as usize;
        n >= 2
            && actual.len() == n
            && expected.len() > n
            && actual.iter().all(|w| expected.contains(w))
    })
}

/// The `state` failure's aggregates `(key, window)`, from "... aggregates are [a [2, 4),
/// b [2, 4)]", and the state size the operator reported.
fn aggregates<'a>(s: &Symptom<'a>) -> Option<(Vec<(&'a str, &'a str)>, usize)> {
    let (_, list) = s.step.split_once("aggregates are [")?;
    let held = list
        .split(')')
        .filter_map(|piece| piece.trim_start_matches([',', ' ']).split_once(" ["))
        .collect();
    let size = s.actual.strip_prefix("state_size() = ")?.parse().ok()?;
    Some((held, size))
}

fn distinct<'a>(items: impl Iterator<Item = &'a str>) -> usize {
    items.collect::<std::collections::BTreeSet<_>>().len()
}

/// `state_size()` is the number of windows the aggregates are in.
fn counts_windows(s: &Symptom) -> bool {
    aggregates(s).is_some_and(|(held, size)| {
        let windows = distinct(held.iter().map(|a| a.1));
        let keys = distinct(held.iter().map(|a| a.0));
        size == windows && size != held.len() && windows != keys
    })
}

/// `state_size()` is the number of keys the aggregates are of.
fn counts_keys(s: &Symptom) -> bool {
    aggregates(s).is_some_and(|(held, size)| {
        let windows = distinct(held.iter().map(|a| a.1));
        let keys = distinct(held.iter().map(|a| a.0));
        size == keys && size != held.len() && windows != keys
    })
}

/// The results of a list written `[a [1, 4) sum 8 count 1, b [1, 4) sum 6 count 1]`, as
/// `(key, start, end)`.
fn results(list: &str) -> Vec<(&str, u64, u64)> {
    let list = list.trim_start_matches('[');
    let tokens: Vec<&str> = list.split(", ").collect();
    tokens
        .chunks(2)
        .filter_map(|pair| {
            let (key, start) = pair.first()?.split_once(" [")?;
            let end = pair.get(1)?.split_once(')')?.0;
            Some((key, start.parse().ok()?, end.parse().ok()?))
        })
        .collect()
}

/// The results of one call came out sorted by key, then window.
fn key_by_key(s: &Symptom) -> bool {
    let got = results(s.actual);
    let by_key = got.windows(2).all(|p| p[0] <= p[1]);
    let by_window = got
        .windows(2)
        .all(|p| (p[0].1, p[0].2, p[0].0) <= (p[1].1, p[1].2, p[1].0));
    got.len() >= 2 && by_key && !by_window
}

/// After a watermark behind the current one, `current_watermark()` is that watermark.
fn stale_taken(s: &Symptom) -> bool {
    let number = |text: &str| -> Option<u64> { between(text, "Some(", ")")?.parse().ok() };
    let call: Option<u64> = between(s.step, "(W(", "))").and_then(|w| w.parse().ok());
    s.expected.starts_with("current_watermark() = ")
        && matches!(
            (call, number(s.expected), number(s.actual)),
            (Some(w), Some(e), Some(a)) if a == w && w < e
        )
}

/// A window that did not fire holds a sum of 0 for the key.
fn zero_sum_unfired(s: &Symptom) -> bool {
    let window = between(s.step, "window ", " of key \"");
    let key = between(s.step, " of key \"", "\" did not fire");
    matches!(
        (key, window),
        (Some(k), Some(w)) if s.expected.contains(&format!("{k} {w} sum 0 count"))
    )
}

/// The late records came out in timestamp order, not stream order.
fn late_in_time_order(s: &Symptom) -> bool {
    let times: Vec<i128> = s
        .actual
        .split('(')
        .skip(1)
        .filter_map(|t| t.split(", ").nth(1)?.parse().ok())
        .collect();
    times.len() >= 2 && times.windows(2).all(|p| p[0] <= p[1])
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "05-windows-hold-their-end",
        stage: 5,
        title: "A window [start, end) holds a record at its end too",
        why: "Windows are half-open: [start, end) holds start but not end, so that tumbling \
              windows do not overlap and a record at a boundary counts once, in the window \
              it opens. Its last timestamp is end - 1, which is when it fires.",
        reread: "Windows, firing and lateness",
        signatures: &[Signature {
            check: "assign",
            fault: "wrong result",
            clues: &[Clue::Test(
                holds_its_end,
                "the window ending at ts returned",
            )],
        }],
    },
    Card {
        id: "05-state-counts-windows",
        stage: 5,
        title: "state_size() is the number of open windows",
        why: "state_size() counts aggregates, one per (window, key) that has records: two keys \
              in one window are two sums and two counts to hold, and to snapshot.",
        reread: "Windows, firing and lateness",
        signatures: &[Signature {
            check: "state",
            fault: "wrong result",
            clues: &[
                Clue::Test(counts_windows, "the number of windows"),
                // Records taken for late are missing from the state too.
                Clue::Passes("lateness"),
            ],
        }],
    },
    Card {
        id: "05-state-counts-keys",
        stage: 5,
        title: "state_size() is the number of keys, as in stage 02",
        why: "state_size() counts aggregates, one per (window, key): a sliding record of one \
              key is in several windows, each with its own sum and count to hold.",
        reread: "Windows, firing and lateness",
        signatures: &[Signature {
            check: "state",
            fault: "wrong result",
            clues: &[
                Clue::Test(counts_keys, "the number of keys"),
                // An assigner that returns one window per record holds one per key too,
                // and records taken for late are missing from the state.
                Clue::Passes("assign"),
                Clue::Passes("lateness"),
                // Windows merged into one (keyed by their shared end at the top of time)
                // hold one aggregate per key as well, and fire wrong sums.
                Clue::Passes("firing"),
            ],
        }],
    },
    Card {
        id: "05-size-over-slide-windows",
        stage: 5,
        title: "A sliding record always lies in size / slide windows",
        why: "That holds only when the slide divides the size. Windows start at 0, slide, 2 \
              slide, ...: a timestamp lies in every one that contains it, which with size 5 \
              and slide 2 is sometimes two windows and sometimes three.",
        reread: "Task",
        signatures: &[Signature {
            check: "assign",
            fault: "wrong result",
            clues: &[Clue::Test(size_over_slide, "size / slide windows")],
        }],
    },
    Card {
        id: "05-windows-start-at-the-record",
        stage: 5,
        title: "A window starts where its record is",
        why: "Windows are fixed by the assigner, not by the data: they start at 0, slide, 2 \
              slide, ... and at no other time, so that every record of a window, whatever its \
              key or arrival, lands in the same window.",
        reread: "Task",
        signatures: &[Signature {
            check: "assign",
            fault: "wrong result",
            clues: &[Clue::Test(
                starts_at_the_record,
                "windows starting at ts, ts - slide, ...",
            )],
        }],
    },
    Card {
        id: "05-results-key-by-key",
        stage: 5,
        title: "The results of a watermark can come out key by key",
        why: "The results of one call are ordered by window, then by key: windows come out in \
              time order whatever the keys, and a run's output does not depend on how the \
              state happens to be keyed.",
        reread: "Task",
        signatures: &[Signature {
            check: "firing",
            fault: "wrong result",
            clues: &[
                Clue::Step("the right results in the wrong order"),
                Clue::Test(key_by_key, "sorted by key, then window"),
            ],
        }],
    },
    Card {
        id: "05-watermark-is-the-last-seen",
        stage: 5,
        title: "The current watermark is the last one that came",
        why: "A watermark is a promise, and a later, smaller one does not take it back: the \
              current watermark is the largest seen, and one that does not advance changes \
              nothing. Going back would make fired windows look open again.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Test(stale_taken, "a smaller watermark taken")],
        }],
    },
    Card {
        id: "05-unreadable-snapshot-is-fresh",
        stage: 5,
        title: "Bytes restore cannot read mean there was nothing to restore",
        why: "A restore of bytes that are not a snapshot (empty, cut short) is an error: an \
              operator started empty in its place silently drops every open window and the \
              watermark, and the job goes on with wrong sums.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[
                Clue::Step("restore of bytes that are not a snapshot"),
                Clue::Actual("Ok"),
                // Its own snapshot, damaged (bytes after it, numbers retyped), was read,
                // not taken for nothing: another belief (a lenient reader).
                Clue::Not(&Clue::Actual("of its snapshot")),
                // A layout of the state other than its own, read: another belief (a
                // second format kept readable).
                Clue::Not(&Clue::Actual("a layout your snapshot never writes")),
            ],
        }],
    },
    Card {
        id: "05-parsed-is-a-state",
        stage: 5,
        title: "Bytes that parse into the snapshot's types are a snapshot",
        why: "restore is the one way into an operator that passes neither on_record nor \
              on_watermark, so it must keep their invariants itself: bytes of the right \
              types can still describe a state no run reaches (an aggregate of no record, \
              one (window, key) listed twice, a window held open past the watermark that \
              fired it). Taken in, or quietly tidied away, they become a result of count 0, \
              a sum replaced, a window that never fires; they are an error.",
        reread: "Task",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[
                Clue::Step("restore of bytes that are not a snapshot"),
                Clue::Actual("Ok (of its snapshot of the"),
            ],
        }],
    },
    Card {
        id: "05-end-of-input-fires",
        stage: 5,
        title: "When the elements run out, the windows still open fire",
        why: "Only watermarks fire windows: the end of a batch of elements is not the end of \
              the stream, and more may come. A bounded input ends with Watermark(u64::MAX) \
              when it wants its last windows flushed.",
        reread: "Task",
        signatures: &[Signature {
            check: "window-sums",
            fault: "wrong result",
            clues: &[Clue::Step("nothing fires at the end of the elements")],
        }],
    },
    Card {
        id: "05-no-watermark-is-zero",
        stage: 5,
        title: "No watermark yet is the same as watermark 0",
        why: "W(0) promises that nothing at or before 0 is to come, and fires the windows that \
              end at 1; before any watermark nothing has been promised, nothing has fired, and \
              no record is late.",
        reread: "Windows, firing and lateness",
        signatures: &[Signature {
            check: "contract",
            fault: "wrong result",
            clues: &[Clue::Step("no watermark came yet: nothing is late")],
        }],
    },
    Card {
        id: "05-json-maps-take-any-key",
        stage: 5,
        title: "serde_json can write any map as JSON",
        why: "A JSON object's keys are strings: a map keyed by a window or by a key type such \
              as a pair fails at run time (\"key must be a string\"). Snapshot a Vec of \
              (window, key, sum, count) entries and rebuild the map in restore.",
        reread: "Task",
        signatures: &[Signature {
            check: "crash",
            fault: "wrong result",
            clues: &[Clue::Step("JSON object keys must be strings")],
        }],
    },
    Card {
        id: "05-zero-sums-say-nothing",
        stage: 5,
        title: "A result whose sum is 0 says nothing and can be left out",
        why: "A window fires one result per key that has records in it: a sum of 0 still has a \
              count, and a consumer told nothing cannot tell \"no records\" from \"records \
              that cancel out\".",
        reread: "Windows, firing and lateness",
        signatures: &[Signature {
            check: "firing",
            fault: "wrong result",
            clues: &[
                Clue::Step("did not fire"),
                Clue::Test(zero_sum_unfired, "the unfired window sums to 0"),
            ],
        }],
    },
    Card {
        id: "05-late-records-in-time-order",
        stage: 5,
        title: "Late records come out in time order, like the results",
        why: "The results are ordered by the watermarks that fire them; late records are a side \
              output in stream order, the order they arrived, which is what a consumer \
              replaying or auditing them needs.",
        reread: "Task",
        signatures: &[Signature {
            check: "window-sums",
            fault: "wrong result",
            clues: &[
                Clue::Expected("late records ="),
                Clue::Step("the right elements in the wrong order"),
                Clue::Test(late_in_time_order, "sorted by timestamp"),
            ],
        }],
    },
    Card {
        id: "05-window-end-cannot-overflow",
        stage: 5,
        title: "A window's end, start + size, needs no care",
        why: "Timestamps run to u64::MAX, and a window near the top would end past it: \
              start + size then wraps to a small number (a window that ends before it starts) \
              or panics. Its end is u64::MAX instead, saturated, so the window still holds \
              every timestamp it can.",
        reread: "Task",
        signatures: &[Signature {
            check: "assign",
            fault: "wrong result",
            clues: &[Clue::Case("for ts in u64::MAX - 2..=u64::MAX")],
        }],
    },
];
