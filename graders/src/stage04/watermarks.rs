//! Judges watermarks against the formula, the lateness rule and the running minimum:
//! the generator's watermark after each record, the stream with watermarks, the split
//! of late records, and the combined watermark of several inputs.

use super::{Element, oracle};
use crate::harness::Failure;

pub(super) fn judge_watermarks(
    arrivals: &[(u64, u32)],
    max_delay: u64,
    restore: &Result<(), String>,
    got: &[Option<u64>],
) -> Result<(), Failure> {
    if let Err(e) = restore {
        return Err(Failure::new("a generator", format!("Err({e})"))
            .step(format!(
                "{e}: every timestamp and max_delay up to u64::MAX is valid"
            ))
            .requirement("04-R16"));
    }
    let edge = max_delay == u64::MAX || arrivals.iter().any(|(ts, _)| *ts >= u64::MAX - 1);
    let mut want = vec![None];
    want.extend(oracle::watermarks(arrivals, max_delay));
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        if w == g {
            continue;
        }
        let step = if i == 0 {
            "a generator that has seen no record has no watermark".to_owned()
        } else {
            let max_ts = arrivals[..i].iter().map(|(ts, _)| *ts).max().unwrap_or(0);
            let why = match w {
                Some(w) => format!("{max_ts} - {max_delay} - 1 = {w}"),
                None => format!("None, since max_ts {max_ts} <= max_delay {max_delay}"),
            };
            format!(
                "after record {i} (timestamp {}), current_watermark() is {g:?}; the largest timestamp so far is {max_ts}, so it must be {why}",
                arrivals[i - 1].0
            )
        };
        let id = match w {
            _ if edge => "04-R16",
            None => "04-R2",
            Some(_) => "04-R1",
        };
        return Err(Failure::new(format!("{want:?}"), format!("{got:?}"))
            .step(step)
            .requirement(id));
    }
    if want.len() != got.len() {
        return Err(Failure::new(
            format!("{} readings", want.len()),
            format!("{} readings", got.len()),
        )
        .requirement("04-R1"));
    }
    Ok(())
}

fn show(elements: &[Element]) -> String {
    let shown: Vec<String> = elements.iter().map(Element::to_string).collect();
    format!("[{}]", shown.join(", "))
}

pub(super) fn judge_stream(
    arrivals: &[(u64, u32)],
    max_delay: u64,
    got: &[Element],
) -> Result<(), Failure> {
    let want = oracle::with_watermarks(arrivals, max_delay);
    if want == got {
        return Ok(());
    }
    let n = want
        .iter()
        .zip(got)
        .position(|(w, g)| w != g)
        .unwrap_or(want.len().min(got.len()));
    let last_emitted = got[..n].iter().rev().find_map(|e| match e {
        Element::Watermark(wm) => Some(*wm),
        Element::Record(..) => None,
    });
    let prefix = show(&got[..n]);
    let step = match (want.get(n), got.get(n)) {
        (_, Some(Element::Watermark(wm))) if last_emitted.is_some_and(|last| *wm <= last) => {
            format!(
                "after {prefix} came W({wm}), but the last watermark emitted was W({}): a watermark is emitted only when it advances",
                last_emitted.unwrap_or_default()
            )
        }
        (Some(w), Some(g)) => format!("after {prefix} came {g}, expected {w}"),
        (Some(w), None) => format!("the stream ends after {prefix}; expected {w} next"),
        (None, Some(g)) => format!("after {prefix}, which is complete, came {g}"),
        (None, None) => "the streams differ".to_owned(),
    };
    let records = |elements: &[Element]| -> Vec<Element> {
        elements
            .iter()
            .filter(|e| matches!(e, Element::Record(..)))
            .cloned()
            .collect()
    };
    if records(&want) != records(got) {
        let step = format!(
            "the records must come out in arrival order, {}, but come out as {}",
            show(&records(&want)),
            show(&records(got))
        );
        return Err(Failure::new(show(&want), show(got))
            .step(step)
            .requirement("04-R3"));
    }
    Err(Failure::new(show(&want), show(got))
        .step(step)
        .requirement("04-R4"))
}

