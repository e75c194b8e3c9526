//! Each stage's time budget in `byo grade`, set from the reference's own time on this
//! machine: a correct submission that sleeps in every call (under the per-case limit) or
//! does work that grows with every call is cut off as "too slow" within a minute or so,
//! instead of holding its slot for the stage's whole ten minutes.
//!
//! The budget bounds wall-clock time, since a sleeping driver spends no CPU and holds the
//! slot all the same, and each driver's CPU time as well (its threads together, with
//! `ulimit -t`; see [`Limits::cpu`]). Before any submission, the references of the selected stages
//! are built in the instructor's own target folder (the instructor's code: no sandbox,
//! nothing a submission can see) and judged once under the run's seed, with as many
//! drivers as a submission gets. A stage's budget is then [`FACTOR`] times that time,
//! at least [`FLOOR`], plus [`TIMEOUT_ALLOWANCE`] per-case limits, so that a submission
//! whose few cases loop still gets its time-outs reported as such; never more than
//! [`CEILING`].

use std::path::Path;
use std::time::{Duration, Instant};

use crate::cli::build::{Built, Side};
use crate::cli::pipeline::{Pipeline, StageOutcome};
use crate::harness::supervisor::Limits;
use crate::stages::StageInfo;

use super::jail::OFFLINE;

/// How many times the reference's own time a submission's stage may take.
pub const FACTOR: u32 = 20;

/// The least budget of a stage, whatever the reference took.
pub const FLOOR: Duration = Duration::from_secs(30);

/// How many per-case limits each budget adds, for cases that time out.
pub const TIMEOUT_ALLOWANCE: u32 = 3;

/// The most budget of a stage: the stage limit `byo grade` had before budgets.
pub const CEILING: Duration = Duration::from_secs(600);

/// The budget of a stage whose reference took `reference`, under a per-case limit of
/// `case`.
pub fn budget(reference: Duration, case: Duration) -> Duration {
    let allowance = case.saturating_mul(TIMEOUT_ALLOWANCE);
    (reference.saturating_mul(FACTOR).max(FLOOR))
        .saturating_add(allowance)
        .min(CEILING)
}

/// `limits` with a budget for each of `selected` whose reference, in the checkout at
/// `checkout`, builds and passes under `seed`; a stage whose reference does not keeps
/// the ceiling, with a warning.
pub fn from_references(
    checkout: &Path,
    selected: &[&'static StageInfo],
    seed: u64,
    limits: Limits,
) -> Limits {
    let mut budgeted = limits;
    let mut shown = Vec::new();
    for (number, measured) in reference_times(checkout, selected, seed, limits) {
        match measured {
            Ok(took) => {
                let budget = budget(took, limits.case);
                if let Some(slot) = budgeted.budgets.get_mut(usize::from(number)) {
                    *slot = Some(budget);
                }
                shown.push(format!(
                    "{number:02} {} s ({:.1} s)",
                    budget.as_secs(),
                    took.as_secs_f64()
                ));
            }
            Err(why) => eprintln!(
                "grade: warning: stage {number:02} gets no time budget of its own ({why}); \
                 its limit stays {} s",
                limits.stage.as_secs()
            ),
        }
    }
    if !shown.is_empty() {
        eprintln!(
            "time budgets by stage ({FACTOR}x the reference's own time here, at least {} s, \
             plus {TIMEOUT_ALLOWANCE} case limits): {}",
            FLOOR.as_secs(),
            shown.join(", ")
        );
    }
    budgeted
}

/// How long each reference of `selected` took to be judged, or why it could not be.
fn reference_times(
    checkout: &Path,
    selected: &[&'static StageInfo],
    seed: u64,
    limits: Limits,
) -> Vec<(u8, Result<Duration, String>)> {
    let graded: Vec<&StageInfo> = selected.iter().copied().filter(|s| s.graded()).collect();
    let pipeline = Pipeline::new(checkout)
        .side(Side::Reference)
        .cargo_args(OFFLINE);
    let built = match pipeline.build(&graded) {
        Ok(built) => built,
        Err(e) => {
            let why = format!("its reference could not be built: {e:#}");
            return graded
                .iter()
                .map(|s| (s.number, Err(why.clone())))
                .collect();
        }
    };
    graded
        .iter()
        .map(|stage| {
            let measured = match built.get(&stage.number) {
                Some(Built::Binary(binary)) => time_judging(&pipeline, binary, stage, seed, limits),
                Some(Built::Failed(_)) => Err("its reference does not build".to_owned()),
                None => Err("its reference was not built".to_owned()),
            };
            (stage.number, measured)
        })
        .collect()
}

/// How long `binary`, the reference's grade binary, takes to be judged, when it passes.
fn time_judging(
    pipeline: &Pipeline<'_>,
    binary: &Path,
    stage: &StageInfo,
    seed: u64,
    limits: Limits,
) -> Result<Duration, String> {
    let started = Instant::now();
    let outcome = pipeline.judge(binary, stage.number, seed, None, limits);
    let took = started.elapsed();
    match outcome {
        StageOutcome::Judged(_) if outcome.passed() => Ok(took),
        _ => Err("its reference does not pass its own grader here".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_is_the_reference_times_the_factor_within_its_bounds() {
        let case = Duration::from_secs(10);
        assert_eq!(budget(Duration::from_millis(100), case), FLOOR + case * 3);
        assert_eq!(
            budget(Duration::from_secs(4), case),
            Duration::from_secs(80) + case * 3
        );
        assert_eq!(budget(Duration::from_secs(60), case), CEILING);
        assert_eq!(budget(Duration::MAX, Duration::MAX), CEILING);
    }
}
