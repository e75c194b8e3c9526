//! The model of one subtask's contract, and the judge that walks a sequence with it.
//!
//! It encodes only what the brief fixes: an owned key's update applies `f` (03-R4), a
//! foreign key's is refused and changes nothing (03-R5), `key_groups()` is the range of
//! the index (03-R3), a restore at any parallelism (03-R6) keeps exactly the owned keys
//! of its snapshots with their values (03-R7), and a key it owns found in two snapshots
//! is an error (03-R8). Where the brief leaves a choice it accepts both outcomes: a key
//! found twice that the restored subtask does not own may be refused or skipped, and an
//! error's words are free.

use std::collections::BTreeMap;

use super::shown::{shown_key, shown_state};
use super::{At, Op, Seen, owns};
use crate::harness::Failure;
use crate::stage03::SubtaskCounts;
use crate::stage03::guard::Answer;
use crate::stage03::oracle;

/// What the model knows of the subtask that goes on.
struct Model {
    maxp: u32,
    at: At,
    state: SubtaskCounts,
}

impl Model {
    fn range(&self, at: At) -> (u32, u32) {
        oracle::range(at.index, at.parallelism, self.maxp)
    }

    fn describe(&self) -> String {
        let (start, end) = self.range(self.at);
        format!(
            "subtask {} of {} (key groups {start}..={end}) holding {}",
            self.at.index,
            self.at.parallelism,
            shown_state(&self.state)
        )
    }

    fn group(&self, key: &str) -> u32 {
        oracle::key_group(&crate::stage03::key_bytes(key), self.maxp)
    }
}

