//! What the mutant catalogues assert: a mutant is rejected by the check its doc names,
//! and the catalogue's scaffolding without its mistake is accepted.

use super::driver::run_in_process;
use super::judge::{StageReport, StageStatus};
use super::stage::{DEFAULT_SEED, Stage};

/// Runs `drive` in process over the default plan and checks that the check named
/// `check` fails: how the mutant catalogues prove that every check can fail.
///
/// # Errors
/// A description of the report when the mutant is not rejected by `check`.
pub fn expect_rejected<S: Stage>(
    drive: fn(&S::Case) -> S::Observation,
    check: &str,
) -> Result<StageReport, String> {
    let report = run_in_process::<S>(DEFAULT_SEED, drive);
    let failing: Vec<&str> = report
        .failures()
        .iter()
        .map(|(c, _)| c.name.as_str())
        .collect();
    if report.status() == StageStatus::Failed && failing.contains(&check) {
        Ok(report)
    } else {
        Err(format!(
            "expected check `{check}` to reject this mutant; status {:?}, failing checks {failing:?}",
            report.status()
        ))
    }
}

/// Runs `drive` in process over the default plan and checks that every check passes:
/// the control that proves a mutant catalogue's scaffolding, without its mistake, is
/// correct (so each mutant is rejected for its mistake, not for the scaffolding).
///
/// # Errors
/// The report when some check fails.
pub fn expect_accepted<S: Stage>(drive: fn(&S::Case) -> S::Observation) -> Result<(), String> {
    let report = run_in_process::<S>(DEFAULT_SEED, drive);
    if report.status() == StageStatus::Passed {
        Ok(())
    } else {
        Err(format!("expected every check to pass: {report:#?}"))
    }
}
