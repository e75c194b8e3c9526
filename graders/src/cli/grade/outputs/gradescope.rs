//! Gradescope's `results.json` for one submission: one test per check, worth its share of
//! its stage's points, as Gradescope's "Autograder Specifications" describe the file.
//!
//! The points are whole hundredths, apportioned by largest remainder, first the 100 over
//! the stages, then each stage's over its checks, so the tests' `max_score`s add up to
//! exactly 100 and each stage's to exactly its share (plain rounding made 100.04). A check
//! earns its points when it passes and its stage earns anything; a passing check of a
//! stage that earns nothing (a gate failed) says so in its name and is `failed`, so a
//! student never reads "passed" beside 0 points.

use clap::ValueEnum;
use serde::Serialize;
use serde_json::{Value, json};

use crate::cli::grade::model::{StageGrade, SubmissionReport};

/// Who sees a test, and when: Gradescope's four visibility settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
#[value(rename_all = "snake_case")]
pub enum Visibility {
    /// Never shown to students.
    Hidden,
    /// Shown once the assignment's due date has passed.
    AfterDueDate,
    /// Shown once the assignment's grades are published.
    AfterPublished,
    /// Always shown (Gradescope's default).
    #[default]
    Visible,
}

/// Every test's and the summary's text: plain text, shown as written, so the aligned
/// matrices and case listings of a check's report keep their columns.
const TEXT: &str = "text";

/// Hundredths of a point in the whole submission.
const TOTAL_CENTS: u64 = 100 * 100;

/// `total` split in proportion to `shares` (each 0 or more), in whole units adding up to
/// exactly `total` when any share is positive: each gets the floor of its exact part, and
/// the units left go to the largest remainders (the earlier one on a tie).
fn apportion(total: u64, shares: &[f64]) -> Vec<u64> {
    let sum: f64 = shares.iter().sum();
    if sum <= 0.0 || !sum.is_finite() {
        return vec![0; shares.len()];
    }
    let exact: Vec<f64> = shares.iter().map(|s| total as f64 * (s / sum)).collect();
    let mut whole: Vec<u64> = exact.iter().map(|e| e.floor() as u64).collect();
    let left = total.saturating_sub(whole.iter().sum());
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (exact[a] - exact[a].floor(), exact[b] - exact[b].floor());
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    for &i in order
        .iter()
        .cycle()
        .take(usize::try_from(left).unwrap_or(0))
    {
        whole[i] += 1;
    }
    whole
}

/// Hundredths as the points Gradescope shows.
fn points(cents: u64) -> f64 {
    cents as f64 / 100.0
}

/// The tests of one stage worth `cents` in all.
fn stage_tests(stage: &StageGrade, cents: u64, visibility: Visibility) -> Vec<Value> {
    let test = |name: String, earned: u64, max: u64, passed: bool, output: String| {
        json!({
            "name": name,
            "score": points(earned),
            "max_score": points(max),
            "status": if passed { "passed" } else { "failed" },
            "visibility": visibility,
            "output": output,
            "output_format": TEXT,
        })
    };
    if stage.checks.is_empty() {
        let why = stage
            .errors
            .clone()
            .unwrap_or_else(|| stage.verdict.text().to_owned());
        return vec![test(stage.title.clone(), 0, cents, false, why)];
    }
    // A stage whose checks all weigh nothing is all or nothing: its points split evenly.
    let weights: Vec<f64> = if stage.checks.iter().any(|c| c.weight > 0.0) {
        stage.checks.iter().map(|c| c.weight).collect()
    } else {
        vec![1.0; stage.checks.len()]
    };
    let earns = stage.score > 0.0;
    let failed_gates: Vec<&str> = stage
        .checks
        .iter()
        .filter(|c| c.gate && !c.passed)
        .map(|c| c.name.as_str())
        .collect();
    let zeroed_because = if failed_gates.is_empty() {
        "this stage is all or nothing".to_owned()
    } else {
        format!("the gate `{}` fails", failed_gates.join("`, `"))
    };
    let shares = apportion(cents, &weights);
    stage
        .checks
        .iter()
        .zip(shares)
        .map(|(check, max)| {
            let zeroed = check.passed && !earns;
            let name = if zeroed {
                format!(
                    "{}: {} (passes, but earns nothing: {zeroed_because})",
                    stage.title, check.name
                )
            } else {
                format!("{}: {}", stage.title, check.name)
            };
            let output = match &check.failure {
                Some(failure) => failure.detail.clone(),
                None if zeroed => format!(
                    "{}: every case passed, but this stage earns nothing while {zeroed_because}",
                    check.name
                ),
                None if check.passed => format!("{}: every case passed", check.name),
                None => format!("{}: not every case was judged", check.name),
            };
            let earned = if check.passed && earns { max } else { 0 };
            test(name, earned, max, check.passed && earns, output)
        })
        .collect()
}

/// Gradescope's `results.json`: every test shown to students as `visibility` says; the
/// run's own log (stdout) stays the instructor's. The top-level `score` is the sum of the
/// tests' (what the student sees adds up), which is `report.total` to within a hundredth
/// per stage.
pub fn results(report: &SubmissionReport, visibility: Visibility, printed: bool) -> Value {
    let weights: Vec<f64> = report.stages.iter().map(|s| s.weight).collect();
    let stage_cents = apportion(TOTAL_CENTS, &weights);
    let tests: Vec<Value> = report
        .stages
        .iter()
        .zip(stage_cents)
        .flat_map(|(stage, cents)| stage_tests(stage, cents, visibility))
        .collect();
    let earned: u64 = tests
        .iter()
        .map(|t| (t["score"].as_f64().unwrap_or(0.0) * 100.0).round() as u64)
        .sum();
    let message = format!(
        "Graded with seed {seed}. Every case below comes from this seed: to replay a failing \
         case, run `byo test NN --seed {seed} --case N` in your repository, with the stage \
         and the case number the failure names.",
        seed = report.seed
    );
    let message = if printed {
        message + &printed_lines(report)
    } else {
        message
    };
    json!({
        "score": points(earned),
        "execution_time": report.seconds.round() as u64,
        "output": message,
        "output_format": TEXT,
        "test_output_format": TEXT,
        "test_name_format": TEXT,
        "visibility": visibility,
        "stdout_visibility": Visibility::Hidden,
        "tests": tests,
    })
}

/// What each stage's code printed, as plain text under the stage's title (Gradescope
/// shows `output` as text: nothing in it is markup), or nothing when no code printed.
fn printed_lines(report: &SubmissionReport) -> String {
    report
        .stages
        .iter()
        .filter(|s| !s.printed.is_empty())
        .map(|s| {
            format!(
                "\n\nWhat your code printed in {}:\n{}",
                s.title,
                super::report_printed::as_text(&s.printed)
            )
        })
        .collect()
}

#[cfg(test)]
#[path = "gradescope_tests.rs"]
mod tests;
