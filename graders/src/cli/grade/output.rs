//! What `byo grade` writes: per submission `report.md`, `report.json` and optionally
//! Gradescope's `results.json` and JUnit's `junit.xml`; across submissions `grades.csv`,
//! `grades.json` and `cohort.md`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::json;

use super::submission::{SubmissionReport, Verdict};

/// Writes `text` to `dir/name`.
fn write(dir: &Path, name: &str, text: &str) -> Result<()> {
    let path = dir.join(name);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
}

/// Writes one submission's reports into `dir`.
///
/// # Errors
/// When a file cannot be written.
pub fn write_submission(
    dir: &Path,
    report: &SubmissionReport,
    gradescope: bool,
    junit: bool,
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    write(dir, "report.md", &markdown(report))?;
    write(dir, "report.json", &serde_json::to_string_pretty(report)?)?;
    if gradescope {
        write(
            dir,
            "results.json",
            &serde_json::to_string_pretty(&gradescope_results(report))?,
        )?;
    }
    if junit {
        write(dir, "junit.xml", &junit_xml(report))?;
    }
    Ok(())
}

fn verdict_text(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Passed => "pass",
        Verdict::Failed => "fail",
        Verdict::NotStarted => "not started",
        Verdict::DoesNotBuild => "does not build",
        Verdict::Blocked => "blocked",
        Verdict::NotJudged => "not judged",
        Verdict::NoGrader => "no grader",
    }
}

