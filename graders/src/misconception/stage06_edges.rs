//! Stage 06's cards for the contract's edges: every input stopped while one is blocked,
//! a single input taken to need no checkpoint, 0 inputs accepted, unreadable bytes taken
//! for a fresh aligner, a schedule past an input's end taken for its end; and what a
//! snapshot holds (the inputs, the blocked ones, the records after the cut), a blocked
//! input's barrier refused, a message that names nothing, and a barrier after a partial
//! chunk.

use super::{Card, Clue, Signature, Symptom, between};

/// After `restore(n, ..)` of a snapshot of fewer inputs, an element of an input the
/// snapshot did not have (but `n` has) was refused: the snapshot's count was kept.
fn snapshot_inputs_kept(s: &Symptom) -> bool {
    let number =
        |start: &str, end: &str| -> Option<u64> { between(s.step, start, end)?.parse().ok() };
    let restored = number("after restore(", ",");
    let snapshot = number("of the snapshot of ", " inputs");
    let input = number("(input ", " delivers");
    s.step.contains("on_element failed")
        && matches!(
            (restored, snapshot, input),
            (Some(n), Some(m), Some(i)) if m < n && (m..n).contains(&i)
        )
}

/// A snapshot holds the expected records and more after them: the records after the
/// cut were folded in.
fn folded_past_the_cut(s: &Symptom) -> bool {
    let list = |text: &'_ str| -> Option<Vec<String>> {
        let inner = between(text, " = [", "]")?;
        Some(inner.split(", ").map(str::to_owned).collect())
    };
    matches!(
        (list(s.expected), list(s.actual)),
        (Some(e), Some(a)) if a.len() > e.len() && a.starts_with(&e)
    )
}

/// The items of a list written `[a, b, c]`, sorted.
fn sorted_items(text: &str) -> Vec<&str> {
    let mut items: Vec<&str> = text.trim_matches(['[', ']']).split(", ").collect();
    items.sort_unstable();
    items
}

/// The call returned the right elements in another order, its checkpoint still first
/// (released before the checkpoint is another mistake).
pub(super) fn reordered(s: &Symptom) -> bool {
    s.expected.starts_with("[Checkpoint(")
        && s.actual.starts_with("[Checkpoint(")
        && s.expected != s.actual
        && sorted_items(s.expected) == sorted_items(s.actual)
}

/// The input `is_blocked` was asked about had delivered an element by then (the step
/// `step N (...), then is_blocked(i)` against the case's `arrivals`): an input reported
/// blocked before it sent anything holds no belief about checkpoints.
pub(super) fn asked_input_has_arrived(s: &Symptom) -> bool {
    let step: Option<usize> = between(s.step, "step ", " (").and_then(|n| n.parse().ok());
    let input = between(s.step, "is_blocked(", ")");
    let arrivals = s
        .case
        .split_once("arrivals ")
        .map(|(_, rest)| rest.split(';').next().unwrap_or(rest));
    match (step, input, arrivals) {
        (Some(step), Some(input), Some(arrivals)) => arrivals
            .split_whitespace()
            .take(step)
            .any(|arrived| arrived == input),
        _ => false,
    }
}

/// The stream ends with a barrier where the expected one ends with a record.
fn barrier_at_the_end(s: &Symptom) -> bool {
    let last = |text: &str| {
        let inner = text.strip_prefix("stream = [")?.strip_suffix(']')?;
        inner.rsplit(", ").next().map(|l| l.starts_with("Barrier("))
    };
    last(s.actual) == Some(true) && last(s.expected) == Some(false)
}

