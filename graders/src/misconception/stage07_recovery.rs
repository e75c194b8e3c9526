//! Stage 07's cards on what the store's "latest" means: the checkpoint completed last, or
//! the one furthest into the input, taken for the latest (and the predicates other
//! stage-07 cards read store calls with).

use super::{Card, Clue, Signature, Symptom, between};

/// The store operation a `store` failure names, and the operations before it.
fn store_op<'a>(s: &Symptom<'a>) -> Option<(&'a str, Vec<&'a str>)> {
    let op = between(s.step, " (", ") after [")?;
    let before = between(s.step, ") after [", "]")?;
    Some((op, before.split(", ").filter(|o| !o.is_empty()).collect()))
}

/// The id of an operation written `Save(1)` or `Complete(1)`, if it is of that kind.
fn id_of(op: &str, kind: &str) -> Option<u64> {
    between(op, &format!("{kind}("), ")")?.parse().ok()
}

/// `latest_completed()` answered the checkpoint the operation just completed, where a
/// higher completed id was to be answered: the last completion taken for the latest.
pub(super) fn last_completion_answered(s: &Symptom) -> bool {
    let id = |text: &str| -> Option<u64> { between(text, "checkpoint ", ",")?.parse().ok() };
    let completed = store_op(s).and_then(|(op, _)| id_of(op, "Complete"));
    matches!(
        (completed, id(s.expected), id(s.actual)),
        (Some(c), Some(e), Some(a)) if a == c && a < e
    )
}

/// `latest_completed()` answered a checkpoint with a lower id but a higher offset than the
/// one to be answered: checkpoints ranked by offset.
pub(super) fn higher_offset_answered(s: &Symptom) -> bool {
    let checkpoint = |text: &str| -> Option<(u64, u64)> {
        let id = between(text, "checkpoint ", ",")?.parse().ok()?;
        let offset = between(text, "offset ", ",")?.parse().ok()?;
        Some((id, offset))
    };
    matches!(
        (checkpoint(s.expected), checkpoint(s.actual)),
        (Some((e, eo)), Some((a, ao))) if a < e && ao > eo
    )
}

/// A second save of an id still in flight (saved, never completed) was refused.
pub(super) fn in_flight_resave_refused(s: &Symptom) -> bool {
    let Some((op, before)) = store_op(s) else {
        return false;
    };
    s.step.contains("a valid call failed")
        && id_of(op, "Save").is_some_and(|id| {
            before.iter().any(|o| id_of(o, "Save") == Some(id))
                && !before.iter().any(|o| id_of(o, "Complete") == Some(id))
        })
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "07-latest-is-the-last-completed",
        stage: 7,
        title: "The latest checkpoint is the one that completed last",
        why: "Completions need not come in id order: latest_completed() returns the completed \
              checkpoint with the highest id, the one that covers the longest prefix of the \
              input. One that completed last but has a lower id replays records a newer \
              completed checkpoint already holds.",
        reread: "Task",
        signatures: &[Signature {
            check: "store",
            fault: "wrong result",
            clues: &[Clue::Test(
                last_completion_answered,
                "the checkpoint completed last answered",
            )],
        }],
    },
    Card {
        id: "07-latest-is-the-furthest-offset",
        stage: 7,
        title: "The latest checkpoint is the one furthest into the input",
        why: "The store ranks checkpoints by id: latest_completed() returns the completed \
              checkpoint with the highest id. The offset is the source's position, which the \
              store only keeps: in this job it grows with the id, but a store that ranks by it \
              answers another question, and hands out another checkpoint than the latest \
              wherever the offsets do not follow the ids.",
        reread: "Task",
        signatures: &[Signature {
            check: "store",
            fault: "wrong result",
            clues: &[Clue::Test(
                higher_offset_answered,
                "a lower id at a higher offset answered",
            )],
        }],
    },
];
