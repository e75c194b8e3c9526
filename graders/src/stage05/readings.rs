//! Judges what the assigners and the operator read back: `assign(ts)` and
//! `current_watermark()`.

use super::oracle;
use super::plan::{TOP_TIMESTAMPS, WIDE_TIMESTAMPS, show};
use super::{AssignerSpec, Element, Run, Time};
use crate::harness::Failure;
use crate::stage03::guard::Answer;

/// `Ok` when `windows[ts]` is `spec.assign(ts)` for every `ts`.
pub(super) fn judge_assign(
    spec: AssignerSpec,
    windows: &[Result<Vec<(u64, u64)>, String>],
) -> Result<(), Failure> {
    for (ts, got) in (0u64..).zip(windows) {
        let want = oracle::windows(spec, ts);
        if got.as_ref() != Ok(&want) {
            // Both sides as windows `[start, end)`, not the observation's tuples.
            let requirement = match got {
                Ok(windows) => assign_fault(spec, ts, windows),
                Err(_) => build_fault(spec),
            };
            let got = match got {
                Ok(windows) => show_windows(windows),
                Err(e) => format!("Err({e})"),
            };
            return Err(Failure::new(
                format!("{spec}.assign({ts}) = {}", show_windows(&want)),
                format!("{spec}.assign({ts}) = {got}"),
            )
            .step(format!(
                "timestamp {ts} belongs to every window of {spec} that contains it: {}",
                show_windows(&want)
            ))
            .requirement(requirement));
        }
    }
    Ok(())
}

/// `Ok` when `assign` at the top of `u64` gives the windows that contain the timestamp,
/// their ends saturated at `u64::MAX`, and at `u64::MAX` itself neither panics nor
/// returns a window that wrapped (05-R21).
pub(super) fn judge_assign_top(
    spec: AssignerSpec,
    windows: &[Answer<Vec<(u64, u64)>>],
) -> Result<(), Failure> {
    for (&ts, got) in TOP_TIMESTAMPS.iter().zip(windows) {
        let want = oracle::windows(spec, ts);
        let at = format!("{spec}.assign({})", top(ts));
        let (wrong, requirement) = match got {
            Answer::Ok(got) if ts < u64::MAX => (*got != want, "05-R21"),
            // Every window of `u64::MAX` would end past it: any saturated window of the
            // assigner, or none, is an answer; a wrapped one or a panic is not.
            Answer::Ok(got) => (!got.iter().all(|w| oracle::on_grid(spec, *w)), "05-R21"),
            Answer::Err(_) => (true, build_fault(spec)),
            Answer::Panicked(_) => (true, "05-R21"),
        };
        if wrong {
            let shown = match got {
                Answer::Ok(got) => show_windows(got),
                other => other.show(),
            };
            let (expected, why) = if ts < u64::MAX {
                let want = show_windows(&want);
                (want.clone(), format!("{at} is {want}"))
            } else {
                (
                    format!("{} or fewer, or []", show_windows(&want)),
                    "no window holds u64::MAX itself: its windows, saturated, or none will do"
                        .to_owned(),
                )
            };
            return Err(
                Failure::new(format!("{at} = {expected}"), format!("{at} = {shown}"))
                    .step(format!(
                        "timestamps run to u64::MAX: a window that would end past it ends at \
                     u64::MAX, and assign never wraps or panics; {why}"
                    ))
                    .requirement(requirement),
            );
        }
    }
    Ok(())
}

/// `Ok` when `assign(ts)` near 0 of an assigner whose windows span `2^63` slides or more
/// is the few windows that hold `ts`: however many slides a window spans, `assign` never
/// panics (05-R21); a wrong answer is judged as any other's.
pub(super) fn judge_assign_wide(
    spec: AssignerSpec,
    windows: &[Answer<Vec<(u64, u64)>>],
) -> Result<(), Failure> {
    for (&ts, got) in WIDE_TIMESTAMPS.iter().zip(windows) {
        let want = oracle::windows(spec, ts);
        let (shown, requirement) = match got {
            Answer::Ok(got) if *got == want => continue,
            Answer::Ok(got) => (show_windows(got), assign_fault(spec, ts, got)),
            Answer::Err(e) => (format!("Err({e})"), build_fault(spec)),
            Answer::Panicked(m) => (format!("panicked: {m}"), "05-R21"),
        };
        let (count, want) = (want.len(), show_windows(&want));
        return Err(Failure::new(
            format!("{spec}.assign({ts}) = {want}"),
            format!("{spec}.assign({ts}) = {shown}"),
        )
        .step(format!(
            "a window of {spec} spans {} slides, but timestamp {ts} is in {} of them, {want}: \
             assign never panics, however many windows an assigner has",
            size_and_slide_ratio(spec),
            count
        ))
        .requirement(requirement));
    }
    Ok(())
}

