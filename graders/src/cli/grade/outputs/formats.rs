//! The interchange formats of one submission's grade: Gradescope's `results.json` and
//! JUnit XML, for course platforms and CI dashboards.

use anyhow::{Context, Result};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use serde_json::json;

use crate::cli::grade::model::SubmissionReport;

/// Gradescope's `results.json`: one test per check, worth its weighted share of the
/// stage's points, with its status and visibility; when a gate of the stage fails, no
/// check of it earns anything.
pub fn gradescope_results(report: &SubmissionReport) -> serde_json::Value {
    let weight_sum: f64 = report.stages.iter().map(|s| s.weight).sum();
    let mut tests = Vec::new();
    for stage in &report.stages {
        let stage_points = if weight_sum > 0.0 {
            100.0 * stage.weight / weight_sum
        } else {
            0.0
        };
        if stage.checks.is_empty() {
            tests.push(json!({
                "name": format!("{}", stage.title),
                "score": 0.0,
                "max_score": rounded(stage_points),
                "status": "failed",
                "visibility": "visible",
                "output": stage.errors.clone().unwrap_or_else(|| stage.verdict.text().to_owned()),
            }));
            continue;
        }
        let check_sum: f64 = stage.checks.iter().map(|c| c.weight).sum();
        let earns = stage.score > 0.0;
        for check in &stage.checks {
            let points = if check_sum > 0.0 {
                stage_points * check.weight / check_sum
            } else {
                0.0
            };
            let output = match &check.failure {
                Some(failure) => failure.detail.clone(),
                None if check.passed && !earns => format!(
                    "{}: passed, but earns nothing while a core check of this stage fails",
                    check.name
                ),
                None if check.passed => format!("{}: every case passed", check.name),
                None => format!("{}: not every case was judged", check.name),
            };
            tests.push(json!({
                "name": format!("{}: {}", stage.title, check.name),
                "score": if check.passed && earns { rounded(points) } else { 0.0 },
                "max_score": rounded(points),
                "status": if check.passed { "passed" } else { "failed" },
                "visibility": "visible",
                "output": output,
            }));
        }
    }
    let message = format!(
        "Graded with seed {seed}. Every case below comes from this seed: to replay a failing \
         case, run `byo test NN --seed {seed} --case N` in your repository, with the stage \
         and the case number the failure names.",
        seed = report.seed
    );
    // Gradescope's documented fields: the run's own log (stdout) is the instructor's.
    json!({
        "score": rounded(report.total),
        "execution_time": report.seconds.round() as u64,
        "output": message,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    })
}

