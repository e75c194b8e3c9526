//! The interchange formats of one submission's grade: Gradescope's `results.json` and
//! JUnit XML, for course platforms and CI dashboards.

use std::fmt::Write as _;

use serde_json::json;

use super::model::SubmissionReport;
use super::output::verdict_text;

/// Gradescope's `results.json`: one test per check, worth its share of the stage's weight.
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
                "max_score": stage_points,
                "output": stage.errors.clone().unwrap_or_else(|| verdict_text(stage.verdict).to_owned()),
            }));
            continue;
        }
        let per_check = stage_points / stage.checks.len() as f64;
        for check in &stage.checks {
            tests.push(json!({
                "name": format!("{}: {}", stage.title, check.name),
                "score": if check.passed { per_check } else { 0.0 },
                "max_score": per_check,
                "output": check.failure.as_ref().map(|f| f.detail.clone()).unwrap_or_default(),
            }));
        }
    }
    json!({ "score": report.total, "output": format!("seed {}", report.seed), "tests": tests })
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// JUnit XML: a suite per stage, a test case per check.
pub fn junit_xml(report: &SubmissionReport) -> String {
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"byo grade: {}\">",
        xml_escape(&report.submission)
    );
    for stage in &report.stages {
        let failures = stage.checks.iter().filter(|c| !c.passed).count();
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{}\">",
            xml_escape(&stage.title),
            stage.checks.len(),
            usize::from(stage.errors.is_some())
        );
        if let Some(errors) = &stage.errors {
            let _ = writeln!(
                xml,
                "    <testcase classname=\"stage{:02}\" name=\"build\"><error message=\"{}\">{}</error></testcase>",
                stage.stage,
                verdict_text(stage.verdict),
                xml_escape(errors)
            );
        }
        for check in &stage.checks {
            let _ = write!(
                xml,
                "    <testcase classname=\"stage{:02}\" name=\"{}\"",
                stage.stage,
                xml_escape(&check.name)
            );
            match (&check.failure, check.passed) {
                (Some(failure), _) => {
                    let _ = writeln!(
                        xml,
                        "><failure message=\"{}\">{}</failure></testcase>",
                        xml_escape(&failure.anomaly),
                        xml_escape(&failure.detail)
                    );
                }
                (None, false) => {
                    let _ = writeln!(
                        xml,
                        "><failure message=\"not every case was judged\"/></testcase>"
                    );
                }
                (None, true) => {
                    let _ = writeln!(xml, "/>");
                }
            }
        }
        let _ = writeln!(xml, "  </testsuite>");
    }
    xml.push_str("</testsuites>\n");
    xml
}
