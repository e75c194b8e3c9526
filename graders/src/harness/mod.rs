//! What every stage's grader is made of, and the machinery that runs them.

pub mod capture;
pub mod case;
pub mod diff;
pub mod driver;
pub mod judge;
pub mod process;
pub mod protocol;
pub mod rng;
pub mod sandbox;
pub mod supervisor;

pub use case::{Case, Check, Failure};
pub use judge::{CaseFailure, CheckReport, Fault, StageReport, StageStatus};

use serde::{Serialize, de::DeserializeOwned};

/// One stage's grader: a plan of cases and a judge of observations.
///
/// The driver is not part of this trait because it is generic over the stage's binding
/// trait; see each stage's `drive` function.
pub trait Stage {
    /// The stage number, 1..=8.
    const NUMBER: u8;
    /// One case of the plan (serialisable, so the plan has a fingerprint).
    type Case: Case + Serialize;
    /// What the driver observed when it ran one case.
    type Observation: Serialize + DeserializeOwned;

    /// Every case, smallest first within each check. The same seed gives the same plan,
    /// in the driver's process and in the judge's.
    fn plan(seed: u64) -> Vec<Self::Case>;

    /// `Ok` when `observation` is what `case` demands; otherwise the first thing wrong.
    ///
    /// # Errors
    /// The [`Failure`] that explains what was expected and what came out.
    fn judge(case: &Self::Case, observation: &Self::Observation) -> Result<(), Failure>;
}

/// Runs `drive` in process over the default plan and checks that the check named
/// `check` fails: how the mutant catalogues prove that every check can fail.
///
/// # Errors
/// A description of the report when the mutant is not rejected by `check`.
pub fn expect_rejected<S: Stage>(
    drive: fn(&S::Case) -> S::Observation,
    check: &str,
) -> Result<StageReport, String> {
    let report = driver::run_in_process::<S>(driver::DEFAULT_SEED, drive);
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
    let report = driver::run_in_process::<S>(driver::DEFAULT_SEED, drive);
    if report.status() == StageStatus::Passed {
        Ok(())
    } else {
        Err(format!("expected every check to pass: {report:#?}"))
    }
}
