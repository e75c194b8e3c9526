//! The `rescale` check's malformed states: no old subtask, more old subtasks than key
//! groups, old subtasks with no keys, a key held by two old subtasks (neighbours or not,
//! subtask 0 among them or not),
//! a key on an old subtask that does not own it (also a key that is not UTF-8). The states are built here, key by key, since the
//! learner's own code never builds them.

use serde::{Deserialize, Serialize};

use super::guard::Answer;
use super::{SubtaskCounts, oracle};
use crate::harness::Failure;

/// What is wrong with the old state handed to `rescale`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shape {
    /// No map at all: an old parallelism of 0, an error (03-R14).
    NoOldSubtask,
    /// More maps than key groups: an old parallelism above `max_parallelism` (03-R21).
    AboveMax,
    /// One empty map per old subtask: one empty map per new subtask comes back (03-R11).
    EmptyMaps,
    /// One key in two maps: an error (03-R12).
    Duplicated,
    /// A key in the map of an old subtask that does not own it: moved or refused, never
    /// lost (03-R13).
    Misplaced,
}

impl Shape {
    /// The requirement this shape's state can find broken.
    pub fn requirement(self) -> &'static str {
        match self {
            Shape::NoOldSubtask => "03-R14",
            Shape::AboveMax => "03-R21",
            Shape::EmptyMaps => "03-R11",
            Shape::Duplicated => "03-R12",
            Shape::Misplaced => "03-R13",
        }
    }
}

/// One malformed rescale: the shape, the state, `q` and `maxp`.
pub type Edge = (Shape, Vec<SubtaskCounts>, u32, u32);

/// The first key of `stem` followed by a number whose key group at `maxp` is `group`.
fn key_of(stem: &str, group: u32, maxp: u32) -> String {
    (0..1000)
        .map(|n| format!("{stem}{n}"))
        .find(|k| oracle::key_group(&super::key_bytes(k), maxp) == group)
        .expect("a key of every group among a thousand")
}

/// Every malformed rescale of the plan (the same under every seed).
pub fn edges() -> Vec<Edge> {
    let maxp = 10;
    let empty = SubtaskCounts::new;
    let mut all: Vec<Edge> = vec![
        (Shape::NoOldSubtask, Vec::new(), 1, maxp),
        (Shape::NoOldSubtask, Vec::new(), 3, maxp),
        (Shape::AboveMax, vec![empty(), empty(), empty()], 1, 2),
    ];
    for q in [1, 2, 5] {
        all.push((Shape::EmptyMaps, vec![empty(), empty(), empty()], q, maxp));
    }
    // `upper` has the last key group, owned by the last subtask at every parallelism (so
    // after `2 -> q` old subtask 0 is none of its new owner's parents, for q > 1), `wide`
    // the first, owned by subtask 0 at every parallelism.
    let upper = key_of("K", maxp - 1, maxp);
    let wide = key_of("é", 0, maxp);
    let map = |pairs: &[(&String, u64)]| -> SubtaskCounts {
        pairs.iter().map(|(k, v)| ((*k).clone(), *v)).collect()
    };
    for q in [1, 2, 3] {
        // The key of old subtask 1 sits on old subtask 0, beside one that belongs there.
        // Before the duplicates, the first of which has a copy misplaced too: a rescale
        // that drops misplaced keys is told so, not that it missed a key held twice.
        all.push((
            Shape::Misplaced,
            vec![map(&[(&wide, 2), (&upper, 5)]), empty()],
            q,
            maxp,
        ));
    }
    for q in [1, 3] {
        all.push((
            Shape::Duplicated,
            vec![map(&[(&wide, 2), (&upper, 5)]), map(&[(&upper, 7)])],
            q,
            maxp,
        ));
    }
    // The same value twice is still a key held by two old subtasks: nothing says which
    // copy is the state, and a sum of both would double it.
    all.push((
        Shape::Duplicated,
        vec![map(&[(&upper, 5)]), map(&[(&upper, 5)])],
        1,
        maxp,
    ));
    // The two copies need not sit on neighbouring old subtasks: one key on old subtasks
    // 0 and 2 of 3, with two values, and nothing on old subtask 1 between them.
    all.push((
        Shape::Duplicated,
        vec![map(&[(&upper, 5)]), empty(), map(&[(&upper, 7)])],
        1,
        maxp,
    ));
    // Nor need one copy be on old subtask 0: one key on old subtasks 1 and 2 of 3, and
    // another key alone on 0, so a check against the first map only finds nothing.
    all.push((
        Shape::Duplicated,
        vec![map(&[(&wide, 2)]), map(&[(&upper, 5)]), map(&[(&upper, 7)])],
        1,
        maxp,
    ));
    // Keys are bytes: a key that is not UTF-8, held twice, and on an old subtask that does
    // not own it. Whatever the error says of it, saying it must not panic.
    let raw = key_of("\\xff", maxp - 1, maxp);
    all.push((
        Shape::Duplicated,
        vec![map(&[(&raw, 5)]), map(&[(&raw, 7)])],
        1,
        maxp,
    ));
    all.push((Shape::Misplaced, vec![map(&[(&raw, 5)]), empty()], 2, maxp));
    all
}

/// `Ok` when `rescale`'s answer to the malformed `state` is one the brief allows.
pub fn judge_edge(
    shape: Shape,
    state: &[SubtaskCounts],
    q: u32,
    maxp: u32,
    answer: &Answer<Vec<SubtaskCounts>>,
) -> Result<(), Failure> {
    let id = shape.requirement();
    let call = format!("rescale({state:?}, {q}, {maxp})");
    let refuse = |why: &str| -> Result<(), Failure> {
        match answer {
            Answer::Err(_) => Ok(()),
            // The refusal's own code panicked: the report says the panic is what broke.
            Answer::Panicked(_) => Err(Failure::new("an error", answer.show())
                .step(format!(
                    "{call}: {why}, so it returns an error, and it panicked instead"
                ))
                .requirement(id)),
            Answer::Ok(_) => Err(Failure::new("an error", answer.show())
                .step(format!("{call}: {why}"))
                .requirement(id)),
        }
    };
    let mut want = vec![SubtaskCounts::new(); q as usize];
    for map in state {
        for (key, value) in map {
            want[oracle::owner_of(&super::key_bytes(key), q, maxp) as usize]
                .insert(key.clone(), *value);
        }
    }
    match shape {
        Shape::NoOldSubtask => refuse("no old subtask is a parallelism of 0"),
        Shape::AboveMax => refuse(&format!(
            "{} old subtasks are more than max_parallelism {maxp}",
            state.len()
        )),
        Shape::Duplicated => refuse("a key held by two old subtasks would have its state doubled"),
        Shape::Misplaced if matches!(answer, Answer::Err(_)) => Ok(()),
        Shape::EmptyMaps | Shape::Misplaced => match answer {
            Answer::Ok(got) if *got == want => Ok(()),
            other => {
                let why = match shape {
                    Shape::EmptyMaps => format!(
                        "{} old subtasks holding nothing rescale to {q} new subtasks holding nothing",
                        state.len()
                    ),
                    _ => "a key on an old subtask that does not own it still moves to the new subtask owning its key group (or is refused): never lost".to_owned(),
                };
                Err(Failure::new(format!("Ok({want:?})"), other.show())
                    .step(format!("{call}: {why}"))
                    .requirement(id))
            }
        },
    }
}
