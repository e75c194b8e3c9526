//! Stage 07's cards on what the store's "latest" means: the checkpoint completed last
//! taken for the latest (and the predicates other stage-07 cards read store calls with).

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

pub(super) const CARDS: &[Card] = &[Card {
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
}];
