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
            )));
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
            )));
        }
    }
    Ok(())
}

pub(super) fn show_windows(windows: &[(u64, u64)]) -> String {
    let shown: Vec<String> = windows.iter().map(|(s, e)| format!("[{s}, {e})")).collect();
    format!("[{}]", shown.join(", "))
}
