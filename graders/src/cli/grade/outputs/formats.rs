//! JUnit XML, the interchange format of one submission's grade for CI dashboards
//! (Gradescope's `results.json` is [`super::gradescope`]'s).

use anyhow::{Context, Result};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use crate::cli::grade::model::SubmissionReport;

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
            printed: Vec::new(),
        }
    }

    fn report() -> SubmissionReport {
        SubmissionReport {
            submission: "ada & bob".to_owned(),
            path: "submissions/ada".to_owned(),
            seed: 7,
            draw: Default::default(),
            stage_runs: Default::default(),
            history: Vec::new(),
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
            similarity: Vec::new(),
            term: Default::default(),
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
}