/// How many slides a window of `spec` spans, as a reader counts them: `2^63`.
fn size_and_slide_ratio(spec: AssignerSpec) -> String {
    let (size, slide) = oracle::size_and_slide(spec);
    match size / slide {
        ratio if ratio.is_power_of_two() && ratio > 1 << 20 => {
            format!("2^{}", ratio.trailing_zeros())
        }
        ratio => ratio.to_string(),
    }
}

/// `ts` near the top of `u64` as a reader writes it: `u64::MAX - 2`.
fn top(ts: u64) -> String {
    match u64::MAX - ts {
        0 => "u64::MAX".to_owned(),
        below => format!("u64::MAX - {below}"),
    }
}

/// `Ok` when `current_watermark()` after each element is the largest watermark seen so
/// far (`None` before the first).
pub(super) fn judge_current_watermark(elements: &[Element], run: &Run) -> Result<(), Failure> {
    let mut largest: Option<u64> = None;
    for (i, (element, got)) in elements.iter().zip(&run.watermarks).enumerate() {
        if let Element::Watermark(wm) = element {
            largest = largest.max(Some(*wm));
        }
        if *got != largest {
            // Still none after a first watermark of 0: that watermark was not taken
            // (05-R11: the first watermark, even 0, becomes the current one).
            let rule = if got.is_none() && largest == Some(0) {
                "05-R11"
            } else {
                "05-R14"
            };
            return Err(Failure::new(
                format!("current_watermark() = {largest:?}"),
                format!("current_watermark() = {got:?}"),
            )
            .step(format!(
                "after element {} ({element}) of {}: current_watermark() is the largest watermark seen so far",
                i + 1,
                show(elements)
            ))
            .requirement(rule));
        }
    }
    Ok(())
}

/// The requirement a wrong `assign(ts)` breaks: windows that hold their `end`, exactly
/// those a closed `[start, end]` would give (05-R1), a window off the grid of starts
/// `k slide` (05-R9), or windows missing, extra or out of order (05-R8). An extra window
/// that ends at `ts` beside a window missing is a start computed wrongly, not a window
/// believed closed.
fn assign_fault(spec: AssignerSpec, ts: u64, got: &[(u64, u64)]) -> &'static str {
    if got == closed_windows(spec, ts) {
        "05-R1"
    } else if got.iter().any(|w| !oracle::on_grid(spec, *w)) {
        "05-R9"
    } else {
        "05-R8"
    }
}

/// The windows that would hold `ts` if a window held its end: the assigner's windows of
/// `ts`, and before them those that end at `ts`, by start.
fn closed_windows(spec: AssignerSpec, ts: u64) -> Vec<(u64, u64)> {
    let mut all: Vec<(u64, u64)> = ts
        .checked_sub(1)
        .map(|before| oracle::windows(spec, before))
        .unwrap_or_default()
        .into_iter()
        .filter(|&(_, end)| end == ts)
        .collect();
    all.extend(oracle::windows(spec, ts));
    all
}

/// The requirement an assigner of valid arguments that cannot be built breaks.
pub(super) fn build_fault(spec: AssignerSpec) -> &'static str {
    match spec {
        AssignerSpec::Tumbling(_) => "05-R19",
        AssignerSpec::Sliding(..) => "05-R20",
    }
}

pub(super) fn show_windows(windows: &[(u64, u64)]) -> String {
    let shown: Vec<String> = windows
        .iter()
        .map(|(s, e)| format!("[{}, {})", Time(*s), Time(*e)))
        .collect();
    format!("[{}]", shown.join(", "))
}