/// `Ok` when every step of `seen` is what the model allows.
pub fn judge_contract(maxp: u32, start: At, ops: &[Op], seen: &[Seen]) -> Result<(), Failure> {
    let mut model = Model {
        maxp,
        at: start,
        state: BTreeMap::new(),
    };
    let new = format!(
        "KeyedSubtask::new({}, {}, {maxp})",
        start.index, start.parallelism
    );
    let first = seen
        .first()
        .ok_or_else(|| Failure::new("a subtask", "nothing").requirement("03-R21"))?;
    if !first.answer.is_ok() {
        return Err(Failure::new(format!("{new} = Ok(..)"), first.answer.show())
            .step(format!("{new} refused a valid configuration"))
            .requirement("03-R21"));
    }
    // The driver stops early only after a panic, which every arm below rejects.
    let ended = seen
        .last()
        .is_some_and(|s| matches!(s.answer, Answer::Panicked(_)));
    if seen.len() > ops.len() + 1 || (seen.len() <= ops.len() && !ended) {
        return Err(Failure::incomplete_record(ops.len() + 1, seen.len()));
    }
    expect_groups(&model, &new, first)?;
    expect_state(&model, &new, first, "03-R4", "a new subtask holds no state")?;
    for (n, (op, seen)) in (1usize..).zip(ops.iter().zip(&seen[1..])) {
        let call = format!("step {n}, {}", op.code(maxp));
        let before = model.describe();
        let at = |why: String| format!("{call} on {before}: {why}");
        match op {
            Op::Count(key) | Op::Remove(key) | Op::Zero(key) => {
                let owned = owns(model.at, maxp, key);
                let group = model.group(key);
                if owned != seen.answer.is_ok() || matches!(seen.answer, Answer::Panicked(_)) {
                    let want = if owned { "Ok(())" } else { "an error" };
                    let why = if owned {
                        format!(
                            "key {} has key group {group}, which this subtask owns",
                            shown_key(key)
                        )
                    } else {
                        format!(
                            "key {} has key group {group}, which this subtask does not own: the record was misrouted",
                            shown_key(key)
                        )
                    };
                    return Err(Failure::new(want, seen.answer.show())
                        .step(at(why))
                        .requirement("03-R5"));
                }
                if owned {
                    match op {
                        Op::Count(_) => *model.state.entry(key.clone()).or_default() += 1,
                        // A count of 0 is a value like any other: the key stays.
                        Op::Zero(_) => {
                            model.state.insert(key.clone(), 0);
                        }
                        _ => {
                            model.state.remove(key);
                        }
                    }
                    let rule = match op {
                        Op::Zero(_) => {
                            "f returned Some(0): 0 is a value like any other, which the key keeps"
                        }
                        _ => "update applies f to the key's value, and None removes the key",
                    };
                    expect_state(&model, &call, seen, "03-R4", rule)?;
                } else {
                    expect_state(
                        &model,
                        &call,
                        seen,
                        "03-R5",
                        "a refused update leaves the state as it was",
                    )?;
                }
                expect_groups(&model, &call, seen)?;
            }
            Op::Restore { at: to, feed } => {
                if let Some(of) = seen.unsnapshotted {
                    return Err(Failure::new("the snapshot's bytes", seen.answer.show())
                        .step(at(format!(
                            "{} failed, so restore was never called: a subtask's snapshot holds its keyed state, whatever that state is",
                            of.describe()
                        )))
                        .requirement("03-R6"));
                }
                let kept: SubtaskCounts = model
                    .state
                    .iter()
                    .filter(|(k, _)| owns(*to, maxp, k))
                    .map(|(k, v)| (k.clone(), *v))
                    .collect();
                let twice = feed.doubles();
                let must_refuse = twice && !kept.is_empty();
                let may_refuse = twice && !model.state.is_empty();
                match &seen.answer {
                    Answer::Ok(()) if must_refuse => {
                        let key = kept.keys().next().cloned().unwrap_or_default();
                        if !seen.state.contains_key(&key) {
                            // Not refused because not kept: the owned key was dropped.
                            return Err(Failure::new(format!("an error (key {} is in both snapshots)", shown_key(&key)), format!("Ok(()) holding {}", shown_state(&seen.state)))
                                .step(at(format!(
                                    "key {} of key group {}, which subtask {} of {} owns, is not restored",
                                    shown_key(&key), model.group(&key), to.index, to.parallelism
                                )))
                                .requirement("03-R7"));
                        }
                        return Err(Failure::new("an error", seen.answer.show())
                            .step(at(format!(
                                "key {} is in both snapshots and subtask {} of {} owns its key group {}: its state would be doubled",
                                shown_key(&key), to.index, to.parallelism, model.group(&key)
                            )))
                            .requirement("03-R8"));
                    }
                    Answer::Ok(()) => {
                        model.at = *to;
                        model.state = kept;
                        expect_state(
                            &model,
                            &call,
                            seen,
                            "03-R7",
                            "restore keeps exactly the keys whose key group it owns, with their values",
                        )?;
                        expect_groups(&model, &call, seen)?;
                    }
                    _ if may_refuse && !matches!(seen.answer, Answer::Panicked(_)) => {
                        expect_state(
                            &model,
                            &call,
                            seen,
                            "03-R7",
                            "after a refused restore the subtask that goes on is the one before it",
                        )?;
                    }
                    answer => {
                        let (id, why) = if seen.same_bytes
                            && model.state.is_empty()
                            && !matches!(answer, Answer::Panicked(_))
                        {
                            // Snapshots of empty subtasks, all the same bytes: nothing in
                            // them says where they were taken, nor holds a key twice.
                            (
                                "03-R7",
                                "these snapshots are the same bytes, of subtasks holding no key: no key is in two of them, and the restored subtask keeps the keys it owns, none".to_owned(),
                            )
                        } else if to.parallelism == model.at.parallelism {
                            ("03-R7", "nothing in these snapshots is refused".to_owned())
                        } else {
                            (
                                "03-R6",
                                format!(
                                    "a snapshot taken at parallelism {} restores at any parallelism, here {}",
                                    model.at.parallelism, to.parallelism
                                ),
                            )
                        };
                        let id = if must_refuse { "03-R8" } else { id };
                        // An arithmetic overflow is the formulas' (in `u32`), whatever the
                        // restore was asked: the rule it breaks is to compute them in `u64`.
                        let (id, why) = match answer {
                            Answer::Panicked(message) if message.contains("overflow") => (
                                "03-R24",
                                format!(
                                    "the restore overflowed ({message}): at max_parallelism {}, a key group times a parallelism is past u32::MAX; compute the formulas in u64",
                                    model.maxp
                                ),
                            ),
                            _ => (id, why),
                        };
                        return Err(Failure::new(
                            format!("Ok(..) holding {}", shown_state(&kept)),
                            answer.show(),
                        )
                        .step(at(why))
                        .requirement(id));
                    }
                }
            }
        }
    }
    Ok(())
}

fn expect_state(
    model: &Model,
    call: &str,
    seen: &Seen,
    id: &'static str,
    rule: &str,
) -> Result<(), Failure> {
    if seen.state == model.state {
        return Ok(());
    }
    Err(Failure::new(
        format!("state() = {}", shown_state(&model.state)),
        format!("state() = {}", shown_state(&seen.state)),
    )
    .step(format!(
        "right after {call}, the state is {}: {rule}",
        shown_state(&seen.state)
    ))
    .requirement(id))
}