/// Two decimals: what a gradebook shows, without a float's noise.
fn rounded(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// JUnit XML: a suite per stage, a test case per check (and one named `build`, failed,
/// for a stage that could not be judged), written by `quick-junit`, which escapes the text.
///
/// # Errors
/// When the XML cannot be serialised.
pub fn junit_xml(report: &SubmissionReport) -> Result<String> {
    let mut junit = Report::new(format!("byo grade: {}", report.submission));
    for stage in &report.stages {
        let classname = format!("stage{:02}", stage.stage);
        let mut suite = TestSuite::new(stage.title.as_str());
        if let Some(errors) = &stage.errors {
            // A stage that does not build fails its tests: it is the learner's to fix,
            // not an error of the grading (JUnit's `error`).
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status
                .set_message(stage.verdict.text())
                .set_description(errors.as_str());
            let mut case = TestCase::new("build", status);
            case.set_classname(classname.as_str());
            suite.add_test_case(case);
        }
        for check in &stage.checks {
            let status = match (&check.failure, check.passed) {
                (Some(failure), _) => {
                    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    status
                        .set_message(failure.anomaly.as_str())
                        .set_description(failure.detail.as_str());
                    status
                }
                (None, false) => {
                    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    status.set_message("not every case was judged");
                    status
                }
                (None, true) => TestCaseStatus::success(),
            };
            let mut case = TestCase::new(check.name.as_str(), status);
            case.set_classname(classname.as_str());
            suite.add_test_case(case);
        }
        junit.add_test_suite(suite);
    }
    junit.to_string().context("writing junit.xml")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::grade::model::{CheckGrade, FailureGrade, Provenance, StageGrade, Verdict};

    fn check(name: &str, failure: Option<&str>) -> CheckGrade {
        CheckGrade {
            name: name.to_owned(),
            passed: failure.is_none(),
            failure: failure.map(|detail| FailureGrade {
                case_index: 3,
                case: "vec![1, 2]".to_owned(),
                anomaly: "wrong result".to_owned(),
                detail: detail.to_owned(),
                misconception: None,
            }),
            not_reproduced: None,
            weight: 1.0,
            gate: false,
        }
    }

    fn stage(number: u8, verdict: Verdict, checks: Vec<CheckGrade>) -> StageGrade {
        StageGrade {
            stage: number,
            title: format!("stage {number:02} · test"),
            verdict,
            score: 0.5,
            weight: 1.0,
            checks,
            errors: (verdict == Verdict::DoesNotBuild).then(|| "error[E0308]: <mismatched>".into()),
            cases_judged: 2,
            seconds: 0.0,
            over_your_stages: None,
        }
    }

    fn report() -> SubmissionReport {
        SubmissionReport {
            submission: "ada & bob".to_owned(),
            path: "submissions/ada".to_owned(),
            seed: 7,
            provenance: Provenance {
                grader_revision: "r".into(),
                lock_hash: "h".into(),
                toolchain: "t".into(),
                sandboxed: true,
                ..Default::default()
            },
            stages: vec![
                stage(
                    1,
                    Verdict::Failed,
                    vec![
                        check("seek", None),
                        check("chain", Some("expected [1] < got \"2\"")),
                    ],
                ),
                stage(2, Verdict::DoesNotBuild, Vec::new()),
            ],
            total: 25.0,
            files: Default::default(),
            file_hashes: Default::default(),
            changed_from_skeleton: Vec::new(),
            error: None,
            seconds: 1.0,
        }
    }

    #[test]
    fn junit_has_a_suite_per_stage_and_escapes_what_it_quotes() {
        let xml = junit_xml(&report()).unwrap();
        assert!(xml.contains(r#"name="byo grade: ada &amp; bob""#), "{xml}");
        assert!(xml.contains(r#"<testsuite name="stage 01 · test" tests="2" disabled="0" errors="0" failures="1""#), "{xml}");
        assert!(xml.contains(r#"<testsuite name="stage 02 · test" tests="1" disabled="0" errors="0" failures="1""#), "{xml}");
        assert!(
            xml.contains("<testcase name=\"seek\" classname=\"stage01\">\n        </testcase>"),
            "{xml}"
        );
        assert!(
            xml.contains(
                r#"<failure message="wrong result">expected [1] &lt; got &quot;2&quot;</failure>"#
            ),
            "{xml}"
        );
        assert!(
            xml.contains(
                r#"<failure message="does not build">error[E0308]: &lt;mismatched&gt;</failure>"#
            ),
            "{xml}"
        );
    }

    #[test]
    fn results_open_with_the_seed_and_every_test_says_something() {
        let mut report = report();
        let results = gradescope_results(&report);
        let message = results["output"].as_str().unwrap();
        assert!(message.starts_with("Graded with seed 7."), "{message}");
        assert!(
            message.contains("byo test NN --seed 7 --case N"),
            "{message}"
        );
        let tests = results["tests"].as_array().unwrap();
        assert_eq!(tests[0]["output"], "seek: every case passed");
        assert_eq!(
            (tests[0]["score"].as_f64(), tests[1]["score"].as_f64()),
            (Some(25.0), Some(0.0))
        );
        // A third stage: points in thirds, rounded; a failed gate earns the stage nothing.
        report
            .stages
            .push(stage(3, Verdict::Passed, vec![check("seek", None)]));
        report.stages[0].checks[1].gate = true;
        report.stages[0].score = 0.0;
        let results = gradescope_results(&report);
        let tests = results["tests"].as_array().unwrap();
        assert_eq!(tests[0]["score"], 0.0, "{results:#}");
        assert!(
            tests[0]["output"]
                .as_str()
                .unwrap()
                .contains("earns nothing")
        );
        assert_eq!(tests[0]["max_score"], 16.67, "{results:#}");
    }
}