pub(super) const CARDS: &[Card] = &[
    Card {
        id: "06-stop-the-world",
        stage: 6,
        title: "While one input is blocked, every input waits",
        why: "Only an input that delivered Barrier(c) is past the cut: what the others deliver \
              is still before it, belongs in snapshot c, and must reach the operator now, or \
              the alignment that waits for their barriers stalls the whole job. Stopping the \
              world is what alignment avoids.",
        reread: "Task",
        signatures: &[Signature {
            check: "alignment",
            fault: "wrong result",
            clues: &[
                Clue::Step("which is not blocked: it must come straight out"),
                Clue::Missing(true),
            ],
        }],
    },
    Card {
        id: "06-one-input-needs-no-checkpoint",
        stage: 6,
        title: "With a single input there is nothing to align, so no checkpoint either",
        why: "The checkpoint is what the operator snapshots at: with one input every Barrier(c) \
              is the last one missing, so it gives Checkpoint(c) at once. Without it a \
              single-input job never takes a snapshot.",
        reread: "Task",
        signatures: &[Signature {
            check: "alignment",
            fault: "wrong result",
            clues: &[
                Clue::Step("must come out in this very call"),
                Clue::Not(&Clue::Case("input 1 = ")),
            ],
        }],
    },
    Card {
        id: "06-zero-inputs-are-harmless",
        stage: 6,
        title: "An aligner of 0 inputs is harmless",
        why: "With no input no barrier ever arrives, so no checkpoint ever completes: the job \
              would run without ever taking a snapshot. The brief makes new(0) an error whose \
              message names `inputs`.",
        reread: "Task",
        signatures: &[Signature {
            check: "configuration",
            fault: "wrong result",
            clues: &[Clue::Case("BarrierAligner::new(0)"), Clue::Actual("Ok")],
        }],
    },
    Card {
        id: "06-unreadable-snapshot-is-fresh",
        stage: 6,
        title: "Bytes restore cannot read mean there was no snapshot yet",
        why: "A fresh aligner expects checkpoint 1: restored from bytes that are no snapshot, a \
              job would redo every checkpoint since the start and refuse the barriers its \
              inputs replay. restore of bytes that are not a snapshot is an error.",
        reread: "Task",
        signatures: &[
            Signature {
                check: "configuration",
                fault: "wrong result",
                clues: &[
                    Clue::Case("bytes that are no snapshot"),
                    Clue::Actual("Ok("),
                ],
            },
            Signature {
                check: "configuration",
                fault: "wrong result",
                clues: &[
                    Clue::Step("empty bytes are no snapshot"),
                    Clue::Actual("Ok("),
                ],
            },
        ],
    },
    Card {
        id: "06-schedule-past-the-end-is-the-end",
        stage: 6,
        title: "A schedule that asks past an input's end has simply reached the end",
        why: "The schedule says which input delivers next: naming an input that has nothing left \
              means the schedule and the inputs disagree, and the snapshots would be of a run \
              that never happened. The brief makes it an error.",
        reread: "Task",
        signatures: &[Signature {
            check: "configuration",
            fault: "wrong result",
            clues: &[Clue::Case("has one element"), Clue::Actual("Ok(")],
        }],
    },
    Card {
        id: "06-inputs-are-state",
        stage: 6,
        title: "The number of inputs is state, so a restore keeps the snapshot's",
        why: "A snapshot records the checkpoints completed; the number of inputs is \
              configuration, passed to restore again: a job restored at another parallelism \
              has another number of inputs, and every one of them delivers barriers.",
        reread: "Task",
        signatures: &[Signature {
            check: "crash",
            fault: "wrong result",
            clues: &[Clue::Test(
                snapshot_inputs_kept,
                "an input the snapshot did not have refused",
            )],
        }],
    },
    Card {
        id: "06-blocked-inputs-are-state",
        stage: 6,
        title: "Which inputs are blocked is state, so a restore blocks them again",
        why: "A snapshot holds the checkpoints completed, never an alignment in progress: after \
              a restore every input replays from just after its last completed barrier, so \
              the barrier that blocked it comes again. Blocked from the start, its records \
              before that barrier are held back for nothing.",
        reread: "Task",
        signatures: &[Signature {
            check: "crash",
            fault: "wrong result",
            clues: &[
                Clue::Step("restored from checkpoint"),
                Clue::Step("which is not blocked: it must come straight out"),
                Clue::Missing(true),
            ],
        }],
    },
    Card {
        id: "06-snapshot-after-the-call",
        stage: 6,
        title: "A checkpoint's snapshot can be taken once the call's whole output is folded",
        why: "Checkpoint(c) comes first in the call's output: the elements re-fed after it are \
              past the cut, after Barrier(c) on their input. The state for c is the fold of \
              what came before Checkpoint(c), and only that.",
        reread: "Task",
        signatures: &[Signature {
            check: "aligned-snapshots",
            fault: "wrong result",
            clues: &[
                Clue::Step("must be the fold of exactly the records before Barrier("),
                Clue::Test(folded_past_the_cut, "records after the cut folded in"),
                // An aligner that lets records past its barrier puts them in the snapshot
                // too: only a right aligner leaves the fold to blame.
                Clue::Passes("alignment"),
            ],
        }],
    },
    Card {
        id: "06-blocked-input-sends-no-barrier",
        stage: 6,
        title: "A blocked input cannot deliver its next barrier before the checkpoint completes",
        why: "A fast input may run a whole checkpoint ahead: anything a blocked input delivers \
              is held back, barriers included, and a held-back barrier blocks its input again \
              when it is re-fed after Checkpoint(c).",
        reread: "Task",
        signatures: &[Signature {
            check: "alignment",
            fault: "wrong result",
            clues: &[
                Clue::Step(" delivers B"),
                Clue::Step("on_element failed"),
                Clue::Not(&Clue::Step("restor")),
            ],
        }],
    },
    Card {
        id: "06-any-error-will-do",
        stage: 6,
        title: "Refusing bad arguments is enough; the message is a detail",
        why: "An error is read by whoever has to fix the call: the message of new(0) names the \
              argument, `inputs`, as the brief asks.",
        reread: "Task",
        signatures: &[Signature {
            check: "configuration",
            fault: "wrong result",
            clues: &[Clue::Step("does not say which argument is wrong")],
        }],
    },
    Card {
        id: "06-barrier-after-the-last-chunk",
        stage: 6,
        title: "The last records get a barrier too, even when they do not fill barrier_every",
        why: "Barrier(c) follows record c × barrier_every and nothing else: a partial last \
              chunk has no barrier, and a barrier there would be a checkpoint the job's \
              schedule does not have.",
        reread: "Task",
        signatures: &[Signature {
            check: "inject-barriers",
            fault: "wrong result",
            clues: &[
                Clue::Step("stream has an extra item at"),
                Clue::Test(barrier_at_the_end, "a barrier after the last records"),
            ],
        }],
    },
];
