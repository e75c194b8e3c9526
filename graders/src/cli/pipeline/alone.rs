//! A failing case run again alone, in a fresh driver. The briefs want the same result on
//! every run, and every case builds its own instances: a failure that does not repeat
//! alone came from something other than the case (what the cases before it left in a
//! `static` or a `thread_local!`, randomness, code that tells a re-run from a full run).

use std::path::Path;

use super::{Pipeline, StageOutcome};
use crate::harness::supervisor::Limits;
use crate::harness::{CaseFailure, Fault};

/// How a failure fared when its case was run again alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alone {
    /// It failed the same way.
    Repeats,
    /// It passed.
    Passes,
    /// It failed another way: this kind of fault.
    Differs(&'static str),
}

impl Pipeline<'_> {
    /// Runs `failure`'s case of `stage` again alone, as `--case` does; `None` when the
    /// re-run could not be driven at all.
    pub fn alone(
        &self,
        binary: &Path,
        stage: u8,
        seed: u64,
        failure: &CaseFailure,
        limits: Limits,
    ) -> Option<Alone> {
        let StageOutcome::Judged(rerun) = self.replay(binary, stage, seed, failure.index, limits)
        else {
            return None;
        };
        let again = rerun.checks.into_iter().find_map(|c| c.first_failure);
        Some(match again {
            None => Alone::Passes,
            Some(again) if same_way(&failure.fault, &again.fault) => Alone::Repeats,
            Some(again) => Alone::Differs(again.fault.kind()),
        })
    }
}

/// Two faults are "the same way" when they are of the same kind and, for wrong results,
/// show the same output.
fn same_way(first: &Fault, second: &Fault) -> bool {
    match (first, second) {
        (Fault::Wrong { actual: a, .. }, Fault::Wrong { actual: b, .. }) => a == b,
        (a, b) => a.kind() == b.kind(),
    }
}