/// Judges `split_late` of `stream`; `generated` is the arrivals and bound it was made of,
/// when it was.
/// `split_late(stream)` returned rather than panicked: at the edge of `u64` a panic
/// breaks "every timestamp up to `u64::MAX` is valid" (04-R16), anywhere else the split
/// itself (04-R5).
pub(super) fn split_returned(stream: &[Element], panicked: Option<&str>) -> Result<(), Failure> {
    let Some(message) = panicked else {
        return Ok(());
    };
    let edge = stream.iter().any(|e| match *e {
        Element::Record(ts, _) | Element::Watermark(ts) => ts >= u64::MAX - 1,
    });
    Err(
        Failure::new("on-time and late records", format!("panicked: {message}"))
            .step(format!("split_late({}) panicked: {message}", show(stream)))
            .requirement(if edge { "04-R16" } else { "04-R5" }),
    )
}

pub(super) fn judge_split(
    stream: &[Element],
    generated: Option<(&[(u64, u32)], u64)>,
    on_time: &[(u64, u32)],
    late: &[(u64, u32)],
) -> Result<(), Failure> {
    let (want_on_time, want_late) = oracle::split_late(stream);
    if want_on_time == on_time && want_late == late {
        return Ok(());
    }
    let mut seen: Option<u64> = None;
    let mut step = format!(
        "the records must come out in stream order, on time {want_on_time:?} and late {want_late:?}"
    );
    let mut rule_id = "04-R5";
    for element in stream {
        match *element {
            Element::Watermark(wm) => seen = seen.max(Some(wm)),
            Element::Record(ts, id) => {
                let is_late = seen.is_some_and(|wm| ts <= wm);
                let called_late = late.contains(&(ts, id));
                let called_on_time = on_time.contains(&(ts, id));
                if called_late != is_late || called_on_time == is_late {
                    let rule = match seen {
                        Some(wm) if is_late => format!("W({wm}) came before it and {ts} <= {wm}"),
                        Some(wm) => format!("the largest watermark before it is W({wm}) < {ts}"),
                        None => "no watermark came before it".to_owned(),
                    };
                    let bound = match generated {
                        Some((arrivals, max_delay))
                            if oracle::within_bound(arrivals, max_delay) =>
                        {
                            format!(
                                " (this order stays within max_delay {max_delay}: nothing is late)"
                            )
                        }
                        _ => String::new(),
                    };
                    rule_id = "04-R6";
                    step = format!(
                        "record (ts {ts}, id {id}) must be {}: {rule}{bound}",
                        if is_late { "late" } else { "on time" }
                    );
                    break;
                }
            }
        }
    }
    Err(Failure::new(
        format!("on time {want_on_time:?}, late {want_late:?}"),
        format!("on time {on_time:?}, late {late:?}"),
    )
    .step(format!("in {}: {step}", show(stream)))
    .requirement(rule_id))
}

