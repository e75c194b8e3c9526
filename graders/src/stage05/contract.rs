//! The contract check: every sequence of up to [`MAX_CALLS`] calls of one operator over
//! an alphabet chosen to break convenient assumptions (a watermark of 0 first, a
//! watermark exactly at a window's `end - 1`, one that goes back, a record at a window's
//! end, negative and zero values, keys whose byte order is not their case order, a slide
//! that does not divide the size, a restore, a restore of bytes cut short or with bytes
//! after the snapshot), each step's answer and the state right after it compared with
//! the model of the brief.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::forged::Forgery;
use super::layouts::{Relaid, first_relaid};
use super::renumbered::{Inconsistent, first_inconsistent};
use super::wide_counts::{WideSeen, wide_counts};
use super::{AssignerSpec, Fired, Implementation, LateRecord};
use crate::harness::damaged::{Retyping, retyped};
use crate::harness::enumerate::call_sequences;

/// The longest call sequence of the check.
pub const MAX_CALLS: usize = 3;

/// What follows the operator's own snapshot in a damaged restore: a snapshot is the bytes
/// `snapshot` wrote, not a prefix of them (a deserializer that reads the first value and
/// never looks further takes it).
pub const TRAILING: &[u8] = b" trailing";

/// One call of the contract check's alphabet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Call {
    /// `on_record(key, ts, value)`.
    Record(String, u64, i64),
    /// `on_watermark(wm)`.
    Watermark(u64),
    /// `snapshot()`, the operator dropped, `restore(assigner, bytes)`.
    Restore,
    /// `restore(assigner, bytes)` of the operator's snapshot cut to half its length, then
    /// of the whole snapshot followed by [`TRAILING`], then (if it is JSON with numbers)
    /// of the snapshot with every number written as the string `"x"`: errors, after
    /// which the operator goes on.
    RestoreDamaged,
    /// `restore(assigner, b"")`, then `restore(assigner, b"{}")`: empty bytes are no
    /// snapshot, nor is `{}` (which a serde struct with defaulted fields reads as a fresh
    /// operator) unless the implementation's own snapshot of a fresh operator is `{}`:
    /// errors, after which the operator goes on.
    RestoreEmpty,
    /// `restore(assigner, bytes)` of each [`Forgery`], the implementation's own snapshot
    /// made to say what no snapshot says (an aggregate of count 0, with its sum or with a
    /// sum of 0 too, or of a count outside a `u64`, one listed twice, the group that holds
    /// it listed twice, an open window the watermark fired) or with bytes around it or in
    /// it that no snapshot holds: errors, after which the operator goes on. A format that
    /// does not tell where to write one is spared it.
    RestoreForged,
    /// `restore(assigner, bytes)` of the implementation's own snapshot of `a@3=7` (then
    /// of `W(5)`, `a@7=7`) with one number changed at a time (`renumbered.rs`): an error,
    /// or an operator whose `state_size()` counts what `W(u64::MAX)` then fires; after
    /// which the operator goes on.
    RestoreRenumbered,
    /// `restore(assigner, bytes)` of the implementation's own snapshot of `a@3=7` with its
    /// count set to each of [`COUNTS`](super::wide_counts::COUNTS), states some run
    /// makes: each must restore and count on (`wide_counts.rs`). Made on fresh operators
    /// of its own, as the forgeries are.
    RestoreWideCounts,
    /// `restore(assigner, bytes)` of one state written by the grader in each layout of
    /// [`LAYOUTS`](super::layouts::LAYOUTS) that is not the implementation's own
    /// (`layouts.rs`): an error, or an operator whose own snapshot the bytes are a derived
    /// reading of. Made on fresh operators of its own, as the forgeries are.
    RestoreRelaid,
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // A key of other characters than letters is quoted, so its spaces, commas
            // and line breaks show.
            Call::Record(key, ts, value)
                if !key.is_empty() && key.chars().all(char::is_alphanumeric) =>
            {
                write!(f, "{key}@{ts}={value}")
            }
            Call::Record(key, ts, value) => write!(f, "{key:?}@{ts}={value}"),
            Call::Watermark(wm) => write!(f, "W({wm})"),
            Call::Restore => f.write_str("restore(snapshot())"),
            Call::RestoreDamaged => f.write_str(
                "restore(snapshot() cut to half its length), restore(snapshot() + b\" trailing\"), restore(snapshot() with its numbers as \"x\", as strings of their digits or with a half added)",
            ),
            Call::RestoreEmpty => f.write_str("restore(b\"\"), restore(b\"{}\")"),
            Call::RestoreForged => f.write_str(
                "restore(snapshot() made to say what no snapshot says: an aggregate of count 0 (of sum 7 or 0) or of a count outside a u64, an aggregate or the group that holds it listed twice, an open window its watermark fired; or with bytes around it or in it that no snapshot holds)",
            ),
            Call::RestoreRenumbered => f.write_str(
                "restore(snapshot() of a@3=7, then of W(5), a@7=7, with one number changed to null or 0 to 9), then state_size(), W(u64::MAX) and state_size() on what it restored",
            ),
            Call::RestoreWideCounts => f.write_str(
                "restore(snapshot() of a@3=7 with its count set to 2^32 - 1, 2^32 + 1, 2^63 and u64::MAX), then a@4=1 (but at u64::MAX) and W(9) on what it restored",
            ),
            Call::RestoreRelaid => f.write_str(
                "restore(the state of W(1), a@3=4, a@5=3, b@4=-2, a@13=5 in each layout a snapshot of it commonly takes but yours does not), then snapshot() of what it restored",
            ),
        }
    }
}

