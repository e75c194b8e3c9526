//! The model of one aligner's contract, and the judge that walks a call sequence with
//! it. It encodes only what the brief fixes: where the brief leaves a choice it accepts
//! every allowed answer (a blocked input's barrier out of turn is refused when it
//! arrives, or held back and refused when it is re-fed), and after an error, whose
//! aftermath the brief leaves open, it only demands no panic and that an input that does
//! not exist is never blocked.

use std::collections::{BTreeSet, VecDeque};

use super::{Op, Reading};
use crate::harness::Failure;
use crate::stage03::guard::Answer;
use crate::stage06::case::{Elem, Out, list};
use crate::stage06::driver::{asked, blocked_absent};

/// What the brief fixes about one aligner: the checkpoint being aligned (or the next),
/// the blocked inputs, the held-back arrivals, and each input's last barrier so far.
#[derive(Debug, Clone)]
struct Model {
    inputs: usize,
    next: u64,
    blocked: BTreeSet<usize>,
    held: VecDeque<(usize, Elem)>,
    last: Vec<u64>,
}

/// What one call must answer, and the requirement that fixes it.
enum Expect {
    /// Exactly this output.
    Out(Vec<Out>),
    /// An error.
    Refused,
    /// An error, or `Ok([])` holding the barrier back (the model then holds it).
    RefusedOrHeld,
}

impl Model {
    fn new(inputs: usize, completed: u64) -> Self {
        Self {
            inputs,
            next: completed + 1,
            blocked: BTreeSet::new(),
            held: VecDeque::new(),
            last: vec![completed; inputs],
        }
    }

    /// The answer to `element` on `input` and the requirement it follows; the model moves
    /// on as a correct aligner that answers `Ok` would (a `Refused` leaves it unknown).
    fn on_element(&mut self, input: usize, element: Elem) -> (Expect, &'static str) {
        if input >= self.inputs {
            return (Expect::Refused, "06-R11");
        }
        if self.blocked.contains(&input) {
            if let Elem::Barrier(b) = element {
                if b != self.last[input].saturating_add(1) {
                    return (Expect::RefusedOrHeld, "06-R12");
                }
                self.last[input] = b;
            }
            self.held.push_back((input, element));
            return (Expect::Out(Vec::new()), "06-R9");
        }
        let first = match element {
            Elem::Record(_) => "06-R4",
            Elem::Barrier(b) if b != self.next => return (Expect::Refused, "06-R12"),
            Elem::Barrier(b) => {
                self.last[input] = b;
                "06-R5"
            }
        };
        let mut out = Vec::new();
        let mut arrivals = VecDeque::from([(input, element)]);
        while let Some((input, element)) = arrivals.pop_front() {
            if self.blocked.contains(&input) {
                self.held.push_back((input, element));
                continue;
            }
            match element {
                Elem::Record(r) => out.push(Out::Record(r)),
                // A held-back barrier out of turn, re-fed now: this call must fail.
                Elem::Barrier(b) if b != self.next => return (Expect::Refused, "06-R12"),
                Elem::Barrier(_) => {
                    self.blocked.insert(input);
                    if self.blocked.len() == self.inputs {
                        out.push(Out::Checkpoint(self.next));
                        self.next += 1;
                        self.blocked.clear();
                        let mut released = std::mem::take(&mut self.held);
                        released.append(&mut arrivals);
                        arrivals = released;
                    }
                }
            }
        }
        (Expect::Out(out), first)
    }

    fn describe(&self) -> String {
        let blocked: Vec<String> = self.blocked.iter().map(ToString::to_string).collect();
        let held: Vec<String> = self.held.iter().map(|(_, e)| e.to_string()).collect();
        if blocked.is_empty() {
            format!("expecting Barrier({}), nothing blocked", self.next)
        } else {
            format!(
                "aligning checkpoint {}, input(s) {} blocked, holding back [{}]",
                self.next,
                blocked.join(", "),
                held.join(" ")
            )
        }
    }
}

fn wrong(expected: String, actual: String, step: String, id: &'static str) -> Failure {
    Failure::new(expected, actual).step(step).requirement(id)
}

fn has_checkpoint(outs: &[Out]) -> bool {
    outs.iter().any(|o| matches!(o, Out::Checkpoint(_)))
}

