//! Why one answer of the operator differs from the model's, in terms of the learner's
//! run, and the requirement of the brief it breaks: shared by the law checks and the
//! contract check, so that one mistake is named the same wherever it shows.

use std::collections::BTreeSet;

use super::oracle::{Model, on_grid, size_and_slide};
use super::{Fired, LateRecord, Time};

/// A reason in words and the id of the requirement it breaks.
pub type Fault = (String, &'static str);

pub(super) fn window_of(fired: &Fired) -> String {
    format!(
        "window [{}, {}) of key {:?}",
        Time(fired.start),
        Time(fired.end),
        fired.key
    )
}

pub(super) fn record(r: &LateRecord) -> String {
    format!("{}@{}={}", r.0, Time(r.1), r.2)
}

/// What the learner's operator answered before a call: every `(result, watermark)` it
/// fired, and for each record the model took (in order), whether it was returned late.
#[derive(Debug, Clone, Default)]
pub struct Answered {
    /// Every result fired so far, with the watermark that fired it.
    pub fired: Vec<(Fired, u64)>,
    /// One entry per record taken: whether `on_record` returned it as late.
    pub late: Vec<bool>,
    /// Its `current_watermark()` after the last call.
    pub watermark: Option<u64>,
}

/// Why `got` is not `want` as the answer to `on_watermark(wm)`, given the model before
/// the call and what the learner's operator answered before it.
pub fn watermark_fault(
    before: &Model,
    wm: u64,
    want: &[Fired],
    got: &[Fired],
    answered: &Answered,
) -> Fault {
    if let Some(current) = before.current().filter(|_| !before.advances(wm)) {
        return (
            format!(
                "W({}) does not advance the watermark (it is W({})): it changes nothing and returns no result",
                Time(wm),
                Time(current)
            ),
            "05-R13",
        );
    }
    let id = |f: &Fired| (f.start, f.end, f.key.clone());
    let want_ids: BTreeSet<_> = want.iter().map(id).collect();
    if let Some(extra) = got.iter().find(|f| !want_ids.contains(&id(f))) {
        return extra_fault(before, wm, extra, answered);
    }
    // A wrong aggregate before a missing result: records counted in the wrong window
    // leave the right one short or unfired, and the aggregate is where they went.
    let wrong_sum = got.iter().find_map(|g| {
        want.iter()
            .find(|f| id(f) == id(g) && f != &g)
            .map(|f| (g, f))
    });
    if let Some((g, f)) = wrong_sum {
        return (
            format!(
                "{} has sum {} count {}, expected sum {} count {} (the records of the key that reached it before this call)",
                window_of(f),
                g.sum,
                g.count,
                f.sum,
                f.count
            ),
            "05-R3",
        );
    }
    if let Some(missing) = want.iter().find(|f| !got.iter().any(|g| id(g) == id(f))) {
        return (
            format!(
                "{} did not fire, though W({}) >= its end - 1 = {} for the first time",
                window_of(missing),
                Time(wm),
                Time(missing.end.saturating_sub(1))
            ),
            "05-R2",
        );
    }
    if got.len() != want.len() {
        return (
            "a (key, window) result is emitted more than once in one call".to_owned(),
            "05-R2",
        );
    }
    (
        "the right results in the wrong order: by window (start, end), then key".to_owned(),
        "05-R12",
    )
}

/// Why `extra` should not have come out of `on_watermark(wm)`.
fn extra_fault(before: &Model, wm: u64, extra: &Fired, answered: &Answered) -> Fault {
    let window = (extra.start, extra.end);
    let same = |f: &Fired| (f.start, f.end, &f.key) == (extra.start, extra.end, &extra.key);
    if !on_grid(before.spec(), window) {
        // The operator's own result names a window the assigner does not have: its
        // assignment is wrong, whatever the watermark.
        let (size, slide) = size_and_slide(before.spec());
        return (
            format!(
                "{} came out with sum {} count {}, but it is no window of the assigner, whose windows are [k * {slide}, k * {slide} + {size}): the operator put records of key {:?} in a window that does not exist",
                window_of(extra),
                extra.sum,
                extra.count,
                extra.key
            ),
            "05-R9",
        );
    }
    if extra.end.saturating_sub(1) > wm {
        return (
            format!(
                "{} fired early: its last timestamp {} is above W({})",
                window_of(extra),
                Time(extra.end.saturating_sub(1)),
                Time(wm)
            ),
            "05-R2",
        );
    }
    let of_key: Vec<_> = before
        .taken
        .iter()
        .enumerate()
        .filter(|(_, t)| t.record.0 == extra.key)
        .collect();
    let inside: Vec<_> = of_key
        .iter()
        .filter(|(_, t)| extra.start <= t.record.1 && t.record.1 < extra.end)
        .collect();
    let after_firing: Vec<_> = inside
        .iter()
        .filter(|(_, t)| t.fired.contains(&window))
        .collect();
    if let (Some(at), Some((_, first))) = (before.fired_at(window), after_firing.first()) {
        let (how, id) = if let Some((i, late)) = after_firing.iter().find(|(_, t)| t.late) {
            // Returned as late yet counted breaks "never into a result"; taken for on
            // time, into a window that fired empty, it breaks "fired, with or without
            // records".
            let reported = answered.late.get(*i).copied().unwrap_or(false);
            let id = if !reported && before.fired_empty(window) {
                "05-R4"
            } else {
                "05-R6"
            };
            (
                format!(
                    "{} came after that, is late (every window of it had fired) and counts nowhere",
                    record(&late.record)
                ),
                id,
            )
        } else {
            (
                format!(
                    "{} came after that: it counts only in its windows that had not fired",
                    record(&first.record)
                ),
                "05-R7",
            )
        };
        return (
            format!(
                "{} came out, though the window had fired at W({}) (a window fires once, whether or not it held records of the key); {how}",
                window_of(extra),
                Time(at)
            ),
            id,
        );
    }
    if let Some((_, earlier)) = answered.fired.iter().find(|(f, _)| same(f)) {
        return (
            format!(
                "{} fired again; it already fired at W({})",
                window_of(extra),
                Time(*earlier)
            ),
            "05-R2",
        );
    }
    if inside.is_empty() {
        if let Some((_, at_end)) = of_key.iter().find(|(_, t)| t.record.1 == extra.end) {
            return (
                format!(
                    "{} fired, but no record of the key lies in it: {} is at its end, which a half-open window does not hold",
                    window_of(extra),
                    record(&at_end.record)
                ),
                "05-R1",
            );
        }
        return (
            format!(
                "{} came out with sum {} count {}, but no record of key {:?} has a timestamp in it: the operator counted records in a window that does not hold them",
                window_of(extra),
                extra.sum,
                extra.count,
                extra.key
            ),
            "05-R3",
        );
    }
    match before.fired_at(window) {
        Some(at) => (
            format!(
                "{} fired late: it fired at W({}), the first watermark >= its end - 1 = {}",
                window_of(extra),
                Time(at),
                Time(extra.end.saturating_sub(1))
            ),
            "05-R2",
        ),
        None => (
            format!("{} is not due at W({})", window_of(extra), Time(wm)),
            "05-R2",
        ),
    }
}