/// The calls as `a@2=-4, W(2), restore(snapshot())`.
pub fn show(calls: &[Call]) -> String {
    let shown: Vec<String> = calls.iter().map(Call::to_string).collect();
    shown.join(", ")
}

fn record(key: &str, ts: u64, value: i64) -> Call {
    Call::Record(key.to_owned(), ts, value)
}

/// Keys that a text format must escape or quote, each of which a snapshot holds as it is:
/// separators, quotes, escapes, line breaks, blanks, JSON's words and numbers, the empty
/// key and a NUL.
pub const ODD_KEYS: [&str; 24] = [
    "a b", "a,b", "a;b", "a|b", "a:b", "a=b", "a\tb", "a\nb", "a\r\nb", "a\"b", "a\\b", "a'b", "",
    " ", "[a]", "{a}", "a@3=7", "null", "true", "-1", "1e5", "ä", "日本", "\u{0}",
];

/// The calls of the case of [`ODD_KEYS`]: a record of each in `[0, 3)`, a round trip, and
/// the watermark that fires them, so each must come back whole from the snapshot.
pub fn odd_keys_calls() -> Vec<Call> {
    let mut calls: Vec<Call> = (1..)
        .zip(ODD_KEYS)
        .map(|(value, key)| record(key, 1, value))
        .collect();
    calls.extend([Call::Restore, Call::Watermark(2)]);
    calls
}

/// The assigners of the check and their alphabets. Tumbling windows of 3: `b@2` is at
/// the last timestamp of `[0, 3)`, `a@3` at its end (the next window's start), `B` sorts
/// before `b`; `W(0)` is a first watermark of 0 and, after `W(2)`, one that goes back.
/// Sliding windows of 5 every 2 (a slide that does not divide the size): `a@4` lies in
/// three windows, `b@1` in one; after `W(4)` the record `a@4` is behind the watermark
/// but two of its windows are open.
pub fn alphabets() -> Vec<(AssignerSpec, Vec<Call>)> {
    vec![
        (
            AssignerSpec::Tumbling(3),
            vec![
                record("b", 2, -4),
                record("a", 3, 0),
                record("B", 0, 5),
                Call::Watermark(0),
                Call::Watermark(2),
                Call::Watermark(5),
                Call::Restore,
                Call::RestoreDamaged,
            ],
        ),
        (
            AssignerSpec::Sliding(5, 2),
            vec![
                record("a", 4, -1),
                record("b", 1, 3),
                record("a", 6, 0),
                Call::Watermark(4),
                Call::Watermark(6),
                Call::Watermark(3),
                Call::Restore,
                Call::RestoreDamaged,
            ],
        ),
        // Windows of one timestamp: `[0, 1)` holds only 0, and fires at `W(0)`, so before
        // any watermark nothing has fired (no watermark is not watermark 0). Here too, a
        // restore of empty bytes.
        (
            AssignerSpec::Tumbling(1),
            vec![
                record("a", 0, 1),
                record("b", 1, -2),
                Call::Watermark(0),
                Call::Watermark(1),
                Call::Restore,
                Call::RestoreEmpty,
            ],
        ),
    ]
}

/// Every call sequence of `alphabet`, shortest first; two restores in a row tell nothing
/// one does not.
pub fn sequences(alphabet: &[Call]) -> Vec<Vec<Call>> {
    let restore = |c: &Call| {
        matches!(
            c,
            Call::Restore
                | Call::RestoreDamaged
                | Call::RestoreEmpty
                | Call::RestoreForged
                | Call::RestoreRenumbered
                | Call::RestoreWideCounts
                | Call::RestoreRelaid
        )
    };
    call_sequences(alphabet, MAX_CALLS, |s| {
        !s.windows(2)
            .any(|pair| restore(&pair[0]) && restore(&pair[1]))
    })
    .into_iter()
    .filter(|s| !s.is_empty())
    .collect()
}

