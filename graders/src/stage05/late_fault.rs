//! Why the operator's answer to `on_record` is wrong, told from its own run: the
//! watermark it held when it took or refused the record, and the results it had fired.
//! The model only decides which answer is right.

use super::explain::{Answered, Fault, record, window_of};
use super::oracle::{Model, windows};
use super::readings::show_windows;
use super::{AssignerSpec, LateRecord, Time};

/// The record the operator was handed: its key and timestamp.
pub struct Handed<'a> {
    /// The record's key.
    pub key: &'a str,
    /// The record's timestamp.
    pub ts: u64,
}

/// Why `got` is not `want` as the answer to `on_record` of `handed`, given the model
/// before the call and what the learner's operator answered before it.
pub fn record_fault(
    spec: AssignerSpec,
    before: &Model,
    handed: &Handed,
    want: Option<&LateRecord>,
    got: Option<&LateRecord>,
    answered: &Answered,
) -> Fault {
    let ts = handed.ts;
    let all = windows(spec, ts);
    let open: Vec<(u64, u64)> = all
        .iter()
        .copied()
        .filter(|w| !before.has_fired(*w))
        .collect();
    // The watermark the operator held, as its current_watermark() reported it; one that
    // is not the largest seen is its first wrong step, so it is said where it differs.
    let held = match (answered.watermark, before.current()) {
        (Some(t), Some(m)) if t == m => format!("with its watermark at W({})", Time(t)),
        (None, None) => "before any watermark".to_owned(),
        (t, Some(m)) => format!(
            "with its current_watermark() at {t:?}, though the largest watermark so far is W({})",
            Time(m)
        ),
        (Some(t), None) => {
            format!("with its current_watermark() at Some({t}), though no watermark came yet")
        }
    };
    // The results of this key the operator fired itself, for the record's windows.
    let fired_here: Vec<String> = answered
        .fired
        .iter()
        .filter(|(f, _)| f.key == handed.key && all.contains(&(f.start, f.end)))
        .map(|(f, at)| format!("{} at W({})", window_of(f), Time(*at)))
        .collect();
    let fired_here = if fired_here.is_empty() {
        String::new()
    } else {
        format!("; the operator itself fired {}", fired_here.join(", "))
    };
    let (ts, wm) = (Time(ts), Time(before.current().unwrap_or_default()));
    match (want, got) {
        (Some(_), None) if all.iter().all(|w| before.fired_empty(*w)) => (
            format!(
                "the operator took it as on time {held}, but every window of timestamp {ts}, {}, fired already (W({wm}) reached its end - 1), though none held a record: a window fires whether or not it held records, so nothing can be added to it, and the record is late",
                show_windows(&all),
            ),
            "05-R4",
        ),
        (Some(_), None) => (
            format!(
                "the operator took it as on time {held}, but every window of timestamp {ts}, {}, fired already (end - 1 <= {wm}){fired_here}: the record is late and counts nowhere",
                show_windows(&all),
            ),
            "05-R6",
        ),
        (None, got) => {
            let got = got.map_or_else(String::new, |g| format!(" Late of {}", record(g)));
            match before.current().map(Time) {
                Some(wm) => (
                    format!(
                        "the operator returned{got} {held}, but {}its windows {} have not fired yet (end - 1 > {wm}){fired_here}: the record counts there and is not late",
                        fired_some(&all, &open),
                        show_windows(&open)
                    ),
                    "05-R7",
                ),
                None => (
                    format!(
                        "no watermark came yet: nothing is late, but the operator returned{got} {held}"
                    ),
                    "05-R7",
                ),
            }
        }
        (Some(want), Some(got)) => (
            format!(
                "the operator returned Late of {}, but the late record is returned as it was given: Late of {}",
                record(got),
                record(want)
            ),
            "05-R10",
        ),
    }
}

/// The record's windows that fired, when some did and others did not: a record is late
/// only once all of them have.
fn fired_some(all: &[(u64, u64)], open: &[(u64, u64)]) -> String {
    let closed: Vec<(u64, u64)> = all.iter().copied().filter(|w| !open.contains(w)).collect();
    if closed.is_empty() {
        String::new()
    } else {
        format!("only {} fired already; ", show_windows(&closed))
    }
}
