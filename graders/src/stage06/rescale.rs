//! A restore with another number of inputs: `restore(inputs, bytes)` builds an aligner
//! of `inputs` inputs whatever the aligner that wrote the bytes had (a job rescaled while
//! it was down). The crash cases always restore with the same number, so an aligner that
//! keeps the recorded number would pass them; these cases, in the `crash` check, do not.

use super::case::letter;
use super::driver::{Step, feed};
use super::{Elem, Implementation, Observation};

/// The aligners `(from, to)` of the rescale cases: more inputs, then fewer.
pub const RESCALES: [(usize, usize); 2] = [(2, 3), (2, 1)];

/// After the restore, input `i` = `[B1 <letter>0 B2]`, replayed from just after `B1`.
pub fn inputs(to: usize) -> Vec<Vec<Elem>> {
    (0..to)
        .map(|i| {
            vec![
                Elem::Barrier(1),
                Elem::Record(format!("{}0", letter(i))),
                Elem::Barrier(2),
            ]
        })
        .collect()
}

/// Every input's record, then the barriers from the last input to the first (the input
/// that only the rescaled aligner has comes first).
pub fn schedule(to: usize) -> Vec<usize> {
    (0..to).chain((0..to).rev()).collect()
}

/// `new(from)` completes checkpoint 1, then `restore(to, &snapshot()?)` goes on over
/// [`inputs`] from their cut: the calls after the restore.
pub fn drive_rescale<I: Implementation>(from: usize, to: usize) -> Observation {
    let mut steps: Vec<Step> = Vec::new();
    let mut run = || -> Result<(), String> {
        let mut aligner =
            I::aligner(from).map_err(|e| format!("BarrierAligner::new({from}) failed: {e:#}"))?;
        for input in 0..from {
            I::on_element(&mut aligner, input, Elem::Barrier(1))
                .map_err(|e| format!("on_element({input}, B1) failed: {e:#}"))?;
        }
        let bytes = I::snapshot(&aligner).map_err(|e| format!("snapshot() failed: {e:#}"))?;
        let mut restored = I::restore(to, &bytes)
            .map_err(|e| format!("restore({to}, &snapshot()?) failed: {e:#}"))?;
        feed::<I>(
            &mut restored,
            &inputs(to),
            &schedule(to),
            &vec![1; to],
            &mut steps,
            |_, _| Ok(()),
        )
    };
    let error = run().err();
    Observation::Align { steps, error }
}

/// The case as a report shows it.
pub fn describe(from: usize, to: usize) -> String {
    format!(
        "BarrierAligner::new({from}) completes checkpoint 1 (B1 on every input), then \
         restore({to}, &snapshot()?) goes on with {to} input(s): {}",
        super::case::describe_run(&inputs(to), &schedule(to))
    )
}