/// The human report of one submission.
pub fn markdown(report: &SubmissionReport) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# Grade report: {}\n", report.submission);
    let _ = writeln!(md, "Total: **{:.1} / 100**\n", report.total);
    let p = &report.provenance;
    let _ = writeln!(md, "- submission: `{}`", report.path);
    let _ = writeln!(md, "- seed: {}", report.seed);
    let _ = writeln!(md, "- grader revision: {}", p.grader_revision);
    let _ = writeln!(md, "- Cargo.lock (git blob): {}", p.lock_hash);
    let _ = writeln!(md, "- toolchain: {}", p.toolchain);
    let _ = writeln!(md, "- grading time: {:.1} s\n", report.seconds);
    if let Some(error) = &report.error {
        let _ = writeln!(md, "**This submission could not be graded:** {error}\n");
    }
    let _ = writeln!(
        md,
        "| stage | result | checks passed | score | weight | time |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for stage in &report.stages {
        let passed = stage.checks.iter().filter(|c| c.passed).count();
        let _ = writeln!(
            md,
            "| {} | {} | {passed}/{} | {:.0}% | {} | {:.1} s |",
            stage.title,
            verdict_text(stage.verdict),
            stage.checks.len(),
            stage.score * 100.0,
            stage.weight,
            stage.seconds
        );
    }
    for stage in &report.stages {
        let failing: Vec<_> = stage
            .checks
            .iter()
            .filter(|c| c.failure.is_some())
            .collect();
        let flaky: Vec<_> = stage
            .checks
            .iter()
            .filter_map(|c| c.not_reproduced.as_ref().map(|n| (&c.name, n)))
            .collect();
        if stage.verdict == Verdict::Passed && flaky.is_empty() {
            continue;
        }
        let _ = writeln!(
            md,
            "\n## {}: {}\n",
            stage.title,
            verdict_text(stage.verdict)
        );
        if let Some(errors) = &stage.errors {
            let _ = writeln!(md, "```text\n{errors}\n```");
        }
        for check in failing {
            if let Some(failure) = &check.failure {
                let _ = writeln!(
                    md,
                    "- **{}** ({}):\n\n```text\n{}\n```\n",
                    check.name, failure.anomaly, failure.detail
                );
            }
        }
        for (name, note) in flaky {
            let _ = writeln!(md, "- {name}: {note}");
        }
        for check in stage
            .checks
            .iter()
            .filter(|c| !c.passed && c.failure.is_none())
        {
            let _ = writeln!(
                md,
                "- **{}** (not judged): the driver stopped before every case of this check ran; it earns nothing",
                check.name
            );
        }
    }
    let files = &report.files;
    let _ = writeln!(md, "\n## Files\n");
    let _ = writeln!(
        md,
        "Graded from the submission ({}): {}",
        files.overlaid.len(),
        list(&files.overlaid)
    );
    let _ = writeln!(
        md,
        "\nIgnored (changed, but never used by grading) ({}): {}",
        files.ignored.len(),
        list(&files.ignored)
    );
    let _ = writeln!(
        md,
        "\nRefused ({}): {}",
        files.refused.len(),
        list(&files.refused)
    );
    md
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items
            .iter()
            .map(|i| format!("`{i}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Gradescope's `results.json`: one test per check, worth its share of the stage's weight.
fn gradescope_results(report: &SubmissionReport) -> serde_json::Value {
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
fn junit_xml(report: &SubmissionReport) -> String {
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

/// Writes `grades.csv`, `grades.json` and `cohort.md` for all `reports` into `out`.
///
/// # Errors
/// When a file cannot be written.
pub fn write_gradebook(out: &Path, reports: &[SubmissionReport], stages: &[u8]) -> Result<()> {
    let mut csv = String::from("submission");
    for stage in stages {
        let _ = write!(csv, ",{stage:02}");
    }
    csv.push_str(",total\n");
    let mut rows = Vec::new();
    for report in reports {
        let _ = write!(csv, "{}", csv_field(&report.submission));
        let mut row = serde_json::Map::new();
        row.insert("submission".into(), json!(report.submission));
        for stage in stages {
            let score = report
                .stages
                .iter()
                .find(|s| s.stage == *stage)
                .map_or(0.0, |s| 100.0 * s.score);
            let _ = write!(csv, ",{score:.1}");
            row.insert(format!("{stage:02}"), json!((score * 10.0).round() / 10.0));
        }
        let _ = writeln!(csv, ",{:.1}", report.total);
        row.insert("total".into(), json!((report.total * 10.0).round() / 10.0));
        row.insert("seed".into(), json!(report.seed));
        rows.push(serde_json::Value::Object(row));
    }
    write(out, "grades.csv", &csv)?;
    write(out, "grades.json", &serde_json::to_string_pretty(&rows)?)?;
    write(out, "cohort.md", &cohort(reports))
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Which checks and anomalies fail most across the cohort.
fn cohort(reports: &[SubmissionReport]) -> String {
    let mut by_check: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut by_anomaly: BTreeMap<String, usize> = BTreeMap::new();
    for report in reports {
        for stage in &report.stages {
            if let Some(kind) = match stage.verdict {
                Verdict::DoesNotBuild => Some("does not build"),
                Verdict::Blocked => Some("blocked by an earlier stage"),
                Verdict::NotJudged => Some("not judged"),
                _ => None,
            } {
                *by_anomaly.entry(kind.to_owned()).or_default() += 1;
            }
            for check in &stage.checks {
                if let Some(failure) = &check.failure {
                    *by_check
                        .entry((stage.title.clone(), check.name.clone()))
                        .or_default() += 1;
                    *by_anomaly.entry(failure.anomaly.clone()).or_default() += 1;
                }
            }
        }
    }
    let mut md = format!(
        "# Cohort: {} submission(s)\n\n## Failing checks\n\n",
        reports.len()
    );
    let mut checks: Vec<_> = by_check.into_iter().collect();
    checks.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    md.push_str("| stage | check | submissions failing |\n|---|---|---|\n");
    for ((stage, check), count) in checks {
        let _ = writeln!(md, "| {stage} | {check} | {count} |");
    }
    let mut anomalies: Vec<_> = by_anomaly.into_iter().collect();
    anomalies.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    md.push_str("\n## Anomalies\n\n| anomaly | occurrences |\n|---|---|\n");
    for (anomaly, count) in anomalies {
        let _ = writeln!(md, "| {anomaly} | {count} |");
    }
    md
}
