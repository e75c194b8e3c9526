//! Why one `on_element` answer differs from the model's, in words, and the requirement
//! of the brief it breaks.

use super::case::{Elem, Out, list};
use super::oracle::ModelStep;

/// Why `got` is not what the model emits at step `m`, and the requirement it breaks.
pub(super) fn explain(inputs: &[Vec<Elem>], m: &ModelStep, got: &[Out]) -> (String, &'static str) {
    let why = reason(inputs, m, got);
    let checkpoint = |outs: &[Out]| outs.iter().position(|o| matches!(o, Out::Checkpoint(_)));
    let requirement = match (checkpoint(&m.out), checkpoint(got)) {
        // With one input every barrier completes its checkpoint at once.
        (Some(_), None) if inputs.len() == 1 => "06-R8",
        (Some(_), None) | (None, Some(_)) => "06-R6",
        // The checkpoint comes first, then the buffer (06-R6); the buffer's own order
        // and what its barriers do is the re-feed (06-R7).
        (Some(want), Some(at)) if want != at => "06-R6",
        (Some(_), Some(_)) => "06-R7",
        (None, None) => match (&m.element, m.before.is_blocked(m.input)) {
            (_, true) => "06-R9",
            (Elem::Record(_), false) => "06-R4",
            (Elem::Barrier(_), false) => "06-R5",
        },
    };
    (why, requirement)
}

/// Why `got` is not what the model emits at step `m`, in words.
fn reason(inputs: &[Vec<Elem>], m: &ModelStep, got: &[Out]) -> String {
    let checkpoint = |outs: &[Out]| outs.iter().position(|o| matches!(o, Out::Checkpoint(_)));
    let (c, missing) = m.before.waiting_for();
    let others: Vec<String> = missing
        .iter()
        .filter(|i| **i != m.input)
        .map(ToString::to_string)
        .collect();
    match (checkpoint(&m.out), checkpoint(got)) {
        (Some(_), None) => format!(
            "this is the last Barrier({c}) (every other input has delivered it): Checkpoint({c}) \
             must come out in this very call"
        ),
        (None, Some(_))
            if matches!(m.element, Elem::Barrier(_)) && !m.before.is_blocked(m.input) =>
        {
            format!(
                "a checkpoint came out although input(s) {} have not delivered Barrier({c}) yet: \
                 the snapshot waits for the last barrier, not the first",
                others.join(", ")
            )
        }
        (None, Some(_)) => "a checkpoint came out, but no alignment completes here".to_owned(),
        (Some(at), Some(got_at)) => {
            let early: Vec<&Out> = got[..got_at]
                .iter()
                .filter(|o| !m.out[..at].contains(o))
                .collect();
            if let Some(first) = early.first() {
                format!(
                    "{first} came out before Checkpoint({c}), but it is after Barrier({c}) on its \
                     input: held-back elements are released only after the checkpoint"
                )
            } else {
                let mut want: Vec<&Out> = m.out[at + 1..].iter().collect();
                let mut have: Vec<&Out> = got[got_at + 1..].iter().collect();
                if want != have {
                    want.sort();
                    have.sort();
                    if want == have {
                        "the held-back elements must be re-fed in the order they arrived".to_owned()
                    } else {
                        format!(
                            "right after Checkpoint({c}) the held-back elements must be re-fed as if \
                             arriving now (a held-back barrier blocks its input again): {}",
                            list(&m.out[at + 1..])
                        )
                    }
                } else {
                    format!("expected {}", list(&m.out))
                }
            }
        }
        (None, None) => {
            let blocked = m.before.is_blocked(m.input);
            match (m.out.is_empty(), &m.element) {
                (true, Elem::Record(r)) if blocked => format!(
                    "{r} arrived on input {} while it is blocked (it delivered Barrier({c}), \
                     checkpoint {c} is not complete): it must be held back",
                    m.input
                ),
                (true, Elem::Barrier(b)) if blocked => format!(
                    "B{b} arrived on input {} while it is blocked: it must be held back until \
                     Checkpoint({c})",
                    m.input
                ),
                (true, Elem::Barrier(b)) => format!(
                    "B{b} blocks input {}; nothing comes out until input(s) {} deliver it too",
                    m.input,
                    others.join(", ")
                ),
                (false, Elem::Record(r)) => format!(
                    "{r} arrived on input {}, which is not blocked: it must come straight out{}",
                    m.input,
                    if inputs.len() > 1 {
                        ""
                    } else {
                        " (a single input never waits)"
                    }
                ),
                _ => format!("expected {}", list(&m.out)),
            }
        }
    }
}
