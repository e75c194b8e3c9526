//! The model of a generator's and a combiner's contract, and the judge that walks a
//! sequence with it: it encodes only what the brief fixes (04-R1, R2, R7 to R10, R12 to
//! R14, R16), and where a reading differs it names the rule that explains it.

use super::{Op, Reading, Subject};
use crate::harness::Failure;
use crate::harness::arguments::contains_name;
use crate::stage03::guard::Answer;
use crate::stage04::oracle;

/// `Ok` when every reading is what the model allows.
pub fn judge_contract(subject: Subject, ops: &[Op], readings: &[Reading]) -> Result<(), Failure> {
    // The driver stops early only after a reading that ends the run (a combiner `new`
    // refuses leaves no reading at all, which its judge rejects).
    if readings.len() > ops.len() + 1 {
        return Err(Failure::incomplete_record(ops.len() + 1, readings.len()));
    }
    let ended = match readings.len() {
        0 => matches!(subject, Subject::Combiner { .. }),
        n => readings[n - 1].ends_the_run(n.checked_sub(2).map(|k| ops[k]), subject),
    };
    if readings.len() <= ops.len() && !ended {
        return Err(Failure::incomplete_record(ops.len() + 1, readings.len()));
    }
    match subject {
        Subject::Generator { max_delay } => judge_generator(max_delay, ops, readings),
        Subject::Combiner { inputs } => judge_combiner(inputs, ops, readings),
    }
}

fn wrong(expected: String, actual: String, step: String, id: &'static str) -> Failure {
    Failure::new(expected, actual).step(step).requirement(id)
}

fn judge_generator(max_delay: u64, ops: &[Op], readings: &[Reading]) -> Result<(), Failure> {
    let mut max_ts: Option<u64> = None;
    let mut after_crash = false;
    for (n, reading) in readings.iter().enumerate() {
        let call = match n {
            0 => "before any record".to_owned(),
            _ => format!("step {n}, {}", ops[n - 1].code()),
        };
        if n > 0 {
            match (ops[n - 1], &reading.answer) {
                (Op::Event(ts), Answer::Ok(_)) => max_ts = max_ts.max(Some(ts)),
                (Op::Event(ts), answer) => {
                    return Err(wrong(
                        "on_event returns".into(),
                        answer.show(),
                        format!(
                            "{call}: on_event({ts}) with max_delay {max_delay} panicked: every timestamp and max_delay up to u64::MAX is valid"
                        ),
                        "04-R16",
                    ));
                }
                (_, Answer::Ok(_)) => after_crash = true,
                (_, answer) => {
                    return Err(wrong(
                        "snapshot() and restore(..) succeed".into(),
                        answer.show(),
                        format!("{call} failed"),
                        "04-R13",
                    ));
                }
            }
        }
        let want = oracle::watermark(max_ts, max_delay);
        if let Some(panic) = &reading.current_panic {
            let (id, why) = match (after_crash, max_ts) {
                (true, _) => ("04-R13", "a restored generator reads as the original"),
                (false, None) => ("04-R2", "no record yet: nothing to promise"),
                (false, Some(_)) => (
                    "04-R16",
                    "every timestamp and max_delay up to u64::MAX is valid",
                ),
            };
            return Err(wrong(
                format!("current_watermark() = {want:?}"),
                format!("current_watermark() panicked: {panic}"),
                format!("right after {call}, with max_delay {max_delay}: {why}"),
                id,
            ));
        }
        if reading.current != want {
            let id = match (after_crash, want) {
                (true, _) => "04-R13",
                (false, None) => "04-R2",
                (false, Some(_)) => "04-R1",
            };
            let why = match (max_ts, want) {
                (None, _) => "no record yet: nothing to promise".to_owned(),
                (Some(m), None) => format!("max_ts {m} <= max_delay {max_delay}: None"),
                (Some(m), Some(w)) => format!("{m} - {max_delay} - 1 = {w}"),
            };
            return Err(wrong(
                format!("current_watermark() = {want:?}"),
                format!("current_watermark() = {:?}", reading.current),
                format!("right after {call}: {why}"),
                id,
            ));
        }
    }
    Ok(())
}