pub(super) fn judge_combined(
    inputs: usize,
    interleaving: &[(usize, u64)],
    restore: &Result<(), String>,
    got: &[Result<Option<u64>, String>],
    current: &[Option<u64>],
) -> Result<(), Failure> {
    if let Err(e) = restore {
        return Err(Failure::new("a combiner", format!("Err({e})")).requirement("04-R11"));
    }
    let want = oracle::combined(inputs, interleaving);
    let mut marks: Vec<Option<u64>> = vec![None; inputs];
    let mut taken_back = TakenBack::new(inputs);
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        let (input, ts) = interleaving[i];
        let silent_before = marks.iter().any(Option::is_none);
        let regressed = marks[input].is_some_and(|m| ts < m);
        marks[input] = marks[input].max(Some(ts));
        let if_taken_back = taken_back.on_watermark(input, ts);
        if g.as_ref() == Ok(w) {
            continue;
        }
        // The report that completes the inputs always advances the combined watermark
        // (from none to their minimum): no watermark there is "every input has reported"
        // missed (04-R8), a wrong one is a wrong minimum (04-R7).
        let completes = silent_before && marks.iter().all(Option::is_some);
        let completion_missed = completes && !matches!(g, Ok(Some(_)));
        let id = if regressed && g.is_err() {
            // A smaller watermark refused: it changes nothing, so it is no error either
            // (04-R9), whether or not every input has reported.
            "04-R9"
        } else if marks.iter().any(Option::is_none) || completion_missed {
            "04-R8"
        } else if matches!(g, Ok(v) if if_taken_back.contains(v)) {
            // What came out is what a combiner that lets a smaller watermark replace a
            // larger one says here: the input's promise was taken back (04-R9).
            "04-R9"
        } else {
            "04-R7"
        };
        let minimum = marks.iter().flatten().min().copied().unwrap_or_default();
        let panicked = matches!(g, Err(e) if e.starts_with("panicked"));
        let state = if panicked {
            // Said apart from the silent inputs: a panic is no belief about them.
            format!(
                "input {input} is one of the {inputs} inputs and any watermark is valid, so                  the call returns, never panics"
            )
        } else if completion_missed {
            format!(
                "input {input} was the last of the {inputs} inputs yet to report: every input has now reported, so the combined watermark is their minimum, {minimum}, reported in this call"
            )
        } else if marks.iter().any(Option::is_none) {
            let silent: Vec<usize> = (0..inputs).filter(|&j| marks[j].is_none()).collect();
            format!("inputs {silent:?} have not reported yet, so there is no combined watermark")
        } else {
            format!(
                "the inputs' watermarks are {:?}, whose minimum is {}; the last combined watermark reported was {:?}",
                marks.iter().flatten().collect::<Vec<_>>(),
                minimum,
                want[..i].iter().rev().flatten().next()
            )
        };
        // Both sides in the notation of the expected readings: `Some(3)`, not `Ok(Some(3))`.
        let shown: Vec<String> = got.iter().map(returned).collect();
        return Err(
            Failure::new(format!("{want:?}"), format!("[{}]", shown.join(", ")))
                .step(format!(
                    "step {} on_watermark({input}, {ts}) returned {}, expected {w:?}: {state}",
                    i + 1,
                    returned(g)
                ))
                .requirement(id),
        );
    }
    if want.len() != got.len() {
        return Err(Failure::new(
            format!("{} results", want.len()),
            format!("{} results", got.len()),
        )
        .requirement("04-R7"));
    }
    // `current()` is the combined watermark emitted last: after step i, the last `Some`
    // among the first i + 1 results.
    for (i, got_current) in current.iter().enumerate() {
        let want_current = want[..=i].iter().rev().flatten().next().copied();
        if *got_current != want_current {
            let (input, ts) = interleaving[i];
            return Err(Failure::new(
                format!("current() = {want_current:?}"),
                format!("current() = {got_current:?}"),
            )
            .step(format!(
                "after step {} on_watermark({input}, {ts}), current() returned {got_current:?}, but the combined watermark emitted last is {want_current:?}",
                i + 1
            ))
            .requirement("04-R10"));
        }
    }
    Ok(())
}

/// A reading in the notation of the expected ones: the value itself, or `Err(..)`.
fn returned(got: &Result<Option<u64>, String>) -> String {
    match got {
        Ok(value) => format!("{value:?}"),
        Err(e) => format!("Err({e})"),
    }
}

/// The two ways a combiner reads when an input's watermark is its *last* report rather
/// than its largest (04-R9 broken): it reports a minimum above the last one reported, or
/// it reports every change of the minimum. What a failing step returned is blamed on
/// 04-R9 only when one of them returns the same there; a re-reported or missing
/// watermark that no taken-back promise explains is 04-R7's.
struct TakenBack {
    last: Vec<Option<u64>>,
    reported: Option<u64>,
    minimum: Option<u64>,
}

impl TakenBack {
    fn new(inputs: usize) -> Self {
        Self {
            last: vec![None; inputs],
            reported: None,
            minimum: None,
        }
    }

    /// Both readings of `on_watermark(input, ts)`.
    fn on_watermark(&mut self, input: usize, ts: u64) -> [Option<u64>; 2] {
        self.last[input] = Some(ts);
        let minimum = if self.last.iter().all(Option::is_some) {
            self.last.iter().flatten().min().copied()
        } else {
            None
        };
        let above_reported = (minimum > self.reported).then_some(minimum).flatten();
        self.reported = self.reported.max(above_reported);
        let changed = (minimum != self.minimum).then_some(minimum).flatten();
        self.minimum = minimum;
        [above_reported, changed]
    }
}
