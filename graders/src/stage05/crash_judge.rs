//! Judges the `crash` check: the operator restored from its bytes after some element
//! answers, and holds, what the uninterrupted run does.

use super::Output;
use super::plan::at;
use super::{Element, Run};
use crate::harness::Failure;

pub(super) fn judge_crash(
    elements: &[Element],
    crash_after: usize,
    restore: &Result<(), String>,
    restored_size: usize,
    cut: &Run,
    whole: &Run,
) -> Result<(), Failure> {
    if let Err(e) = restore {
        return Err(
            Failure::new("snapshot() then restore(..) succeed", format!("Err({e})"))
                .step(format!(
                    "snapshot or restore after {crash_after} element(s) failed"
                ))
                .requirement("05-R15"),
        );
    }
    let size_before = if crash_after == 0 {
        0
    } else {
        whole
            .sizes
            .get(crash_after - 1)
            .copied()
            .unwrap_or_default()
    };
    if restored_size != size_before {
        return Err(Failure::new(
            format!("state_size() = {size_before} right after the restore"),
            format!("state_size() = {restored_size}"),
        )
        .step("the restored operator does not hold the open windows the snapshot was taken with")
        .requirement("05-R15"));
    }
    for (i, (w, g)) in whole.outputs.iter().zip(&cut.outputs).enumerate() {
        if w != g && same_results_reordered(w, g) {
            // The restore kept everything; the order of one call's results was never
            // the required one, only the uninterrupted run's map happened to give it.
            return Err(Failure::new(
                format!("the uninterrupted run: {w:?}"),
                format!("after the restore: {g:?}"),
            )
            .step(format!(
                "{}: the restored operator fires the same results in another order: the results of one call are ordered by window, then by key, whatever order the keys came in",
                at(elements, i)
            ))
            .requirement("05-R12"));
        }
        if w != g {
            return Err(Failure::new(
                format!("the uninterrupted run: {w:?}"),
                format!("after the restore: {g:?}"),
            )
            .step(format!(
                "{}: the restored operator answers {g:?} where the uninterrupted one answers {w:?}: something it needs (open windows, the current watermark) is not in its snapshot",
                at(elements, i)
            ))
            .requirement("05-R15"));
        }
    }
    if whole.outputs.len() != cut.outputs.len() {
        return Err(Failure::new(
            format!("{} answers", whole.outputs.len()),
            format!("{} answers", cut.outputs.len()),
        )
        .requirement("05-R15"));
    }
    // The state right after every call, not only the answers.
    for (i, ((ws, cs), (ww, cw))) in whole
        .sizes
        .iter()
        .zip(&cut.sizes)
        .zip(whole.watermarks.iter().zip(&cut.watermarks))
        .enumerate()
    {
        if (ws, ww) != (cs, cw) {
            return Err(Failure::new(
                format!("state_size() = {ws}, current_watermark() = {ww:?}"),
                format!("state_size() = {cs}, current_watermark() = {cw:?}"),
            )
            .step(format!(
                "right after element {} ({}), the restored operator's state differs from the uninterrupted one's: something it needs is not in its snapshot",
                i + 1,
                elements[i]
            ))
            .requirement("05-R15"));
        }
    }
    Ok(())
}

/// Whether two answers of one `on_watermark` call hold the same results in another order.
fn same_results_reordered(want: &Output, got: &Output) -> bool {
    let (Output::Fired(want), Output::Fired(got)) = (want, got) else {
        return false;
    };
    let (mut want, mut got) = (want.clone(), got.clone());
    want.sort();
    got.sort();
    want == got
}