/// What one call answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// `on_record`: the late record, if one came back.
    Late(Option<LateRecord>),
    /// `on_watermark`: the results.
    Fired(Vec<Fired>),
    /// A restore: `Ok` or the error's message.
    Restored(Result<(), String>),
    /// A restore of bytes that are no snapshot succeeded: the bytes, as text.
    AcceptedJunk(String),
    /// A restore of the operator's own snapshot followed by [`TRAILING`] succeeded.
    AcceptedTrailing,
    /// A restore of the operator's own snapshot with its numbers retyped this way
    /// succeeded.
    AcceptedRetyped(Retyping),
    /// A restore of the operator's own snapshot forged this way succeeded.
    AcceptedForged(Forgery),
    /// A restore of the operator's own snapshot with a number changed gave an operator
    /// whose size disagrees with what it fires.
    AcceptedInconsistent(Inconsistent),
    /// What each restore of a wide count answered, and what its operator did next.
    WideCounts(Vec<WideSeen>),
    /// A restore of the state in another layout gave an operator whose own snapshot the
    /// bytes are no derived reading of.
    AcceptedRelaid(Relaid),
}

/// One step: the answer, then `state_size()` and `current_watermark()` right after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// What the call returned.
    pub answer: Answer,
    /// `state_size()` after it.
    pub size: usize,
    /// `current_watermark()` after it.
    pub watermark: Option<u64>,
}

/// Runs `calls` on a fresh operator of `spec`.
///
/// # Errors
/// The message when the operator cannot be built.
pub fn drive<I: Implementation>(spec: AssignerSpec, calls: &[Call]) -> Result<Vec<Step>, String> {
    let message = |e: anyhow::Error| format!("{e:#}");
    let mut operator = I::operator(spec).map_err(message)?;
    let mut steps = Vec::new();
    for call in calls {
        let answer = match call {
            Call::Record(key, ts, value) => {
                Answer::Late(I::on_record(&mut operator, key, *ts, *value))
            }
            Call::Watermark(wm) => Answer::Fired(I::on_watermark(&mut operator, *wm)),
            Call::Restore => Answer::Restored(
                I::snapshot(&operator)
                    .and_then(|bytes| I::restore(spec, &bytes))
                    .map(|restored| operator = restored)
                    .map_err(message),
            ),
            Call::RestoreDamaged => match I::snapshot(&operator) {
                Err(e) => Answer::Restored(Err(message(e))),
                Ok(bytes) => match I::restore(spec, &bytes[..bytes.len() / 2]) {
                    Ok(_) => Answer::Restored(Ok(())),
                    Err(cut) => {
                        let taken = |how| {
                            retyped(&bytes, how).is_some_and(|r| I::restore(spec, &r).is_ok())
                        };
                        if I::restore(spec, &[&bytes[..], TRAILING].concat()).is_ok() {
                            Answer::AcceptedTrailing
                        } else if let Some(how) = Retyping::ALL.into_iter().find(|&how| taken(how))
                        {
                            Answer::AcceptedRetyped(how)
                        } else {
                            Answer::Restored(Err(message(cut)))
                        }
                    }
                },
            },
            Call::RestoreEmpty => {
                let own = I::operator(spec).and_then(|fresh| I::snapshot(&fresh)).ok();
                let mut answer = Answer::Restored(Ok(()));
                for junk in [&b""[..], b"{}"] {
                    if !junk.is_empty() && own.as_deref() == Some(junk) {
                        continue;
                    }
                    answer = match I::restore(spec, junk) {
                        Ok(_) => Answer::AcceptedJunk(String::from_utf8_lossy(junk).into_owned()),
                        Err(e) => Answer::Restored(Err(message(e))),
                    };
                    if matches!(answer, Answer::AcceptedJunk(_)) {
                        break;
                    }
                }
                answer
            }
            Call::RestoreForged => {
                let mut answer = Answer::Restored(Err("no forgery fits its format".to_owned()));
                'forgeries: for how in Forgery::ALL {
                    for bytes in how.forge::<I>() {
                        match I::restore(spec, &bytes) {
                            Ok(_) => {
                                answer = Answer::AcceptedForged(how);
                                break 'forgeries;
                            }
                            Err(e) => answer = Answer::Restored(Err(message(e))),
                        }
                    }
                }
                answer
            }
            Call::RestoreWideCounts => Answer::WideCounts(wide_counts::<I>()),
            Call::RestoreRelaid => match first_relaid::<I>() {
                Some(relaid) => Answer::AcceptedRelaid(relaid),
                None => Answer::Restored(Err(
                    "every other layout refused or read as its own type reads it".to_owned(),
                )),
            },
            Call::RestoreRenumbered => match first_inconsistent::<I>() {
                Some(inconsistent) => Answer::AcceptedInconsistent(inconsistent),
                None => Answer::Restored(Err("every restore refused or consistent".to_owned())),
            },
        };
        steps.push(Step {
            answer,
            size: I::state_size(&operator),
            watermark: I::current_watermark(&operator),
        });
    }
    Ok(steps)
}
