//! Judges what the assigners and the operator read back: `assign(ts)` and
//! `current_watermark()`.

use super::oracle;
use super::plan::show;
use super::{AssignerSpec, Element, Run};
use crate::harness::Failure;

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

/// `Ok` when `current_watermark()` after each element is the largest watermark seen so
/// far (`None` before the first).
pub(super) fn judge_current_watermark(elements: &[Element], run: &Run) -> Result<(), Failure> {
    let mut largest: Option<u64> = None;
    for (i, (element, got)) in elements.iter().zip(&run.watermarks).enumerate() {
        if let Element::Watermark(wm) = element {
            largest = largest.max(Some(*wm));
        }
        if *got != largest {
            return Err(Failure::new(
                format!("current_watermark() = {largest:?}"),
                format!("current_watermark() = {got:?}"),
            )
            .step(format!(
                "after element {} ({element}) of {}: current_watermark() is the largest watermark seen so far",
                i + 1,
                show(elements)
            ))
            .requirement("05-R14"));
        }
    }
    Ok(())
}

/// The requirement a wrong `assign(ts)` breaks: a window that holds its `end` (05-R1),
/// a window off the grid of starts `k slide` (05-R9), or windows missing, extra or out of
/// order (05-R8).
fn assign_fault(spec: AssignerSpec, ts: u64, got: &[(u64, u64)]) -> &'static str {
    if got.iter().any(|&(start, end)| end == ts && start < ts) {
        "05-R1"
    } else if got.iter().any(|w| !oracle::on_grid(spec, *w)) {
        "05-R9"
    } else {
        "05-R8"
    }
}

/// The requirement an assigner of valid arguments that cannot be built breaks.
pub(super) fn build_fault(spec: AssignerSpec) -> &'static str {
    match spec {
        AssignerSpec::Tumbling(_) => "05-R19",
        AssignerSpec::Sliding(..) => "05-R20",
    }
}

pub(super) fn show_windows(windows: &[(u64, u64)]) -> String {
    let shown: Vec<String> = windows.iter().map(|(s, e)| format!("[{s}, {e})")).collect();
    format!("[{}]", shown.join(", "))
}