/// `Ok` when every reading is one the model allows.
pub fn judge_contract(
    inputs: usize,
    ops: &[Op],
    readings: &Result<Vec<Reading>, String>,
) -> Result<(), Failure> {
    let readings = readings.as_ref().map_err(|e| {
        wrong(
            format!("BarrierAligner::new({inputs}) = Ok(..)"),
            format!("Err({e})"),
            "only 0 inputs is an error".to_owned(),
            "06-R10",
        )
    })?;
    // The driver records one reading per call and stops only at a panic: a record that
    // stops short without one, or runs past the calls, is not a run of this sequence.
    let ended = readings.last().is_some_and(Reading::ends_the_run);
    if readings.len() > ops.len() + 1 || (readings.len() <= ops.len() && !ended) {
        return Err(Failure::incomplete_record(ops.len() + 1, readings.len()));
    }
    // `None` once the implementation answered an error: the brief leaves what follows open.
    let mut model = Some(Model::new(inputs, 0));
    let mut restored = false;
    // The requirement of the last error answered: what a later panic breaks.
    let mut refused_for = "06-R12";
    for (n, reading) in readings.iter().enumerate() {
        let (call, before) = match n {
            0 => ("the fresh aligner".to_owned(), String::new()),
            _ => (
                format!("step {n}, {}", ops[n - 1].code(inputs, n)),
                model
                    .as_ref()
                    .map_or(String::new(), |m| format!(" (before it: {})", m.describe())),
            ),
        };
        if n > 0 {
            let op = ops[n - 1];
            let after_error = model.is_none();
            let (expect, id) = match (model.as_mut(), op.element(n)) {
                (None, Some((input, _))) if input >= inputs => (Expect::Refused, "06-R11"),
                // After an error only "never panics" is left: a panic breaks the rule of the
                // error that came before it.
                (None, _) => (Expect::RefusedOrHeld, refused_for),
                (Some(m), Some((input, element))) => {
                    let blocked = m.blocked.contains(&input);
                    let (expect, id) = m.on_element(input, element.clone());
                    // A valid call refused after a restore: the restored aligner is wrong.
                    let id = match (&expect, restored && !blocked) {
                        (Expect::Out(_), true) if matches!(element, Elem::Barrier(_)) => "06-R13",
                        _ => id,
                    };
                    (expect, id)
                }
                (Some(m), None) => {
                    *m = Model::new(inputs, m.next - 1);
                    restored = true;
                    (Expect::Out(Vec::new()), "06-R13")
                }
            };
            let why = |what: &str| format!("{call}{before}: {what}");
            match (&expect, &reading.answer) {
                (_, Answer::Panicked(m)) => {
                    return Err(wrong(
                        "an answer (errors, never panics)".into(),
                        format!("panicked: {m}"),
                        why(if after_error {
                            "an earlier call was refused, and the aligner must still answer without panicking"
                        } else {
                            "the aligner must answer without panicking"
                        }),
                        id,
                    ));
                }
                (Expect::Refused, Answer::Ok(got)) => {
                    let what = match id {
                        "06-R11" => format!("input {} does not exist", op.element(n).map_or(0, |e| e.0)),
                        _ => "this barrier is out of turn (every input carries barriers 1, 2, 3, ... in order)".to_owned(),
                    };
                    return Err(wrong(
                        "Err(..)".into(),
                        format!("Ok({})", list(got)),
                        why(&what),
                        id,
                    ));
                }
                (Expect::Refused | Expect::RefusedOrHeld, Answer::Err(_)) => {
                    model = None;
                    refused_for = id;
                }
                (Expect::RefusedOrHeld, Answer::Ok(_)) if after_error => {}
                (Expect::RefusedOrHeld, Answer::Ok(got)) => {
                    if !got.is_empty() {
                        return Err(wrong(
                            "Err(..) or Ok([]) (held back, refused when re-fed)".into(),
                            format!("Ok({})", list(got)),
                            why(
                                "a blocked input's barrier out of turn is an error, or held back like everything a blocked input delivers",
                            ),
                            id,
                        ));
                    }
                    if let (Some(m), Some((input, element))) = (model.as_mut(), op.element(n)) {
                        m.held.push_back((input, element));
                    }
                }
                (Expect::Out(want), Answer::Err(e)) => {
                    return Err(wrong(
                        format!("Ok({})", list(want)),
                        format!("Err({e})"),
                        why("a valid call was refused"),
                        id,
                    ));
                }
                (Expect::Out(want), Answer::Ok(got)) if got != want => {
                    let id = match (has_checkpoint(want), has_checkpoint(got)) {
                        (true, false) if inputs == 1 => "06-R8",
                        (true, false) | (false, true) => "06-R6",
                        (true, true) if restored => "06-R13",
                        (true, true) => "06-R7",
                        (false, false) => id,
                    };
                    return Err(wrong(
                        list(want),
                        list(got),
                        why("the output differs from what the brief fixes"),
                        id,
                    ));
                }
                (Expect::Out(_), Answer::Ok(_)) => {}
            }
        }
        judge_blocked(inputs, ops, n, &call, model.as_ref(), restored, reading)?;
    }
    Ok(())
}