fn expect_groups(model: &Model, call: &str, seen: &Seen) -> Result<(), Failure> {
    let (start, end) = model.range(model.at);
    if seen.key_groups == (start, end) {
        return Ok(());
    }
    let (s, e) = seen.key_groups;
    Err(Failure::new(
        format!("key_groups() = {start}..={end}"),
        format!("key_groups() = {s}..={e}"),
    )
    .step(format!(
        "right after {call}, subtask {} of {} says it owns {s}..={e}: key_groups() is the range of its index",
        model.at.index, model.at.parallelism
    ))
    .requirement("03-R3"))
}

/// A snapshot's answer as a report shows it: its bytes as a string literal, or the error.
fn shown(answer: &Answer<Vec<u8>>) -> String {
    match answer {
        Answer::Ok(bytes) => format!("b\"{}\"", crate::stage03::key_text(bytes)),
        other => other.show(),
    }
}

/// `Ok` when the new subtasks `subtasks` (at `maxp`) all wrote the same bytes: their
/// keyed state is the same (none), and a snapshot holds only the keyed state, not the
/// index nor the parallelism (03-R6).
pub fn judge_empty_snapshots(
    maxp: u32,
    subtasks: &[At],
    snapshots: &[Answer<Vec<u8>>],
) -> Result<(), Failure> {
    let new = |at: &At| {
        format!(
            "KeyedSubtask::new({}, {}, {maxp})",
            at.index, at.parallelism
        )
    };
    for (at, answer) in subtasks.iter().zip(snapshots) {
        if !answer.is_ok() {
            return Err(Failure::new(
                format!("{}.snapshot() = Ok(..)", new(at)),
                answer.show(),
            )
            .step(format!(
                "{} or its snapshot() failed: a valid subtask, and an empty state is a state like any other",
                new(at)
            ))
            .requirement("03-R6"));
        }
    }
    let (Some(first_at), Some(first)) = (subtasks.first(), snapshots.first()) else {
        return Ok(());
    };
    for (at, answer) in subtasks.iter().zip(snapshots).skip(1) {
        if answer != first {
            return Err(Failure::new(
                format!(
                    "{}.snapshot() = {}, the bytes of {}.snapshot()",
                    new(at),
                    shown(first),
                    new(first_at)
                ),
                format!("{}.snapshot() = {}", new(at), shown(answer)),
            )
            .step(format!(
                "{} writes {}, {} writes {}: both hold no key, and a snapshot holds only the keyed state, not the index nor the parallelism",
                new(first_at),
                shown(first),
                new(at),
                shown(answer)
            ))
            .requirement("03-R6"));
        }
    }
    if snapshots.len() != subtasks.len() {
        return Err(Failure::new(
            format!("{} snapshots", subtasks.len()),
            format!("{} snapshots", snapshots.len()),
        )
        .requirement("03-R6"));
    }
    Ok(())
}

/// Two snapshots of the same keyed state must be the same bytes (03-R6, and the brief's
/// "no `HashMap` in anything observable").
pub fn judge_twin_snapshots(snapshots: &[Answer<Vec<u8>>]) -> Result<(), Failure> {
    match snapshots {
        [Answer::Ok(first), Answer::Ok(second)] if first == second => Ok(()),
        [first @ Answer::Ok(_), second @ Answer::Ok(_)] => {
            Err(Failure::new(format!("the same bytes twice: {}", shown(first)), shown(second))
                .step(
                    "the two subtasks counted the same keys in the same order and hold the same state, but their snapshots differ: bytes written in a map's own order (a HashMap's) are not deterministic",
                )
                .requirement("03-R6"))
        }
        _ => Err(Failure::new(
            "two snapshots, Ok(..) each",
            snapshots.iter().map(shown).collect::<Vec<_>>().join(", "),
        )
        .requirement("03-R6")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_that_stops_before_its_calls_without_a_panic_is_refused() {
        let start = At {
            index: 0,
            parallelism: 1,
        };
        let fresh = Seen {
            answer: Answer::Ok(()),
            state: SubtaskCounts::new(),
            key_groups: (0, 3),
            same_bytes: false,
            unsnapshotted: None,
        };
        let failure = judge_contract(4, start, &[Op::Count("a".into())], &[fresh])
            .expect_err("one reading for a fresh subtask and one call");
        assert!(failure.requirement.is_none(), "{failure:?}");
    }
}
