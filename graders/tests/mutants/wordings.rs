//! The wording of the reports that name a mistake, pinned on the mutant that produces
//! each: the check, the smallest case, what was expected, what came out and the first
//! wrong step, exactly as a learner reads them.

use graders::harness::{Fault, StageReport};

use crate::fail;

/// The first failure of `check` in `report`, as `(case, expected, actual, step)`.
fn first_failure(report: &StageReport, check: &str) -> (String, String, String, String) {
    let failure = report
        .checks
        .iter()
        .find(|c| c.name == check)
        .and_then(|c| c.first_failure.as_ref())
        .unwrap_or_else(|| fail(&format!("`{check}` has no failure")));
    match &failure.fault {
        Fault::Wrong {
            expected,
            actual,
            first_wrong_step,
            ..
        } => (
            failure.case.clone(),
            expected.clone(),
            actual.clone(),
            first_wrong_step.clone().unwrap_or_default(),
        ),
        other => fail(&format!("expected a wrong answer, got {other:#?}")),
    }
}

/// Fails unless the first failure of `check` reads exactly `want`.
pub(crate) fn reads(report: &StageReport, check: &str, want: [&str; 4]) {
    let got = first_failure(report, check);
    let got = [
        got.0.as_str(),
        got.1.as_str(),
        got.2.as_str(),
        got.3.as_str(),
    ];
    if got != want {
        fail(&format!(
            "the report of `{check}` reads\n{got:#?}\nexpected\n{want:#?}"
        ));
    }
}
