//! What the mutant catalogues assert: a mutant is rejected by the check its doc names,
//! and the catalogue's scaffolding without its mistake is accepted, under the learner's
//! seed and under every other seed of [`SEEDS`] (the verdict must not hang on a lucky
//! draw: a learner who sees PASS at home must not fail `byo grade`).

use std::collections::BTreeMap;

use super::case::Case;
use super::driver::{run_case, run_in_process};
use super::judge::{StageReport, StageStatus, judge_outcome};
use super::stage::{DEFAULT_SEED, Stage};

/// The seeds every verdict of a catalogue must hold under: the learner's, then twenty
/// others spread over the whole range (as `byo grade` draws fresh ones).
pub const SEEDS: [u64; 21] = {
    let mut seeds = [DEFAULT_SEED; 21];
    let mut i = 1;
    while i < seeds.len() {
        // splitmix64's increment: well spread, and fixed, so a failure replays.
        seeds[i] = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5EED;
        i += 1;
    }
    seeds
};

/// The verdicts of one implementation on distinct cases, whatever seed's plan they came
/// from: a case's verdict does not depend on the seed, and most of a plan (its shapes,
/// its smallest cases) is the same under every seed, so each is judged once.
struct Verdicts<S: Stage> {
    drive: fn(&S::Case) -> S::Observation,
    failed: BTreeMap<String, bool>,
}

impl<S: Stage> Verdicts<S> {
    fn new(drive: fn(&S::Case) -> S::Observation) -> Self {
        Self {
            drive,
            failed: BTreeMap::new(),
        }
    }

    /// Whether `case` fails (judged on first sight).
    fn fails(&mut self, case: &S::Case) -> bool {
        let key = serde_json::to_string(case).unwrap_or_default();
        let drive = self.drive;
        *self
            .failed
            .entry(key)
            .or_insert_with(|| judge_outcome::<S>(case, &run_case::<S>(drive, case)).is_some())
    }

    /// Whether some case of `check` fails under `seed`; stops at the first that does, so
    /// a rejected mutant costs its smallest failing case, not the whole plan.
    fn check_fails(&mut self, seed: u64, check: &str) -> bool {
        S::plan(seed)
            .iter()
            .filter(|case| case.check().name == check)
            .any(|case| self.fails(case))
    }

    /// Whether every case of the plan of `seed` passes.
    fn all_pass(&mut self, seed: u64) -> bool {
        S::plan(seed).iter().all(|case| !self.fails(case))
    }
}

/// The seeds of [`SEEDS`] under which `check` does not reject the implementation.
fn escapes<S: Stage>(drive: fn(&S::Case) -> S::Observation, check: &str) -> Vec<u64> {
    let mut verdicts = Verdicts::<S>::new(drive);
    SEEDS[1..]
        .iter()
        .copied()
        .filter(|&seed| !verdicts.check_fails(seed, check))
        .collect()
}

/// Runs `drive` in process over the default plan and checks that the check named
/// `check` fails, there and under every other seed of [`SEEDS`]: how the mutant
/// catalogues prove that every check can fail, whatever the draw.
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
        match escapes::<S>(drive, check) {
            escaped if escaped.is_empty() => Ok(report),
            escaped => Err(format!(
                "check `{check}` rejects this mutant under the learner's seed but not under the seeds {escaped:#x?}"
            )),
        }
    } else {
        Err(format!(
            "expected check `{check}` to reject this mutant; status {:?}, failing checks {failing:?}",
            report.status()
        ))
    }
}

/// [`expect_rejected`], and the smallest failing case of `check` names `requirement` (the
/// brief's id, `03-R7`) as the rule it broke: how a catalogue proves that a mutant
/// violates the requirement its row names, as the learner's report will say.
///
/// # Errors
/// As [`expect_rejected`], or when the failure names another requirement or none.
pub fn expect_rejected_for<S: Stage>(
    drive: fn(&S::Case) -> S::Observation,
    check: &str,
    requirement: &str,
) -> Result<StageReport, String> {
    let report = expect_rejected::<S>(drive, check)?;
    let named = report
        .checks
        .iter()
        .find(|c| c.name == check)
        .and_then(|c| c.first_failure.as_ref())
        .and_then(|f| match &f.fault {
            super::judge::Fault::Wrong { requirement, .. } => requirement.clone(),
            _ => None,
        });
    if named.as_deref() == Some(requirement) {
        Ok(report)
    } else {
        Err(format!(
            "check `{check}` rejects this mutant, but its smallest failing case names requirement {named:?}, not {requirement:?}"
        ))
    }
}

/// Runs `drive` in process over the plan of every seed of [`SEEDS`] and checks that every
/// check passes:
/// the control that proves a mutant catalogue's scaffolding, without its mistake, is
/// correct (so each mutant is rejected for its mistake, not for the scaffolding).
///
/// # Errors
/// The report when some check fails.
pub fn expect_accepted<S: Stage>(drive: fn(&S::Case) -> S::Observation) -> Result<(), String> {
    let mut verdicts = Verdicts::<S>::new(drive);
    for seed in SEEDS {
        if verdicts.all_pass(seed) {
            continue;
        }
        let report = run_in_process::<S>(seed, drive);
        return Err(format!(
            "expected every check to pass under seed {seed:#x}: {report:#?}"
        ));
    }
    Ok(())
}