/// The combined watermark of `marks`: the minimum once every input has reported.
fn minimum(marks: &[Option<u64>]) -> Option<u64> {
    marks
        .iter()
        .copied()
        .collect::<Option<Vec<u64>>>()?
        .into_iter()
        .min()
}

fn judge_combiner(inputs: usize, ops: &[Op], readings: &[Reading]) -> Result<(), Failure> {
    if readings.is_empty() {
        return Err(wrong(
            format!("CombinedWatermark::new({inputs}) = Ok(..)"),
            "an error".into(),
            format!("{inputs} inputs are valid"),
            "04-R11",
        ));
    }
    // The brief's model, and beside it one where an input is where it last said (to
    // tell 04-R9 from the other rules when a reading differs).
    let mut marks: Vec<Option<u64>> = vec![None; inputs];
    let mut latest: Vec<Option<u64>> = vec![None; inputs];
    let mut last: Option<u64> = None;
    let mut after_crash = false;
    // The first call refused for an input that does not exist. Sequences are enumerated
    // shortest first, so when a reading after it is the first wrong one, the same
    // sequence without that call (shorter, judged before) passed: the refused call
    // changed something, where it must change nothing (04-R12).
    let mut refused_at: Option<usize> = None;
    for (n, reading) in readings.iter().enumerate() {
        let call = match n {
            0 => "before any watermark".to_owned(),
            _ => format!("step {n}, {}", ops[n - 1].code()),
        };
        let state = format!(
            "the inputs' watermarks {marks:?}, the combined watermark reported last {last:?}"
        );
        if n > 0 {
            match ops[n - 1] {
                Op::Mark(input, ts) if input >= inputs => {
                    let named =
                        matches!(&reading.answer, Answer::Err(e) if contains_name(e, "input"));
                    if !named {
                        return Err(wrong(
                            "an error naming `input`".into(),
                            reading.answer.show(),
                            format!(
                                "{call} on a combiner of {inputs} inputs: input {input} does not exist"
                            ),
                            "04-R12",
                        ));
                    }
                    let _ = ts;
                    refused_at.get_or_insert(n);
                }
                Op::Mark(input, ts) => {
                    marks[input] = marks[input].max(Some(ts));
                    latest[input] = Some(ts);
                    let combined = minimum(&marks);
                    let want = match (combined, last) {
                        (Some(c), Some(l)) if c <= l => None,
                        (Some(c), _) => Some(c),
                        (None, _) => None,
                    };
                    if reading.answer != Answer::Ok(want) {
                        let by_latest = minimum(&latest).filter(|c| last.is_none_or(|l| *c > l));
                        let id = if refused_at.is_some() {
                            "04-R12"
                        } else if after_crash {
                            "04-R14"
                        } else if combined.is_none() {
                            "04-R8"
                        } else if latest != marks && reading.answer == Answer::Ok(by_latest) {
                            "04-R9"
                        } else {
                            "04-R7"
                        };
                        return Err(wrong(
                            format!("{want:?}"),
                            reading.answer.show(),
                            format!(
                                "{call}, with {state} before it: the combined watermark is now {combined:?}, so it returns {want:?}{}",
                                refused(refused_at)
                            ),
                            id,
                        ));
                    }
                    last = last.max(want);
                }
                Op::Event(_) => {}
                Op::Crash => {
                    if !reading.answer.is_ok() {
                        return Err(wrong(
                            "snapshot() and restore(..) succeed".into(),
                            reading.answer.show(),
                            format!("{call} failed"),
                            "04-R13",
                        ));
                    }
                    after_crash = true;
                }
            }
        }
        if let Some(panic) = &reading.current_panic {
            return Err(wrong(
                format!("current() = {last:?}"),
                format!("current() panicked: {panic}"),
                format!(
                    "right after {call}: current() is the combined watermark reported last{}",
                    refused(refused_at)
                ),
                reading_rule(refused_at, after_crash),
            ));
        }
        if reading.current != last {
            return Err(wrong(
                format!("current() = {last:?}"),
                format!("current() = {:?}", reading.current),
                format!(
                    "right after {call}: current() is the combined watermark reported last{}",
                    refused(refused_at)
                ),
                reading_rule(refused_at, after_crash),
            ));
        }
    }
    Ok(())
}

