//! The `contract` check: every short sequence of `poll` and `seek` calls on a small
//! source, each step compared with a model of what the brief fixes.
//!
//! The model is the brief and nothing more: a position in `0..=len`; `poll` returns the
//! record there and moves one on, or `None` at the end and moves nothing; `seek(o)` with
//! `o <= len` succeeds and moves to `o`, and with `o > len` fails with a message naming
//! `o` and moves nothing. The offsets are chosen to break convenient assumptions: back
//! to `0` after reading, `1` (relative and absolute seeks differ), `len` (the end, allowed),
//! `len + 1` (the first refused) and `u64::MAX` (overflow), and every call after a
//! refused one. After the calls the source is drained, so a source whose `position()`
//! says one thing and whose next record another shows it.

use serde::{Deserialize, Serialize};

use crate::harness::Failure;
use crate::harness::enumerate::call_sequences;

/// The longest call sequence (before the final drain).
pub const MAX_CALLS: usize = 3;

/// The records of the sources: lengths 0 to 3, distinct values, a 0 among them.
pub fn sources() -> [Vec<u32>; 4] {
    [vec![], vec![5], vec![5, 0], vec![5, 0, 7]]
}

/// One call of a contract sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Call {
    /// `poll()`
    Poll,
    /// `seek(offset)`
    Seek(u64),
}

impl Call {
    /// The call as code.
    pub fn describe(self) -> String {
        match self {
            Call::Poll => "poll()".to_owned(),
            Call::Seek(u64::MAX) => "seek(u64::MAX)".to_owned(),
            Call::Seek(o) => format!("seek({o})"),
        }
    }
}

/// Every call sequence of up to [`MAX_CALLS`] calls on a source of `len` records,
/// shortest first; a seek straight after the same seek is pruned (it adds nothing).
pub fn sequences(len: u64) -> Vec<Vec<Call>> {
    let mut offsets = vec![0, 1, len, len + 1, u64::MAX];
    offsets.sort_unstable();
    offsets.dedup();
    let alphabet: Vec<Call> = std::iter::once(Call::Poll)
        .chain(offsets.into_iter().map(Call::Seek))
        .collect();
    call_sequences(&alphabet, MAX_CALLS, |s| match s {
        [.., Call::Seek(a), Call::Seek(b)] => a != b,
        _ => true,
    })
}

/// What one call returned, as the driver saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Returned {
    /// `poll()` returned this.
    Polled(Option<u32>),
    /// `seek(..)` returned this (`Err` as its message).
    Sought(Result<(), String>),
    /// The call panicked with this message (the sequence stops there).
    Panicked(String),
}

/// One step: what the call returned and `position()` right after it (`None` after a panic).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The call's return value.
    pub returned: Returned,
    /// `position()` after the call.
    pub position: Option<u64>,
}