/// `is_blocked` right after step `n`: the model's for every input while it is known, and
/// `false` for the inputs that do not exist always.
fn judge_blocked(
    inputs: usize,
    ops: &[Op],
    n: usize,
    call: &str,
    model: Option<&Model>,
    restored: bool,
    reading: &Reading,
) -> Result<(), Failure> {
    // A call that panicked never gets here (its answer is judged first), so every input
    // of `asked` has an answer or a panic.
    let answers = asked(inputs).count();
    if reading.blocked.len() > answers
        || (reading.blocked.len() < answers && reading.blocked_panic.is_none())
    {
        return Err(
            Failure::incomplete_record(answers, reading.blocked.len()).step(format!(
                "right after {call}: is_blocked answered fewer inputs than asked, and did not panic"
            )),
        );
    }
    if let Some(absent) = blocked_absent(inputs, &reading.blocked) {
        return Err(wrong(
            format!("is_blocked({absent}) = false"),
            format!("is_blocked({absent}) = true"),
            format!("right after {call}: input {absent} does not exist, so it is never blocked"),
            "06-R3",
        ));
    }
    if let Some(m) = model {
        blocked_as_modelled(inputs, ops, n, call, m, restored, reading)?;
    }
    let Some(panic) = &reading.blocked_panic else {
        return Ok(());
    };
    // The driver asks the inputs of `asked` in order and stops at the first panic.
    let i = asked(inputs)
        .nth(reading.blocked.len())
        .unwrap_or(usize::MAX);
    let (want, why) = match model {
        _ if i >= inputs => (
            "false".to_owned(),
            format!("input {i} does not exist, so it is never blocked"),
        ),
        Some(m) => (
            m.blocked.contains(&i).to_string(),
            format!("{}; is_blocked answers for every input", m.describe()),
        ),
        None => (
            "true or false".to_owned(),
            "is_blocked answers for every input, also after an error".to_owned(),
        ),
    };
    Err(wrong(
        format!("is_blocked({i}) = {want}"),
        format!("is_blocked({i}) panicked: {panic}"),
        format!("right after {call}: {why}"),
        "06-R3",
    ))
}

/// The `is_blocked` answers of the inputs that exist, as far as the reading has them,
/// against the model's.
fn blocked_as_modelled(
    inputs: usize,
    ops: &[Op],
    n: usize,
    call: &str,
    m: &Model,
    restored: bool,
    reading: &Reading,
) -> Result<(), Failure> {
    for i in 0..inputs {
        let want = m.blocked.contains(&i);
        let Some(&got) = reading.blocked.get(i) else {
            // `is_blocked(i)` panicked: the caller reports it.
            return Ok(());
        };
        if got == want {
            continue;
        }
        let op = n.checked_sub(1).map(|k| ops[k]);
        let id = match op {
            Some(Op::Crash) => "06-R13",
            Some(Op::Barrier(input, _)) if input == i && want => "06-R5",
            Some(Op::Barrier(..)) if want => "06-R7",
            _ if restored && !want => "06-R13",
            _ => "06-R3",
        };
        return Err(wrong(
            format!("is_blocked({i}) = {want}"),
            format!("is_blocked({i}) = {}", !want),
            format!("right after {call} ({})", m.describe()),
            id,
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a correct aligner of `inputs` with nothing blocked answers to a call.
    fn idle(inputs: usize) -> Reading {
        Reading {
            answer: Answer::Ok(Vec::new()),
            blocked: vec![false; asked(inputs).count()],
            blocked_panic: None,
        }
    }

    #[test]
    fn a_fresh_aligner_whose_is_blocked_panics_for_an_absent_input_breaks_06_r3() {
        let panicked = Reading {
            blocked: vec![false],
            blocked_panic: Some("index out of bounds".to_owned()),
            ..idle(1)
        };
        let failure = judge_contract(1, &[Op::Crash], &Ok(vec![panicked])).unwrap_err();
        assert_eq!(failure.requirement, Some("06-R3"));
        assert_eq!(failure.expected, "is_blocked(1) = false");
    }

    #[test]
    fn a_record_that_stops_before_its_calls_without_a_panic_is_refused() {
        assert!(judge_contract(1, &[Op::Crash], &Ok(vec![idle(1), idle(1)])).is_ok());
        for readings in [vec![idle(1)], vec![idle(1); 3]] {
            let failure = judge_contract(1, &[Op::Crash], &Ok(readings)).unwrap_err();
            assert!(failure.requirement.is_none(), "{failure:?}");
        }
        let short = Reading {
            blocked: vec![false],
            ..idle(1)
        };
        assert!(judge_contract(1, &[], &Ok(vec![short])).is_err());
    }
}