/// The rule a wrong `current()` breaks: the refused call's, the restore's, or its own.
fn reading_rule(refused_at: Option<usize>, after_crash: bool) -> &'static str {
    if refused_at.is_some() {
        "04-R12"
    } else if after_crash {
        "04-R14"
    } else {
        "04-R10"
    }
}

/// What a wrong reading after a refused call says of it (nothing without one).
fn refused(refused_at: Option<usize>) -> String {
    refused_at.map_or(String::new(), |k| {
        format!("; the call refused at step {k} came before it, and a refused call changes nothing")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_that_stops_before_its_calls_without_an_error_is_refused() {
        let fresh = Reading {
            answer: Answer::Ok(None),
            current: None,
            current_panic: None,
        };
        let generator = Subject::Generator { max_delay: 0 };
        assert!(judge_contract(generator, &[], std::slice::from_ref(&fresh)).is_ok());
        for readings in [&[][..], std::slice::from_ref(&fresh)] {
            let failure = judge_contract(generator, &[Op::Event(5)], readings).unwrap_err();
            assert!(failure.requirement.is_none(), "{failure:?}");
        }
        let combiner = Subject::Combiner { inputs: 1 };
        let failure = judge_contract(combiner, &[Op::Crash], &[fresh]).unwrap_err();
        assert!(failure.requirement.is_none(), "{failure:?}");
        // A combiner `new` refused leaves no reading: that is its judge's to name.
        let failure = judge_contract(combiner, &[Op::Crash], &[]).unwrap_err();
        assert_eq!(failure.requirement, Some("04-R11"));
    }

    #[test]
    fn a_read_back_that_panics_is_judged_as_itself_wherever_it_is() {
        let panicked = |answer| Reading {
            answer,
            current: None,
            current_panic: Some("attempt to subtract with overflow".to_owned()),
        };
        let fine = |current| Reading {
            answer: Answer::Ok(None),
            current,
            current_panic: None,
        };
        let generator = Subject::Generator { max_delay: 2 };
        let fresh = judge_contract(generator, &[Op::Event(5)], &[panicked(Answer::Ok(None))]);
        let fresh = fresh.unwrap_err();
        assert_eq!(fresh.requirement, Some("04-R2"));
        assert!(
            fresh.actual.contains("current_watermark() panicked"),
            "{fresh:?}"
        );
        let after = judge_contract(
            generator,
            &[Op::Event(5), Op::Crash],
            &[fine(None), panicked(Answer::Ok(None))],
        )
        .unwrap_err();
        assert_eq!(after.requirement, Some("04-R16"));
        assert!(
            after
                .first_wrong_step
                .as_deref()
                .unwrap_or("")
                .contains("on_event(5)"),
            "{after:?}"
        );
        let restored = judge_contract(
            generator,
            &[Op::Event(5), Op::Crash],
            &[fine(None), fine(Some(2)), panicked(Answer::Ok(None))],
        )
        .unwrap_err();
        assert_eq!(restored.requirement, Some("04-R13"));
        let combiner = Subject::Combiner { inputs: 2 };
        let refused = judge_contract(
            combiner,
            &[Op::Mark(2, 1)],
            &[fine(None), panicked(Answer::Err("no input 2".to_owned()))],
        )
        .unwrap_err();
        assert_eq!(refused.requirement, Some("04-R12"));
        assert!(refused.actual.contains("current() panicked"), "{refused:?}");
    }
}