/// Whether an error message names `offset` (in decimal, as `{offset}` prints it).
pub fn names_offset(message: &str, offset: u64) -> bool {
    let digits = offset.to_string();
    // The offset as a number of its own, not a digit inside another number.
    message.match_indices(&digits).any(|(at, _)| {
        let before = message[..at].chars().next_back();
        let after = message[at + digits.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_digit()) && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

/// Judges the steps and the final drain of `calls` on `records` against the model.
pub fn judge(
    records: &[u32],
    calls: &[Call],
    steps: &[Step],
    drain: &[u32],
) -> Result<(), Failure> {
    judge_with(records, 0, calls, steps, drain, Positions::Read)
}

/// [`judge`] on a source that was at offset `start` when the calls began.
pub fn judge_from(
    records: &[u32],
    start: u64,
    calls: &[Call],
    steps: &[Step],
    drain: &[u32],
) -> Result<(), Failure> {
    judge_with(records, start, calls, steps, drain, Positions::Read)
}

/// Whether a judgement reads `position()` after each call, or only what the calls return.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Positions {
    Read,
    Ignored,
}

fn judge_with(
    records: &[u32],
    start: u64,
    calls: &[Call],
    steps: &[Step],
    drain: &[u32],
    positions: Positions,
) -> Result<(), Failure> {
    let len = records.len() as u64;
    let mut position = start;
    for (i, call) in calls.iter().enumerate() {
        let at = |what: &str| format!("call {} ({}): {what}", i + 1, call.describe());
        let Some(step) = steps.get(i) else {
            return Err(Failure::new(format!("a result for call {}", i + 1), "none")
                .step(at("the driver saw no result")));
        };
        let before = position;
        // After a refused seek, a wrong answer is the refusal's doing: it moved something.
        let after_refusal = i > 0 && matches!(calls[i - 1], Call::Seek(o) if o > len);
        let (want, rule) = match call {
            Call::Poll if position < len => {
                position += 1;
                let rule = if after_refusal { "01-R14" } else { "01-R1" };
                (Returned::Polled(Some(records[before as usize])), rule)
            }
            Call::Poll if after_refusal => (Returned::Polled(None), "01-R14"),
            Call::Poll => (Returned::Polled(None), "01-R13"),
            Call::Seek(o) if *o <= len => {
                position = *o;
                (Returned::Sought(Ok(())), "01-R3")
            }
            Call::Seek(o) => {
                match &step.returned {
                    Returned::Sought(Err(message)) if !names_offset(message, *o) => {
                        return Err(Failure::new(
                            format!("Err(..) naming the offset {o}"),
                            format!("Err({message})"),
                        )
                        .step(at("the error does not name the offset"))
                        .requirement("01-R5"));
                    }
                    Returned::Sought(Err(_)) => {}
                    Returned::Panicked(message) => {
                        return Err(Failure::new(
                            format!("Err(..) naming the offset {o}"),
                            format!("panicked: {message}"),
                        )
                        .step(at("a seek past the end panicked"))
                        .requirement("01-R15"));
                    }
                    other => {
                        return Err(Failure::new(
                            format!("Err(..) naming the offset {o}"),
                            format!("{other:?}"),
                        )
                        .step(at(&format!(
                            "a seek past the end of {len} record(s) was not refused"
                        )))
                        .requirement("01-R4"));
                    }
                }
                (step.returned.clone(), "01-R14")
            }
        };
        if step.returned != want {
            return Err(
                Failure::new(format!("{want:?}"), format!("{:?}", step.returned))
                    .step(at(&format!("position() was {before} before it")))
                    .requirement(rule),
            );
        }
        if positions == Positions::Read && step.position != Some(position) {
            // A source that returns every record the model does, and only misreports
            // where it is, breaks the reading (01-R2), not the move.
            let only_the_reading = step.position.is_some()
                && judge_with(records, start, calls, steps, drain, Positions::Ignored).is_ok();
            let rule = match call {
                Call::Seek(o) if *o > len => "01-R14",
                Call::Poll if after_refusal => "01-R14",
                _ if only_the_reading => "01-R2",
                Call::Poll if before < len => "01-R11",
                Call::Poll => "01-R13",
                Call::Seek(o) if *o <= len => "01-R3",
                Call::Seek(_) => "01-R14",
            };
            return Err(Failure::new(
                format!("position() = {position}"),
                step.position
                    .map_or_else(|| "no position".to_owned(), |p| format!("position() = {p}")),
            )
            .step(at(&format!("position() after it (it was {before} before)")))
            .requirement(rule));
        }
    }
    let rest = &records[position as usize..];
    if drain != rest {
        let rule = if drain.starts_with(rest) {
            "01-R13"
        } else if matches!(calls.last(), Some(Call::Seek(o)) if *o > len) {
            "01-R14"
        } else {
            "01-R1"
        };
        return Err(Failure::new(
            format!("then polls yield {rest:?}"),
            format!("then polls yield {drain:?}"),
        )
        .step(format!(
            "polling until None from position() = {position} after the calls"
        ))
        .requirement(rule));
    }
    Ok(())
}

/// The ids a sequence of `calls` on `len` records can find broken.
pub fn requirements(len: u64, calls: &[Call]) -> Vec<&'static str> {
    let mut ids = vec!["01-R1"];
    for call in calls {
        match call {
            Call::Poll => ids.extend(["01-R2", "01-R11", "01-R13"]),
            Call::Seek(o) if *o <= len => ids.extend(["01-R2", "01-R3"]),
            Call::Seek(_) => ids.extend(["01-R4", "01-R5", "01-R14", "01-R15"]),
        }
    }
    ids.sort_unstable();
    ids.dedup();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offset_is_named_as_a_number_of_its_own() {
        assert!(names_offset("offset 4 is past the end (3 records)", 4));
        assert!(!names_offset("offset 14 is past the end", 4));
        assert!(!names_offset("past the end", 4));
        assert!(names_offset("seek(18446744073709551615)", u64::MAX));
    }

    #[test]
    fn sequences_are_shortest_first_and_never_repeat_a_seek() {
        let all = sequences(2);
        assert_eq!(all[0], Vec::<Call>::new());
        assert!(all.windows(2).all(|w| w[0].len() <= w[1].len()));
        assert!(all.iter().all(|s| {
            s.windows(2)
                .all(|w| !matches!(w, [Call::Seek(a), Call::Seek(b)] if a == b))
        }));
        assert!(all.contains(&vec![Call::Poll, Call::Seek(0), Call::Poll]));
    }
}
